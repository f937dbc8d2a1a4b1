import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { Plan, Step } from '../../../../src/core/plan/planSchema';
import { stepKinds } from '../../../../src/shared/vocabulary';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { PanelSession } from '../../../../src/core/view/panelSession';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makePlan, makeStep } from '../../../support/randomPlans';

const tools = builtinTools();
const toolNames = [...tools.map((tool) => tool.name), 'fetch_web_page'];
// Argument objects right for some tools and wrong for others, templates included.
const argsArbitrary = fc.constantFrom<Record<string, unknown>>(
  {}, { path: 'a.txt' }, { path: 'a.txt', content: '' }, { path: 'a.txt', content: 1 }, { file: 'a.txt' }, { query: 'TODO' }, { query: '' }, { pattern: 'TODO' },
  { glob: 'src/**' }, { argv: ['npm', 'test'] }, { argv: 'npm test' }, { argv: [] }, { path: '{{results.s0}}' }, { path: '$s1' }, { path: 'a.txt', edits: [{ search: 'a', replace: 'b' }] },
  { path: 'a.txt', startLine: 0 }, { question: 'Which one?' }, { argv: ['make'], timeoutMs: 5 },
);
const validArgs: Record<string, Record<string, unknown>> = {
  read_file: { path: 'a.txt' }, list_files: { glob: 'src/**' }, search_text: { query: 'TODO' }, write_file: { path: 'a.txt', content: '' }, edit_file: { path: 'a.txt', edits: [{ search: 'a', replace: 'b' }] },
  create_directory: { path: 'out' }, delete_file: { path: '$s0' }, run_command: { argv: ['npm', 'test'] }, ask_user: { question: 'Which one?' },
};
const rarely = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
const predicateArbitrary = rarely(fc.constantFrom('result.length > 0', 'true', 'result ===', 'results.s0 !== undefined', 'x =>', ''));
const stepArbitrary = (index: number, count: number) =>
  fc.record({
    kind: fc.constantFrom(...stepKinds),
    tool: rarely(fc.constantFrom(...toolNames)),
    args: rarely(argsArbitrary),
    agent: fc.constantFrom('default', 'direct', 'coder', 'coder', 'coder', 'ghost'),
    input: fc.constantFrom('do it', '', 'use {{results.s0}}'),
    title: fc.constantFrom('Step', 'Step', 'Step', ' '),
    dependsOn: fc.oneof(
      { weight: 9, arbitrary: fc.uniqueArray(fc.integer({ min: 0, max: Math.max(0, index - 1) }).map((at) => `s${at}`), { maxLength: index === 0 ? 0 : 2 }) },
      { weight: 1, arbitrary: fc.uniqueArray(fc.integer({ min: 0, max: count }).map((at) => `s${at}`), { maxLength: 2 }) },
    ),
    verification: predicateArbitrary,
    when: predicateArbitrary,
    skipped: fc.constantFrom(false, false, false, false, true),
  }).map((fields): Step => {
    const step = makeStep(`s${index}`, { kind: fields.kind, title: fields.title, input: fields.input, dependsOn: fields.dependsOn, skipped: fields.skipped, agent: fields.kind === 'agent' ? fields.agent : undefined });
    const tool = fields.kind === 'tool' ? (fields.tool ?? 'read_file') : fields.tool;
    if (tool !== undefined) {
      step.tool = tool;
      step.args = fields.args ?? validArgs[tool] ?? {};
    }
    if (fields.verification !== undefined) step.verification = fields.verification;
    if (fields.when !== undefined) step.when = fields.when;
    return step;
  });
const planArbitrary: fc.Arbitrary<Plan> = fc
  .integer({ min: 1, max: 5 })
  .chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => stepArbitrary(index, count))))
  .map((steps) => makePlan(steps, { agents: { coder: { prompt: 'You code.', tools: ['read_file'] } } }));

/** Starts `plan` with the review's tools, cancelled at once: only the check before the first step matters. */
async function refusalOf(plan: Plan): Promise<string | undefined> {
  const cancelled = new AbortController();
  cancelled.abort(new Error('stop after the start check'));
  const result = await runPlan(plan, { tools, workspace: createMemoryWorkspace(), clock: new ManualClock(0, { autoAdvance: true }), signal: cancelled.signal, idSource: () => 'run-p' }).result;
  return result.status === 'failed' && /The plan is invalid/.test(result.metadata.reason ?? '') ? result.metadata.reason : undefined;
}

describe('PanelSession (property: what the review accepts, Start accepts)', () => {
  it('starts every plan the review shows without an error, and the review blocks every plan the run refuses', async () => {
    let accepted = 0;
    let blocked = 0;
    await fc.assert(
      fc.asyncProperty(planArbitrary, async (plan) => {
        const session = new PanelSession('p', tools);
        session.setPlan(plan);
        const view = session.snapshot(0);
        assert.ok(view.mode === 'review');
        const reviewErrors = [...view.review.planProblems, ...view.review.steps.flatMap((step) => step.problems)].filter((problem) => problem.startsWith('Error'));
        const refusal = await refusalOf(plan);
        if (session.startBlockedReason() === undefined) {
          accepted += 1;
          assert.equal(refusal, undefined, `the review showed no error, but Start refused: ${refusal}`);
        } else {
          blocked += 1;
        }
        // Every error the run names is on the review, and the review shows no error the run would not.
        assert.equal(reviewErrors.length > 0, refusal !== undefined, `review: ${reviewErrors.join(' | ')}; run: ${refusal}`);
      }),
      { numRuns: 300 },
    );
    assert.ok(accepted > 20 && blocked > 20, `the generator hardly exercised one side: ${accepted} accepted, ${blocked} blocked`);
  });
});
