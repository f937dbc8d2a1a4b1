import assert from 'node:assert/strict';
import Module from 'node:module';
import { runChain } from '../../../src/core/engine/replanRecord';
import { loadExecution } from '../../../src/core/replan/loadExecution';
import { filesChangedSince } from '../../../src/core/tools/undoRun';
import { createMemoryRunStore } from '../../../src/core/engine/memoryRunStore';
import type { ReplanRecord } from '../../../src/core/engine/replanRecord';
import type { RunEvent } from '../../../src/core/engine/runEvents';
import type { Checkpoint, JournalEntry } from '../../../src/core/runStorePorts';
import { createMemoryCheckpointStore } from '../../../src/core/tools/checkpointStore';
import { sha256 } from '../../../src/core/tools/fileVersions';
import type { UndoQuestion } from '../../../src/vscode/confirmUndo';
import type { FolderLanes } from '../../../src/vscode/folderLanes';
import type * as RunChangesModule from '../../../src/vscode/runChanges';
import { createMemoryWorkspace } from '../../fakes/memoryWorkspace';
import { EventEmitter } from '../../fakes/vscodeEventEmitter';
import { requireWithVscode } from '../../fakes/requireWithVscode';
import { numberedEvents } from '../../support/numberedEvents';
import { makePlan, makeStep } from '../../support/randomPlans';

// A workspace of two folders: a question about a run of one of them names it.
const [api, web] = [{ name: 'api', index: 0 }, { name: 'web', index: 1 }];
const { RunChanges } = requireWithVscode<typeof RunChangesModule>(require.resolve('../../../src/vscode/runChanges'), {
  EventEmitter,
  workspace: { workspaceFolders: [api, web] },
});

// A trial: a run and its repair run have the same title; Undo's question did not say which one it undid, and offered
// "Undo run" for the replaced run, whose only file its repair had changed since.
describe('RunChanges.undoAsked: the question names which run of a repaired task is undone', () => {
  // The runtime bundle is not built in unit tests: RunChanges loads it from a stand-in holding the real functions it asks.
  const runtimePath = require.resolve('../../../src/vscode/runtime');
  before(() => {
    const runtime = new Module(runtimePath);
    runtime.exports = { loadExecution, runChain, filesChangedSince };
    runtime.loaded = true;
    require.cache[runtimePath] = runtime;
  });
  after(() => delete require.cache[runtimePath]);
  const plan = makePlan([makeStep('A'), makeStep('B', { dependsOn: ['A'], onFailure: 'replan' })], { objective: 'Add --verbose' });
  const repair = makePlan([makeStep('A'), makeStep('C', { dependsOn: ['A'] })], { id: plan.id, objective: 'Add --verbose', version: 2 });
  const record: ReplanRecord = {
    replan: 1, failedRunId: 'r', stepIds: ['B'], reason: 'B failed', startedAt: 2_000, endedAt: 2_500,
    keptStepIds: ['A'], newStepIds: ['C'], repaired: false, planVersion: 2, trials: [],
  };
  const first = numberedEvents('r', [
    { type: 'run_started', plan },
    { type: 'step_started', stepId: 'A', attempt: 1 },
    { type: 'file_changed', stepId: 'A', path: 'cli.js', operation: 'write' },
    { type: 'step_completed', stepId: 'A', result: 'a' },
    { type: 'step_started', stepId: 'B', attempt: 1 },
    { type: 'step_failed', stepId: 'B', attempt: 1, error: 'no', disposition: 'fail', replan: true },
    { type: 'run_failed', reason: 'B failed' },
  ]);
  const second = numberedEvents('r-replan-1', [
    { type: 'run_started', plan: repair, replanHistory: [record] },
    { type: 'step_completed', stepId: 'A', result: 'a', restored: true },
    { type: 'step_started', stepId: 'C', attempt: 1 },
    { type: 'file_changed', stepId: 'C', path: 'cli.js', operation: 'edit' },
    { type: 'step_completed', stepId: 'C', result: 'c' },
    { type: 'run_completed' },
  ], 1, 60_000);
  const change = (runId: string, stepId: string, seq: number, before: string | undefined, after: string): Checkpoint => ({
    runId, stepId, seq, path: 'cli.js', operation: before === undefined ? 'write' : 'edit',
    before: before === undefined ? { exists: false } : { exists: true, text: before, sha256: sha256(before) },
    afterSha256: sha256(after), state: 'applied',
  });

  async function changesAsking(folder?: { name: string }): Promise<{ questions: UndoQuestion[]; changes: InstanceType<typeof RunChanges> }> {
    const store = createMemoryRunStore();
    for (const events of [first, second] as RunEvent[][]) await store.append(events[0]!.runId, events as unknown as JournalEntry[]);
    const checkpoints = createMemoryCheckpointStore([change('r', 'A', 1, undefined, 'v1'), change('r-replan-1', 'C', 1, 'v1', 'v2')]);
    const workspace = createMemoryWorkspace({ 'cli.js': 'v2' });
    const lane = { folder };
    const lanes = {
      ofRun: () => Promise.resolve(lane),
      checkpointsOf: () => Promise.resolve(checkpoints),
      storeOf: () => store,
      workspaceOf: () => workspace,
    } as unknown as FolderLanes;
    const questions: UndoQuestion[] = [];
    const changes = new RunChanges(lanes, (question) => {
      questions.push(question);
      return Promise.resolve(false);
    });
    return { questions, changes };
  }

  it('asks about the replaced run as "replaced by repair 1", with nothing of its own left (its file changed since)', async () => {
    const { questions, changes } = await changesAsking();
    assert.equal(await changes.undoAsked('r'), undefined);
    assert.equal(questions[0]?.replacedBy, 1);
    assert.equal(questions[0]?.repair, undefined);
    assert.deepEqual(questions[0]?.changedSince, ['cli.js']);
  });

  it('asks about the repair run as "repair 1" (Undo takes back the run it replaced too), not replaced', async () => {
    const { questions, changes } = await changesAsking();
    assert.equal(await changes.undoAsked('r-replan-1'), undefined);
    assert.equal(questions[0]?.repair, 1);
    assert.equal(questions[0]?.replacedBy, undefined);
    assert.deepEqual(questions[0]?.files, ['cli.js']);
    assert.equal(questions[0]?.changedSince, undefined);
  });

  // A multi-root trial: "This file, which the run created, will be deleted: docs/api.md" was asked over a run of the other
  // folder, and did not say whose docs/api.md.
  it('names the folder of the run in a workspace of several folders', async () => {
    const { questions, changes } = await changesAsking(web);
    assert.equal(await changes.undoAsked('r-replan-1'), undefined);
    assert.equal(questions[0]?.folder, 'web');
    const alone = await changesAsking();
    await alone.changes.undoAsked('r-replan-1');
    assert.equal(alone.questions[0]?.folder, undefined, 'no folder, none named');
  });
});
