import assert from 'node:assert/strict';
import { parsePlan } from '../../../../src/core/plan/parsePlan';
import { critiquePlan } from '../../../../src/core/plan/critiquePlan';
import { validatePlan } from '../../../../src/core/plan/validatePlan';
import { buildPanelViewModel } from '../../../../src/core/view/buildPanelViewModel';
import { maxArgumentsDepth } from '../../../../src/shared/stepEditSchema';
import { maxPlanSteps } from '../../../../src/core/plan/planSchema';

/** A JSON text of an object nested `depth` levels deep around a string (written as text: no recursion here either). */
function nestedText(depth: number): string {
  return `${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`;
}

/** A plan file's text whose write step has `deep` among its arguments and `schema` as its output schema. */
function planText(deep: string, schema = '{"type":"object"}'): string {
  return `{"objective":"Write notes","steps":[{"id":"W","title":"Write","kind":"tool","tool":"write_file","dependsOn":[],` +
    `"args":{"path":"notes.md","content":"x","deep":${deep}},"outputSchema":${schema}}]}`;
}

describe('parsePlan: attacks on its free-form values', () => {
  it('attack: arguments nested a thousand levels deep are refused, saying what to do (the plan was taken and every view of it failed)', () => {
    for (const depth of [1_000, 100_000]) {
      const parsed = parsePlan(planText(nestedText(depth)));
      assert.deepEqual(parsed, { ok: false, errors: [`Step W: Keep its arguments under ${maxArgumentsDepth} levels deep.`] }, `depth ${depth}`);
    }
  });

  it('attack: an output schema nested as deep is refused too', () => {
    const parsed = parsePlan(planText('"y"', nestedText(5_000)));
    assert.deepEqual(parsed, { ok: false, errors: [`Step W: Keep its output schema under ${maxArgumentsDepth} levels deep.`] });
  });

  it('attack: 20,000 entries or 7 million characters of arguments are refused; a 5 MiB file content is taken', () => {
    const many = `[${Array.from({ length: 20_000 }, () => '1').join(',')}]`;
    assert.deepEqual(parsePlan(planText(many)), { ok: false, errors: ['Step W: Keep its arguments under 10,000 entries.'] });
    const long = JSON.stringify('x'.repeat(7_000_000));
    assert.deepEqual(parsePlan(planText(long)), { ok: false, errors: ['Step W: Keep its arguments under 6,000,000 characters: put a long text in a file.'] });
    const file = parsePlan(planText(JSON.stringify('y'.repeat(5 * 1024 * 1024))));
    assert.ok(file.ok, file.ok ? '' : file.errors.join('; '));
  });

  it('attack: a plan of 100,000 steps is refused before its steps are read (a model\'s 10,000 ran for minutes and printed megabytes); 10,000 are taken', () => {
    const steps = (count: number) => JSON.stringify({ objective: 'Many', steps: Array.from({ length: count }, (_, index) => ({ id: `S${index + 1}`, title: `Step ${index + 1}`, kind: 'manual', dependsOn: [] })) });
    assert.deepEqual(parsePlan(steps(100_000)), {
      ok: false,
      errors: [`The plan has 100,000 steps, more than the ${maxPlanSteps.toLocaleString('en-US')} one plan may have. Split the work into smaller plans, or group steps into larger ones.`],
    });
    const most = parsePlan(steps(maxPlanSteps));
    assert.ok(most.ok && most.plan.steps.length === maxPlanSteps);
  });

  it('takes arguments just within the depth, and the plan is checked and shown', () => {
    const parsed = parsePlan(planText(nestedText(maxArgumentsDepth - 2)));
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.errors.join('; '));
    const plan = parsed.plan;
    const body = buildPanelViewModel({ plan, critique: critiquePlan(plan), diagnostics: validatePlan(plan, { tools: ['write_file'] }) });
    assert.equal(body.mode, 'review');
  });
});
