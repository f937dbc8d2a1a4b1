import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { critiquePlan } from '../../../../src/core/plan/critiquePlan';
import { parsePlan } from '../../../../src/core/plan/parsePlan';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';

/** Plans a reviewer would start as they are ("good") or would not ("bad"), and why. */
const labelled = JSON.parse(readFileSync(join(__dirname, '../../../fixtures/critic/plans.json'), 'utf8')) as { label: 'good' | 'bad'; why: string; plan: unknown }[];
const tools = createToolRegistry(builtinTools());

function scored(entry: (typeof labelled)[number]): { why: string; score: number; findings: string[] } {
  const parsed = parsePlan(entry.plan);
  assert.ok(parsed.ok, `${entry.why}: the fixture does not parse: ${parsed.ok ? '' : parsed.errors.join('; ')}`);
  const critique = critiquePlan(parsed.plan, { tools });
  return { why: entry.why, score: critique.score, findings: critique.issues.map((issue) => `${issue.severity} ${issue.check}${issue.stepId ? ` ${issue.stepId}` : ''}`) };
}

describe('critiquePlan calibration on labelled plans', () => {
  it('has at least 20 good and 20 bad plans', () => {
    assert.ok(labelled.filter((entry) => entry.label === 'good').length >= 20);
    assert.ok(labelled.filter((entry) => entry.label === 'bad').length >= 20);
  });

  it('scores every good plan at least 8', () => {
    const low = labelled.filter((entry) => entry.label === 'good').map(scored).filter((result) => result.score < 8);
    assert.deepEqual(low, []);
  });

  it('scores every bad plan at most 5', () => {
    const high = labelled.filter((entry) => entry.label === 'bad').map(scored).filter((result) => result.score > 5);
    assert.deepEqual(high, []);
  });
});
