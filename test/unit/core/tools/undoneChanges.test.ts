import assert from 'node:assert/strict';
import type { Checkpoint, CheckpointState } from '../../../../src/core/runStorePorts';
import { createdPaths, undoneChanges } from '../../../../src/core/tools/undoneChanges';

let seq = 0;
const change = (stepId: string, path: string, state: CheckpointState): Checkpoint => ({
  runId: 'r',
  stepId,
  seq: ++seq,
  path,
  operation: 'write',
  before: { exists: false },
  afterSha256: 'abc',
  state,
});

describe('undoneChanges', () => {
  it('names a step and a path only when every change of theirs that landed was undone', () => {
    const undone = undoneChanges([
      change('S1', 'kept.txt', 'applied'),
      change('S2', 'a.txt', 'undone'),
      change('S2', 'b.txt', 'undone'),
      change('S3', 'b.txt', 'undone'),
      change('S3', 'c.txt', 'applied'),
      // A change that never landed does not keep a step from counting as undone.
      change('S4', 'd.txt', 'undone'),
      change('S4', 'e.txt', 'abandoned'),
    ]);
    assert.deepEqual([...undone.steps], ['S2', 'S4']);
    assert.deepEqual([...undone.paths], ['a.txt', 'b.txt', 'd.txt']);
    assert.equal(undone.anyLeft, true, 'kept.txt and c.txt are still changed');
  });

  it('a step undone and then changed again, or a step with only abandoned changes, is not undone', () => {
    const undone = undoneChanges([change('S1', 'a.txt', 'undone'), change('S1', 'a.txt', 'applied'), change('S2', 'x.txt', 'abandoned')]);
    assert.deepEqual([...undone.steps], []);
    assert.deepEqual([...undone.paths], []);
  });

  it('nothing is undone for a run without checkpoints', () => {
    assert.deepEqual(undoneChanges([]), { steps: new Set(), paths: new Set(), anyLeft: false });
  });

  it('something is left to undo while one landed change is not undone, whatever its state', () => {
    assert.equal(undoneChanges([change('S1', 'a.txt', 'undone'), change('S2', 'b.txt', 'abandoned')]).anyLeft, false);
    for (const state of ['applied', 'intended', 'recovered', 'uncertain', 'undoing'] as const) {
      assert.equal(undoneChanges([change('S1', 'a.txt', 'undone'), change('S2', 'b.txt', state)]).anyLeft, true, state);
    }
  });
});

describe('createdPaths: the files a run (with its repairs) created, which Undo deletes', () => {
  const at = (runId: string, path: string, exists: boolean): Checkpoint => ({
    ...change('S1', path, 'applied'),
    runId,
    before: exists ? { exists: true, text: 'old', sha256: 'f00' } : { exists: false },
  });

  it('judges each path by its first change in the chain, the oldest run first', () => {
    // r1 made new.txt and edited old.txt; its repair r2 wrote new.txt again (which then existed) and made repair.txt.
    const changes = [at('r2', 'new.txt', true), at('r2', 'repair.txt', false), at('r1', 'old.txt', true), at('r1', 'new.txt', false)];
    assert.deepEqual(createdPaths(changes, ['r2', 'r1']), ['new.txt', 'repair.txt']);
    assert.deepEqual(createdPaths(changes.filter((checkpoint) => checkpoint.runId === 'r2'), ['r2']), ['repair.txt'], 'the repair alone found new.txt there');
    assert.deepEqual(createdPaths([at('r1', 'a.txt', false), at('r1', 'a.txt', true)], ['r1']), ['a.txt'], 'a later change of the same run does not count');
    assert.deepEqual(createdPaths([], ['r1']), []);
  });
});
