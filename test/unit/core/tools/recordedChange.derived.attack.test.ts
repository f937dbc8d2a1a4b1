import assert from 'node:assert/strict';
import type { Checkpoint, CheckpointState } from '../../../../src/core/runStorePorts';
import { createMemoryCheckpointStore, type MemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { sha256, versionOf } from '../../../../src/core/tools/fileVersions';
import { recoverInterruptedChanges } from '../../../../src/core/tools/recordedChange';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { neverAborted } from '../../../fakes/toolContext';

async function left(
  store: MemoryCheckpointStore,
  change: Omit<Checkpoint, 'seq' | 'state' | 'runId'>,
  state?: Exclude<CheckpointState, 'intended'>,
): Promise<void> {
  const recorded = await store.record({ runId: 'run-1', ...change });
  if (state !== undefined) await store.settle(recorded, state);
}

const edit = (stepId: string, path: string, before: string, after: string): Omit<Checkpoint, 'seq' | 'state' | 'runId'> => ({
  stepId,
  path,
  operation: 'edit',
  before: versionOf(before),
  afterSha256: sha256(after),
});

/** The state each of `path`'s checkpoints of step `stepId` was settled to. */
async function statesOf(store: MemoryCheckpointStore, stepId: string, path: string): Promise<CheckpointState[]> {
  return (await store.list('run-1')).filter((checkpoint) => checkpoint.stepId === stepId && checkpoint.path === path).map((checkpoint) => checkpoint.state);
}

/**
 * Outside attack (crash fuzzing of the command line): the journal, written behind the synced checkpoints, lost that step X
 * ended; X's dependent Y, unfinished too, changed the same file again on what X left. X's change, judged by the file alone
 * (neither its result nor its start), was `uncertain`: asked again under every policy, and applied twice when approved.
 * A later change of an unfinished step recorded on what X left, found in the file (or one recorded on that), shows X's
 * change is in it: `recovered`. Nothing else does.
 */
describe('recoverInterruptedChanges: a change a later unfinished step changed the file again on', () => {
  it('is recovered when the file holds what that step (or one after it, on its result) left', async () => {
    const workspace = createMemoryWorkspace({ 'one.txt': 'y1', 'two.txt': 'z2' });
    const store = createMemoryCheckpointStore();
    await left(store, edit('X', 'one.txt', 'x0', 'x1'), 'applied');
    await left(store, edit('Y', 'one.txt', 'x1', 'y1'));
    // A chain through two steps: X → Y → Z.
    await left(store, edit('X', 'two.txt', 'a0', 'a1'), 'applied');
    await left(store, edit('Y', 'two.txt', 'a1', 'z1'), 'applied');
    await left(store, edit('Z', 'two.txt', 'z1', 'z2'), 'applied');
    await recoverInterruptedChanges('run-1', workspace, store, new Set(['X', 'Y', 'Z']), neverAborted);
    assert.deepEqual(await statesOf(store, 'X', 'one.txt'), ['recovered']);
    assert.deepEqual(await statesOf(store, 'X', 'two.txt'), ['recovered']);
  });

  it('stays uncertain when the later change is not on what X left, of another file, earlier, or of a finished step', async () => {
    const workspace = createMemoryWorkspace({ 'other.txt': 'y1', 'file.txt': 'y1', 'earlier.txt': 'y1', 'done.txt': 'y1', 'gone.txt': 'y1', 'own.txt': 'd1' });
    const store = createMemoryCheckpointStore();
    // Y's change was recorded on something else than X's result.
    await left(store, edit('X', 'other.txt', 'x0', 'x1'), 'applied');
    await left(store, edit('Y', 'other.txt', 'q', 'y1'), 'applied');
    // Y changed another file from X's result's text.
    await left(store, edit('X', 'file.txt', 'x0', 'x1'), 'applied');
    await left(store, edit('Y', 'elsewhere.txt', 'x1', 'y1'), 'applied');
    // Recorded before X's change (an earlier seq): not computed on what X left.
    await left(store, edit('Y', 'earlier.txt', 'x1', 'y1'), 'applied');
    await left(store, edit('X', 'earlier.txt', 'x0', 'x1'), 'applied');
    // The later change is of a finished step: the journal said X ended before it, or it is not X's dependent.
    await left(store, edit('X', 'done.txt', 'x0', 'x1'), 'applied');
    await left(store, edit('DONE', 'done.txt', 'x1', 'y1'), 'applied');
    // The later change deleted the file, or was recorded on a file that did not exist.
    await left(store, edit('X', 'gone.txt', 'x0', 'x1'), 'applied');
    await left(store, { stepId: 'Y', path: 'gone.txt', operation: 'delete', before: versionOf('x1'), afterSha256: undefined }, 'applied');
    await left(store, { stepId: 'Y', path: 'gone.txt', operation: 'write', before: { exists: false }, afterSha256: sha256('y1') }, 'applied');
    // X deleted the file; Y wrote it anew.
    await left(store, { stepId: 'X', path: 'own.txt', operation: 'delete', before: versionOf('d0'), afterSha256: undefined }, 'applied');
    await left(store, { stepId: 'Y', path: 'own.txt', operation: 'write', before: { exists: false }, afterSha256: sha256('d1') }, 'applied');
    await recoverInterruptedChanges('run-1', workspace, store, new Set(['X', 'Y']), neverAborted);
    for (const path of ['other.txt', 'file.txt', 'earlier.txt', 'done.txt', 'gone.txt', 'own.txt']) {
      assert.deepEqual(await statesOf(store, 'X', path), ['uncertain'], path);
    }
  });

  it('is not recovered for a file gone now, even when a later change of it was computed on what X left', async () => {
    const workspace = createMemoryWorkspace({});
    const store = createMemoryCheckpointStore();
    await left(store, edit('X', 'f.txt', 'x0', 'x1'), 'applied');
    await left(store, { stepId: 'Y', path: 'f.txt', operation: 'delete', before: versionOf('x1'), afterSha256: undefined }, 'applied');
    await recoverInterruptedChanges('run-1', workspace, store, new Set(['X', 'Y']), neverAborted);
    assert.deepEqual(await statesOf(store, 'X', 'f.txt'), ['uncertain']);
  });
});
