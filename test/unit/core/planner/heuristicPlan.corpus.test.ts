import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeCheck } from '../../../../src/core/plan/describeCheck';
import { heuristicPlan } from '../../../../src/core/planner/heuristicPlan';
import { validatePlan } from '../../../../src/core/plan/validatePlan';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';

/**
 * Ordinary requests a newcomer types; `expect` (for some) is each step's tool, or "manual";
 * `checks` (for some) is each step's checks in words, "" for none.
 */
const corpus = JSON.parse(readFileSync(join(__dirname, '../../../fixtures/planner/requests.json'), 'utf8')) as { request: string; expect?: string[]; checks?: string[] }[];
const registry = createToolRegistry(builtinTools());

describe('heuristicPlan over a corpus of ordinary requests', () => {
  it('has at least 100 varied requests, some labelled', () => {
    assert.ok(corpus.length >= 100, `only ${corpus.length} requests`);
    assert.equal(new Set(corpus.map((entry) => entry.request)).size, corpus.length, 'a request is listed twice');
    assert.ok(corpus.filter((entry) => entry.expect).length >= 40);
  });

  it('plans every request into a plan the built-in tools accept, without a model and with one', () => {
    const problems = corpus.flatMap(({ request }) =>
      [false, true].flatMap((model) =>
        validatePlan(heuristicPlan(request, { model }), { tools: registry }).map((diagnostic) => `${JSON.stringify(request)} (model: ${model}): ${diagnostic.message}`),
      ),
    );
    assert.deepEqual(problems, []);
  });

  it('without a model, every step is a tool call or yours to do', () => {
    const others = corpus.flatMap(({ request }) => heuristicPlan(request).steps.filter((step) => step.kind !== 'tool' && step.kind !== 'manual').map((step) => `${request}: ${step.id} ${step.kind}`));
    assert.deepEqual(others, []);
  });

  it('picks the expected tool for each step of the labelled requests', () => {
    const wrong = corpus.flatMap(({ request, expect }) => {
      if (!expect) return [];
      const got = heuristicPlan(request).steps.map((step) => (step.kind === 'tool' ? step.tool! : step.kind));
      return JSON.stringify(got) === JSON.stringify(expect) ? [] : [`${JSON.stringify(request)}: expected ${expect.join(', ')}, got ${got.join(', ')}`];
    });
    assert.deepEqual(wrong, []);
  });

  it('adds the expected checks to each step of the labelled requests, with a model and without', () => {
    assert.ok(corpus.filter((entry) => entry.checks).length >= 20);
    const wrong = corpus.flatMap(({ request, checks }) =>
      !checks
        ? []
        : [false, true].flatMap((model) => {
            const got = heuristicPlan(request, { model }).steps.map((step) => (step.checks ?? []).map(describeCheck).join('; '));
            return JSON.stringify(got) === JSON.stringify(checks) ? [] : [`${JSON.stringify(request)} (model: ${model}): expected ${JSON.stringify(checks)}, got ${JSON.stringify(got)}`];
          }),
    );
    assert.deepEqual(wrong, []);
  });

  it('checks every file a tool step writes or deletes, and adds no check to other tool steps', () => {
    const wrong = corpus.flatMap(({ request }) =>
      heuristicPlan(request).steps.flatMap((step) => {
        if (step.kind !== 'tool') return [];
        const path = step.args?.['path'];
        const expected = step.tool === 'write_file' ? [{ kind: 'file_exists', path }] : step.tool === 'delete_file' ? [{ kind: 'file_absent', path }] : undefined;
        return JSON.stringify(step.checks) === JSON.stringify(expected) ? [] : [`${JSON.stringify(request)} ${step.id} ${step.tool!}: ${JSON.stringify(step.checks)}`];
      }),
    );
    assert.deepEqual(wrong, []);
  });
});
