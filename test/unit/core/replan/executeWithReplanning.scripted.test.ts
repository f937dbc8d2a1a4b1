import assert from 'node:assert/strict';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import type { StepRunner } from '../../../../src/core/engine/runOptions';
import { executeWithReplanning } from '../../../../src/core/replan/executeWithReplanning';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import type { Tool } from '../../../../src/core/tools/tool';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

const promptText = (llm: ReturnType<typeof scriptedLlm>, index: number): string =>
  (llm.requests[index]?.messages ?? []).map((message) => String(message.content)).join('\n');
const repairWith = (...steps: { id: string; dependsOn: string[]; onFailure?: string }[]): string =>
  JSON.stringify({ objective: 'x', steps: steps.map((step) => ({ title: `repair ${step.id}`, kind: 'agent', ...step })) });

/** Fails every step whose id starts with "bad" (streaming a line first), completes the others. */
const stepRunner: StepRunner = async (step, ctx) => {
  if (!step.id.startsWith('bad')) return `${step.id} done`;
  ctx.output(`${step.id} tried something`);
  throw new Error(`${step.id} broke`);
};

describe('executeWithReplanning with a scripted replanner', () => {
  let clock: ManualClock;
  beforeEach(() => {
    clock = new ManualClock(Date.parse('2026-03-01T09:00:00Z'), { autoAdvance: true });
  });

  it('asks for one repair plan for every step that asked in the same run, telling the replanner what each tried', async () => {
    const plan = makePlan([
      makeStep('ok'),
      makeStep('badA', { dependsOn: ['ok'], onFailure: 'replan', title: 'Fetch A' }),
      makeStep('badB', { dependsOn: ['ok'], onFailure: 'replan' }),
    ]);
    const replanner = scriptedLlm([repairWith({ id: 'ok', dependsOn: [] }, { id: 'fix', dependsOn: ['ok'] })]);
    const events: RunEvent[] = [];
    const result = await executeWithReplanning(plan, 'objective', {
      replanner,
      stepRunner,
      clock,
      maxConcurrency: 2,
      idSource: () => 'run-1',
      onEvent: (event) => events.push(event),
    });

    assert.equal(result.status, 'completed', result.metadata.reason);
    const started = events.findIndex((event) => event.type === 'replan_started');
    assert.deepEqual(events[started], {
      type: 'replan_started',
      stepId: 'badA',
      reason: 'Steps badA, badB failed and asked for a repair plan.',
      runId: 'run-1',
      seq: events[started - 1]!.seq + 1,
      time: events[started]!.time,
    });
    assert.equal(events[started + 1]?.type, 'replan_completed');
    assert.equal(events[started + 1]?.seq, events[started].seq + 1);
    const prompt = promptText(replanner, 0);
    assert.match(prompt, /- badA \(Fetch A\)\n {2}approach: agent default with input: do badA\n {2}error: badA broke\n {2}output: badA tried something/);
    assert.match(prompt, /- badB \(Step badB\)/);

    const meta = result.metadata;
    assert.equal(meta.totalDurationMs, meta.endedAt! - meta.startedAt!);
    const [record] = meta.replanHistory;
    assert.deepEqual(
      [record?.replan, record?.stepIds, record?.reason, record?.keptStepIds, record?.newStepIds],
      [1, ['badA', 'badB'], 'Steps badA, badB failed and asked for a repair plan.', ['ok'], ['fix']],
    );
  });

  it('shows the replanner what the failed step returned, not only its streamed text, and the project\'s conventions (issue 29)', async () => {
    // A step whose result fails its check: the replanner is shown the result, not just "verification failed".
    const plan = makePlan([makeStep('tests', { input: 'Run the tests', verification: 'result.exitCode === 0', onVerificationFailure: 'replan' })]);
    const returns: StepRunner = async (step) =>
      step.id === 'tests' ? { exitCode: 1, stdout: 'FAILED tests/test_parse.py::test_empty - IndexError' } : `${step.id} done`;
    const agents = { kind: 'agents' as const, path: 'AGENTS.md', directory: '', applyTo: [], text: 'Run the tests with `python3 -m pytest -q`.', bytes: 42 };
    const replanner = scriptedLlm([repairWith({ id: 'fix', dependsOn: [] })]);
    const result = await executeWithReplanning(plan, 'Run the tests and fix the failure', {
      replanner,
      stepRunner: returns,
      clock,
      capabilities: { instructions: [agents], skills: [], diagnostics: [] },
    });
    assert.equal(result.status, 'completed', result.metadata.reason);
    const prompt = promptText(replanner, 0);
    assert.match(
      prompt,
      /- tests \(Step tests\)\n {2}approach: agent default with input: Run the tests\n {2}error: .*\n {2}diagnosis: .*\n {2}returned: \{"exitCode":1,"stdout":"FAILED tests\/test_parse\.py::test_empty - IndexError"\}/,
    );
    assert.match(prompt, /## Project conventions\n.*\n\n### AGENTS\.md\nRun the tests with `python3 -m pytest -q`\./);
    const [record] = result.metadata.replanHistory;
    assert.deepEqual(record?.trials[0]?.result, { exitCode: 1, stdout: 'FAILED tests/test_parse.py::test_empty - IndexError' });
  });

  it('numbers repair plans and stops naming every step that used up its repair plans', async () => {
    const plan = makePlan([makeStep('badA', { onFailure: 'replan' }), makeStep('badB', { onFailure: 'replan' })]);
    const replanner = scriptedLlm([repairWith({ id: 'badA2', dependsOn: [], onFailure: 'replan' }, { id: 'badB2', dependsOn: [], onFailure: 'replan' })]);
    const result = await executeWithReplanning(plan, 'objective', { replanner, stepRunner, clock, maxConcurrency: 2, maxReplanAttempts: 0 });
    assert.equal(result.metadata.replanCount, 0);
    assert.match(result.metadata.reason ?? '', /No repair plan was made: steps badA, badB already had 0 repair plans \(maxReplanAttempts\)\.$/);
    assert.equal(replanner.requests.length, 0);

    const again = scriptedLlm([
      repairWith({ id: 'badC', dependsOn: [], onFailure: 'replan' }),
      repairWith({ id: 'badC', dependsOn: [], onFailure: 'replan' }),
      repairWith({ id: 'badC', dependsOn: [], onFailure: 'replan' }),
    ]);
    const single = await executeWithReplanning(makePlan([makeStep('badC', { onFailure: 'replan' })]), 'objective', {
      replanner: again,
      stepRunner,
      clock,
      maxReplanAttempts: 1,
      maxTotalReplans: 5,
    });
    assert.deepEqual(single.metadata.replanHistory.map((record) => record.replan), [1]);
    assert.match(single.metadata.reason ?? '', /No repair plan was made: step badC already had 1 repair plan \(maxReplanAttempts\)\.$/);
  });

  it('adds why no repair plan was asked for to the run\'s own reason', async () => {
    const result = await executeWithReplanning(makePlan([makeStep('bad', { onFailure: 'replan' })]), 'objective', {
      replanner: scriptedLlm(['{}']),
      stepRunner,
      clock,
      maxTotalReplans: 0,
    });
    assert.equal(
      result.metadata.reason,
      'Step bad failed and asked for a repair plan. No repair plan was made: the limit of 0 repair plans per run is used up.',
    );
  });

  it('does not replan when another step failed without asking for it', async () => {
    const plan = makePlan([makeStep('bad', { onFailure: 'replan' }), makeStep('badStop')]);
    const replanner = scriptedLlm([repairWith({ id: 'fix', dependsOn: [] })]);
    const result = await executeWithReplanning(plan, 'objective', { replanner, stepRunner, clock, maxConcurrency: 2 });
    assert.deepEqual([result.steps['bad']?.status, result.steps['badStop']?.status], ['failed', 'failed']);
    assert.equal(result.metadata.reason, 'Critical step badStop failed: badStop broke');
    assert.equal(replanner.requests.length, 0);
  });

  it('keeps the results it was given: a step that has one does not run again', async () => {
    const ran: string[] = [];
    const plan = makePlan([makeStep('seed'), makeStep('bad', { dependsOn: ['seed'], onFailure: 'replan' })]);
    const replanner = scriptedLlm([repairWith({ id: 'seed', dependsOn: [] }, { id: 'fix', dependsOn: ['seed'] })]);
    const events: RunEvent[] = [];
    const result = await executeWithReplanning(plan, 'objective', {
      replanner,
      clock,
      initialResults: { seed: 'given' },
      keptChanges: { seed: ['a.txt'] },
      stepRunner: async (step, ctx) => (ran.push(step.id), stepRunner(step, ctx)),
      onEvent: (event) => events.push(event),
    });
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.deepEqual(ran, ['bad', 'fix']);
    assert.equal(result.results['seed'], 'given');
    // What the kept step changed goes with it into the repair run, for the guards of that run's writes and commands.
    const kept = events.flatMap((event) => (event.type === 'step_completed' && event.stepId === 'seed' ? [event.keptChanges] : []));
    assert.deepEqual(kept, [['a.txt'], ['a.txt']]);
  });

  it('attack: a repair step\'s blind write over what a completed step of the failed run changed is refused, as in that run', async () => {
    const workspace = createMemoryWorkspace({ 'notes.md': '- buy milk\n' });
    const plan = makePlan([
      makeStep('E', { kind: 'tool', agent: undefined, input: undefined, tool: 'edit_file', args: { path: 'notes.md', edits: [{ search: 'buy', replace: 'bought' }] } }),
      makeStep('bad', { kind: 'tool', agent: undefined, input: undefined, tool: 'read_file', args: { path: 'missing.md' }, dependsOn: ['E'], onFailure: 'replan' }),
    ]);
    const repair = JSON.stringify({
      objective: 'x',
      steps: [
        { id: 'E', title: 'tick', kind: 'tool', tool: 'edit_file', dependsOn: [], args: { path: 'notes.md', edits: [{ search: 'buy', replace: 'bought' }] } },
        { id: 'W', title: 'rewrite', kind: 'tool', tool: 'write_file', dependsOn: [], args: { path: 'notes.md', content: 'water plants\n' } },
      ],
    });
    const result = await executeWithReplanning(plan, 'objective', {
      replanner: scriptedLlm([repair]),
      clock,
      workspace,
      tools: builtinTools(),
      approvalPolicy: 'commandsOnly',
    });
    assert.equal(result.steps.E?.status, 'completed');
    assert.notEqual(result.steps.W?.status, 'completed');
    assert.match(result.steps.W?.error ?? '', /notes\.md was changed in this run by step E \("[^"]*"\), which this step does not depend on/);
    assert.equal(workspace.snapshot()['notes.md'], '- bought milk\n');
  });

  describe('the repair plan', () => {
    const failing = makePlan([makeStep('ok', { title: 'Original ok' }), makeStep('bad', { dependsOn: ['ok'], onFailure: 'replan' })], {
      agents: { helper: { prompt: 'p', tools: [] } },
    });
    const tools = createToolRegistry([readFileTool] as Tool[]);

    it('keeps completed steps as they were, whatever the replanner wrote for them, and accepts warnings', async () => {
      const answer = JSON.stringify({
        objective: 'x',
        agents: { reader: { prompt: 'r', tools: ['read_file', 'teleport'] } },
        steps: [
          { id: 'ok', title: 'Rewritten ok', kind: 'agent', dependsOn: [], input: 'do it differently' },
          { id: 'fix', title: 'fix', kind: 'agent', agent: 'reader', dependsOn: ['ok'] },
        ],
      });
      const replanner = scriptedLlm([answer]);
      const events: RunEvent[] = [];
      const result = await executeWithReplanning(failing, 'objective', { replanner, tools, stepRunner, clock, onEvent: (event) => events.push(event) });
      assert.equal(result.status, 'completed', result.metadata.reason);
      assert.equal(replanner.requests.length, 1, 'a plan with only warnings is not sent back');
      assert.match(promptText(replanner, 0), /read_file/);
      const completed = events.find((event) => event.type === 'replan_completed');
      const repaired = completed?.type === 'replan_completed' ? completed.plan : undefined;
      assert.deepEqual(repaired?.steps.map((step) => [step.id, step.title]), [['ok', 'Original ok'], ['fix', 'fix']]);
      assert.deepEqual(Object.keys(repaired?.agents ?? {}).sort(), ['helper', 'reader']);
    });

    it('says what is still wrong after the second answer, step by step', async () => {
      const invalid = JSON.stringify({ objective: 'x', steps: [{ id: 'fix', title: 'fix', kind: 'tool', tool: 'teleport', dependsOn: ['ghost'] }] });
      const result = await executeWithReplanning(failing, 'objective', { replanner: scriptedLlm([invalid, invalid]), tools, stepRunner, clock });
      assert.match(
        result.metadata.reason ?? '',
        /No repair plan could be made, so the run stops here: The replanner's repair plan is still invalid after it was sent back with its errors: step fix: Step "fix" depends on "ghost".*; step fix: Step "fix" uses tool "teleport"/,
      );
    });

    it('says why an answer that is no plan at all cannot be used', async () => {
      const result = await executeWithReplanning(failing, 'objective', { replanner: scriptedLlm(['{"objective": "x"}']), tools, stepRunner, clock });
      assert.match(
        result.metadata.reason ?? '',
        /No repair plan could be made, so the run stops here: The model's reply did not match the expected structure, even after a repair round: \n- steps: Invalid input: expected array/,
      );
    });
  });
});
