import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { replayJournal } from '../../../../src/core/engine/replayJournal';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../src/core/engine/runPlan';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import type { Tool } from '../../../../src/core/tools/tool';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { buildPanelViewModel } from '../../../../src/core/view/buildPanelViewModel';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

const tools = createToolRegistry([readFileTool, writeFileTool] as Tool[]);

/** The run summary the panel shows for a finished run's state, from nothing but that state. */
function summaryOf(state: Parameters<typeof buildPanelViewModel>[1] extends infer R ? (R extends { state: infer S } ? S : never) : never) {
  const body = buildPanelViewModel(undefined, { state, now: state.endedAt ?? 0 });
  assert.equal(body.mode, 'run');
  return body.mode === 'run' ? body.run : undefined!;
}

describe('the run summary comes from the journal: every change and every model call', () => {
  it('an agent step that edits a file with three model calls: the file is changed, three calls counted, Undo offered', async () => {
    const llm = scriptedLlm(
      [
        { toolCalls: [{ id: 'c1', name: 'read_file', arguments: JSON.stringify({ path: 'notes.md' }) }] },
        { toolCalls: [{ id: 'c2', name: 'write_file', arguments: JSON.stringify({ path: 'notes.md', content: '# Notes\nedited\n' }) }] },
        'Edited notes.md.',
      ],
      { tokensPerCall: 100, costPerCall: 0.002 },
    );
    const plan = makePlan([makeStep('S1', { agent: 'editor', input: 'Edit notes.md' })], { agents: { editor: { prompt: 'You edit files.', tools: ['read_file', 'write_file'] } } });
    const workspace = createMemoryWorkspace({ 'notes.md': '# Notes\n' });
    const handle = runPlan(plan, { llm, tools, workspace, interaction: ScriptedInteraction.approvingAll(), clock: new ManualClock(0, { autoAdvance: true }), agentLimits: { timeoutMs: Infinity } });
    const result = await handle.result;
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.equal(workspace.snapshot()['notes.md'], '# Notes\nedited\n');
    const run = summaryOf(handle.state());
    assert.deepEqual(run.summary?.changedFiles, ['notes.md']);
    assert.equal(run.summary?.canUndo, true);
    assert.deepEqual(run.usage, { requests: 3, totalTokens: 600, cachedTokens: 0, costUsd: 0.006, savedUsd: 0, unpricedRequests: 0 });
  });

  it('a resumed run that created two files: both in the summary (one before, one after the resume), with Undo', async () => {
    const store = createMemoryRunStore();
    const workspace = createMemoryWorkspace({});
    const write = (id: string, path: string, dependsOn: string[]) => makeStep(id, { kind: 'tool', tool: 'write_file', args: { path, content: `${id}\n` }, agent: undefined, dependsOn });
    const ask = makeStep('Q', { kind: 'clarification', input: 'Go on?', agent: undefined, dependsOn: ['W1'] });
    const plan = makePlan([write('W1', 'one.txt', []), ask, write('W2', 'two.txt', ['Q'])]);
    // Without an interaction the question is deferred: the run waits after W1, and resume answers it.
    const first = await runPlan(plan, { tools, workspace, store, idSource: () => 'run-two', approvalPolicy: 'commandsOnly', clock: new ManualClock() }).result;
    assert.equal(first.status, 'waiting');
    const resumed = await resumeRun('run-two', { tools, workspace, store, approvalPolicy: 'commandsOnly', clock: new ManualClock(), answers: { Q: 'yes' } }).result;
    assert.equal(resumed.status, 'completed', resumed.metadata.reason);
    assert.deepEqual(Object.keys(workspace.snapshot()).sort(), ['one.txt', 'two.txt']);
    const journal = await store.load('run-two');
    const run = summaryOf(replayJournal('run-two', journal!));
    assert.deepEqual(run.summary?.changedFiles, ['one.txt', 'two.txt']);
    assert.equal(run.summary?.canUndo, true);
  });
});
