import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { ResumeOptions, RunResult } from '../../../../src/core/engine/runOptions';
import type { LlmChatResponse } from '../../../../src/core/llm/llmTypes';
import type { CommandRunner, CommandSpec } from '../../../../src/core/commandPorts';
import type { RunStore } from '../../../../src/core/runStorePorts';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace, type MemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { scriptedLlm, type ScriptedReply } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

const call = (name: string, args: unknown): Partial<LlmChatResponse> => ({ toolCalls: [{ id: `call-${name}`, name, arguments: JSON.stringify(args) }] });
const writeNotes = (content: string) => call('write_file', { path: 'notes.txt', content });
const pwn = call('run_command', { argv: ['sh', '-c', 'echo PWNED > pwned.txt; rm -f important.txt'] });

/** A command runner that records what it was asked to start and starts nothing. */
function recordingRunner(): CommandRunner & { started: CommandSpec[] } {
  const started: CommandSpec[] = [];
  return {
    started,
    describeCwd: async (cwd) => `/ws/${cwd}`,
    run: async (spec) => {
      started.push(spec);
      return { exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 1 };
    },
  };
}

describe('resumeRun: an answer applies only to the request the user saw', () => {
  const plan = makePlan([makeStep('S1', { input: 'Write the notes.', onFailure: 'stop', critical: false })]);
  let store: RunStore;
  let workspace: MemoryWorkspace;
  let runner: ReturnType<typeof recordingRunner>;
  const options = (replies: ScriptedReply[]) => ({
    store,
    workspace,
    commandRunner: runner,
    tools: builtinTools(),
    llm: scriptedLlm(replies),
    clock: new ManualClock(),
  });
  const resume = (replies: ScriptedReply[], answers: Partial<ResumeOptions>): Promise<RunResult> => resumeRun('bound', { ...options(replies), ...answers }).result;

  beforeEach(async () => {
    store = createMemoryRunStore();
    workspace = createMemoryWorkspace({ 'important.txt': 'keep me\n' });
    runner = recordingRunner();
    const first = await runPlan(plan, { ...options([writeNotes('A\n'), 'done']), idSource: () => 'bound' }).result;
    assert.equal(first.status, 'waiting');
    assert.deepEqual(first.pending?.map((request) => [request.stepId, request.kind, request.prompt]), [['S1', 'approval', 'Write notes.txt?']]);
  });

  it('a resumed agent that asks for a command instead of the approved write is asked again, and nothing runs', async () => {
    const resumed = await resume([pwn, 'done'], { approvals: { S1: true } });
    assert.equal(resumed.status, 'waiting', 'the different request waits for its own answer');
    assert.deepEqual(runner.started, [], 'the command never started');
    const pending = resumed.pending?.[0];
    assert.equal(pending?.kind, 'approval');
    assert.match(pending?.prompt ?? '', /^Run `sh -c "echo PWNED/);
  });

  it('a resumed agent that asks to write other content or another file is asked again, and nothing else is written', async () => {
    const other = await resume([call('write_file', { path: 'notes.txt', content: 'B\n' }), call('write_file', { path: 'pwned.txt', content: 'x' }), 'done'], { approvals: { S1: true } });
    assert.equal(other.status, 'waiting');
    // The agent continues its conversation: the write it asked for, and the user approved, is made; what it asks next waits.
    assert.deepEqual(workspace.snapshot(), { 'important.txt': 'keep me\n', 'notes.txt': 'A\n' });
    assert.match(JSON.stringify(other.pending?.[0]?.request), /B\\n/);
  });

  it('with an interaction, the different request is asked, not answered by the earlier approval', async () => {
    const interaction = new ScriptedInteraction({ approvals: [{ approved: false, reason: 'not that' }] });
    const resumed = await resumeRun('bound', { ...options([pwn, 'done']), interaction, approvals: { S1: true } }).result;
    assert.deepEqual(interaction.approvals().map((request) => request.kind), ['command']);
    assert.deepEqual(runner.started, []);
    assert.equal(resumed.status, 'completed');
  });

  it('a change refused on the spot is refused again without asking when the agent repeats it', async () => {
    const interaction = new ScriptedInteraction({ approvals: [{ approved: false, reason: 'no notes' }] });
    const resumed = await resumeRun('bound', { ...options([writeNotes('A\n'), writeNotes('A\n'), 'done']), interaction }).result;
    assert.equal(interaction.approvals().length, 1);
    assert.equal(resumed.status, 'partial', 'the refused step is not done');
    assert.equal(workspace.snapshot()['notes.txt'], undefined);
  });

  it('the approval applies to the same request, by step id or by the request id printed with it', async () => {
    const byStep = await resume([writeNotes('A\n'), 'done'], { approvals: { S1: true } });
    assert.equal(byStep.status, 'completed');
    assert.equal(workspace.snapshot()['notes.txt'], 'A\n');
  });

  it('accepts the request id as the key', async () => {
    const waiting = await store.load('bound');
    const requested = waiting?.entries.find((entry) => entry.type === 'approval_requested') as { request: { id: string } } | undefined;
    const id = requested?.request.id ?? '';
    assert.match(id, /^S1@[0-9a-f]{12}$/);
    const byId = await resume([writeNotes('A\n'), 'done'], { approvals: { [id]: true } });
    assert.equal(byId.status, 'completed');
    assert.equal(workspace.snapshot()['notes.txt'], 'A\n');
  });

  it('reject, then approve what is asked next, never writes the rejected content', async () => {
    const afterReject = await resume([writeNotes('B\n'), 'done'], { approvals: { S1: false } });
    assert.equal(afterReject.status, 'waiting');
    assert.equal(workspace.snapshot()['notes.txt'], undefined);
    assert.match(JSON.stringify(afterReject.pending?.[0]?.request), /B\\n/);
    // The resumed agent continues its conversation: the rejected write is not asked for again, the waiting one is answered.
    const afterApprove = await resume(['done'], { approvals: { S1: true } });
    assert.equal(afterApprove.status, 'completed');
    assert.equal(workspace.snapshot()['notes.txt'], 'B\n');
  });

  it('an answer that matches no pending request is reported and not used', async () => {
    const resumed = await resume([writeNotes('A\n'), 'done'], { approvals: { S9: true }, answers: { S1: 'yes' } });
    assert.equal(resumed.status, 'waiting');
    assert.equal(workspace.snapshot()['notes.txt'], undefined);
    assert.ok(resumed.metadata.warnings.some((warning) => /S9/.test(warning) && /no pending request/.test(warning)), resumed.metadata.warnings.join('\n'));
    assert.ok(resumed.metadata.warnings.some((warning) => /S1/.test(warning) && /waits for an approval/.test(warning)), resumed.metadata.warnings.join('\n'));
  });
});

describe('a rejected approval skips its step', () => {
  const write = (id: string, patch: Parameters<typeof makeStep>[1] = {}) =>
    makeStep(id, { kind: 'tool', tool: 'write_file', args: { path: `${id}.txt`, content: id }, onFailure: 'retry', maxAttempts: 3, ...patch });
  const run = (critical: boolean, interaction: ScriptedInteraction) => {
    const workspace = createMemoryWorkspace();
    const plan = makePlan([write('W', { critical }), makeStep('after', { kind: 'tool', tool: 'read_file', args: { path: 'W.txt' }, dependsOn: ['W'] }), makeStep('free', { kind: 'tool', tool: 'list_files', args: {} })]);
    return { workspace, result: runPlan(plan, { workspace, tools: builtinTools(), interaction, clock: new ManualClock() }).result };
  };

  it('is never retried: the step is skipped with the user\'s reason and so are its dependents', async () => {
    const interaction = new ScriptedInteraction({ approvals: [{ approved: false, reason: 'wrong file' }] });
    const { workspace, result } = run(false, interaction);
    const done = await result;
    assert.equal(interaction.approvals().length, 1, 'asked once, not once per attempt');
    assert.equal(done.steps['W']?.status, 'skipped');
    assert.equal(done.steps['W']?.attempts, 1);
    assert.match(done.steps['W']?.reason ?? '', /^Rejected by you: wrong file/);
    assert.equal(done.steps['after']?.status, 'skipped');
    assert.equal(done.steps['after']?.reason, 'dependency W was rejected', 'your reason is said once, on W');
    assert.equal(done.steps['free']?.status, 'completed');
    assert.equal(done.status, 'partial', 'not every step is done');
    assert.equal(done.steps['W']?.skipCause, 'rejected');
    assert.deepEqual(workspace.snapshot(), {});
  });

  it('a critical step rejected is skipped the same way: the independent step still runs and the run is partly done, not failed', async () => {
    const { result } = run(true, new ScriptedInteraction({ approvals: [{ approved: false }] }));
    const done = await result;
    assert.equal(done.status, 'partial');
    assert.equal(done.steps['W']?.status, 'skipped');
    assert.equal(done.steps['free']?.status, 'completed');
    assert.equal(done.metadata.reason, 'Step W was rejected by you; step after was skipped.');
  });

  it('a rejection given at resume skips the step the same way', async () => {
    const store = createMemoryRunStore();
    const workspace = createMemoryWorkspace();
    const plan = makePlan([write('W', { critical: false })]);
    const first = await runPlan(plan, { store, workspace, tools: builtinTools(), clock: new ManualClock(), idSource: () => 'rej' }).result;
    assert.equal(first.status, 'waiting');
    const resumed = await resumeRun('rej', { store, workspace, tools: builtinTools(), clock: new ManualClock(), approvals: { W: false } }).result;
    assert.equal(resumed.steps['W']?.status, 'skipped');
    assert.match(resumed.steps['W']?.reason ?? '', /^Rejected by you/);
    const again = await resumeRun('rej', { store, workspace, tools: builtinTools(), clock: new ManualClock(), approvals: { W: true } }).result;
    assert.equal(again.steps['W']?.status, 'skipped');
    assert.deepEqual(workspace.snapshot(), {});
  });
});
