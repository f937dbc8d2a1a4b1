import assert from 'node:assert/strict';
import { z } from 'zod';
import type { ExecuteContext } from '../../../../../src/core/engine/executors/stepExecutor';
import { StepFailure } from '../../../../../src/core/tools/stepFailure';
import { toolExecutor } from '../../../../../src/core/engine/executors/toolExecutor';
import { runPlan } from '../../../../../src/core/engine/runPlan';
import { createToolRegistry } from '../../../../../src/core/tools/createToolRegistry';
import type { Step } from '../../../../../src/core/plan/planSchema';
import type { Tool } from '../../../../../src/core/tools/tool';
import { ManualClock } from '../../../../fakes/manualClock';
import { ScriptedInteraction } from '../../../../fakes/scriptedInteraction';
import { answeringInteraction } from '../../../../fakes/answeringInteraction';
import type { ManualStepRequest } from '../../../../../src/core/interactionPorts';
import { makePlan, makeStep } from '../../../../support/randomPlans';

const echo: Tool = {
  name: 'echo',
  description: 'says its text',
  inputSchema: z.object({ text: z.string() }),
  effects: 'read',
  run: (_ctx, input) => Promise.resolve(`echo: ${(input as { text: string }).text}`),
};

const toolStep = (patch: Partial<Step>): Step => makeStep('S1', { kind: 'tool', agent: undefined, input: undefined, ...patch });

/**
 * The failure of one attempt of `step` with `tools`. A run refuses such plans before they
 * start; the executor still refuses them when called, as after a resume with other tools.
 */
async function failure(step: Step, tools: Tool[], input: unknown = step.args): Promise<StepFailure> {
  // Only what the refusals read: the step and the run's tools.
  const ctx = { step, options: { tools: createToolRegistry(tools) } } as unknown as ExecuteContext;
  const error: unknown = await toolExecutor.execute(ctx, input).then(() => undefined, (caught: unknown) => caught);
  assert.ok(error instanceof StepFailure, `expected a step failure, got ${String(error)}`);
  return error;
}

describe('tool steps', () => {
  it('call the tool with the arguments the schema parsed, templates resolved', async () => {
    const plan = makePlan([makeStep('A', { input: 'hi' }), toolStep({ tool: 'echo', args: { text: '{{results.A}}' }, dependsOn: ['A'] })]);
    const result = await runPlan(plan, { clock: new ManualClock(0, { autoAdvance: true }), interaction: new ScriptedInteraction(), tools: [echo], stepRunner: async (_step, ctx) => ctx.input }).result;
    assert.equal(result.status, 'completed');
    assert.equal(result.results['S1'], 'echo: hi');
  });

  // The one text form of a tool's result (toolResultText) in every place a result becomes text: a "{{results.R}}" in
  // a manual step's instructions or inside a longer argument read a JSON object where the file's text belonged.
  it('put a tool result into a text as the tool\'s own text form, in a longer argument and in a person\'s instructions alike', async () => {
    const reader: Tool = {
      name: 'reader',
      description: 'reads a file',
      inputSchema: z.object({}),
      effects: 'read',
      run: () => Promise.resolve({ path: 'src/notes.js', content: 'export function add() {}\n' }),
      resultText: (output) => (output as { content: string }).content,
    };
    const asked: ManualStepRequest[] = [];
    const plan = makePlan([
      toolStep({ id: 'R', tool: 'reader', args: {} }),
      toolStep({ tool: 'echo', args: { text: 'text: {{results.R}} path: {{results.R.path}}' }, dependsOn: ['R'] }),
      makeStep('M', { kind: 'manual', agent: undefined, input: 'Document these: {{results.R}}', dependsOn: ['R'] }),
    ]);
    const interaction = answeringInteraction({ manual: (request) => (asked.push(request), { done: true, note: 'done' }) });
    const result = await runPlan(plan, { clock: new ManualClock(0, { autoAdvance: true }), interaction, tools: [reader, echo] }).result;
    assert.equal(result.status, 'completed');
    assert.equal(result.results['S1'], 'echo: text: export function add() {}\n path: src/notes.js', 'a key into the result is its value');
    assert.deepEqual(asked.map((request) => request.instructions), ['Document these: export function add() {}\n']);
  });

  it('refuse, without retrying, a call of a tool the run does not have, naming the ones it has', async () => {
    const unknown = await failure(toolStep({ tool: 'fetch_url', args: {} }), [echo]);
    assert.equal(unknown.message, 'Step S1 calls the unknown tool "fetch_url". Registered tools: echo. Fix the step or register the tool.');
    assert.equal(unknown.retryable, false);
    assert.match((await failure(toolStep({ tool: 'fetch_url', args: {} }), [])).message, /Registered tools: none\. Fix the step/);
  });

  it('refuse, without retrying, arguments the tool\'s schema rejects, saying what is wrong', async () => {
    const invalid = await failure(toolStep({ tool: 'echo', args: { text: 3 } }), [echo]);
    assert.match(invalid.message, /^Step S1: the arguments of "echo" are invalid: .*text/s);
    assert.equal(invalid.retryable, false);
  });

  it('refuse, without retrying, a tool step that names no tool', async () => {
    const nameless = await failure(toolStep({ tool: undefined }), [echo]);
    assert.equal(nameless.message, 'Step S1 is a tool step without a "tool"; name the tool to call.');
    assert.equal(nameless.retryable, false);
  });
});
