import assert from 'node:assert/strict';
import { runStatusWithUndo } from '../../../src/shared/runStatusLabels';

describe('a run status with what Undo took back', () => {
  const steps = [{ status: 'completed' }, { status: 'completed' }];

  it('says the changes were undone after the status, as the Runs view and the CLI\'s runs say it (a newcomer read "completed" after Undo run)', () => {
    assert.equal(runStatusWithUndo('completed', steps, 'all'), 'completed · changes undone');
    assert.equal(runStatusWithUndo('partial', steps, 'some'), 'partly done · some changes undone');
    assert.equal(runStatusWithUndo('completed', steps, undefined), 'completed');
    assert.equal(runStatusWithUndo('partial', [{ status: 'skipped' }], undefined), 'nothing done');
  });
});
