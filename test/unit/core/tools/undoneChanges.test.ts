import assert from 'node:assert/strict';
import type { Checkpoint, CheckpointState } from '../../../../src/core/runStorePorts';
import { undoneChanges } from '../../../../src/core/tools/undoneChanges';

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
