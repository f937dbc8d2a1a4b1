import assert from 'node:assert/strict';
import { describeStepProgress, finishedSteps, stepProgress } from '../../../src/shared/stepProgress';

describe('stepProgress', () => {
  it('counts only completed steps as done; failed and skipped ones apart', () => {
    const progress = stepProgress([{ status: 'failed' }, { status: 'skipped' }], 2);
    assert.deepEqual(progress, { total: 2, completed: 0, failed: 1, rejected: 0, skipped: 1, notNeeded: 0, doneInSource: 0 });
    assert.equal(describeStepProgress(progress), '0 of 2 steps completed, 1 failed, 1 skipped');
    assert.equal(finishedSteps(progress), 2);
  });

  it('leaves steps still going out of every count but the total, and names only the outcomes that happened', () => {
    const progress = stepProgress([{ status: 'completed' }, { status: 'running' }, { status: 'awaiting_approval' }], 5);
    assert.deepEqual(progress, { total: 5, completed: 1, failed: 0, rejected: 0, skipped: 0, notNeeded: 0, doneInSource: 0 });
    assert.equal(describeStepProgress(progress), '1 of 5 steps completed');
    assert.equal(describeStepProgress(stepProgress([{ status: 'completed' }], 1)), '1 of 1 step completed');
  });

  it('counts a step skipped because its condition was not met as not needed, and one failed then skipped as failed', () => {
    const progress = stepProgress(
      [{ status: 'completed' }, { status: 'skipped', skipCause: 'condition' }, { status: 'skipped', skipCause: 'failed' }, { status: 'skipped', skipCause: 'plan' }],
      4,
    );
    assert.deepEqual(progress, { total: 4, completed: 1, failed: 1, rejected: 0, skipped: 1, notNeeded: 1, doneInSource: 0 });
    assert.equal(describeStepProgress(progress), '1 of 4 steps completed, 1 failed, 1 skipped, 1 not needed');
    assert.equal(finishedSteps(progress), 4);
  });

  it('counts a step the user rejected as rejected by you, not as skipped (a newcomer read "1 skipped" as the run\'s own choice)', () => {
    const progress = stepProgress([{ status: 'completed' }, { status: 'skipped', skipCause: 'rejected' }, { status: 'skipped', skipCause: 'dependency' }], 3);
    assert.deepEqual(progress, { total: 3, completed: 1, failed: 0, rejected: 1, skipped: 1, notNeeded: 0, doneInSource: 0 });
    assert.equal(describeStepProgress(progress), '1 of 3 steps completed, 1 rejected by you, 1 skipped');
    assert.equal(finishedSteps(progress), 3);
  });

  it('counts a task ticked in its task file as done in the source file, not as skipped (ten ticked Spec Kit tasks read "10 skipped")', () => {
    const progress = stepProgress([{ status: 'completed' }, { status: 'skipped', skipCause: 'source' }, { status: 'skipped', skipCause: 'source' }, { status: 'skipped', skipCause: 'plan' }], 4);
    assert.deepEqual(progress, { total: 4, completed: 1, failed: 0, rejected: 0, skipped: 1, notNeeded: 0, doneInSource: 2 });
    assert.equal(describeStepProgress(progress), '1 of 4 steps completed, 1 skipped, 2 done in the source file');
    assert.equal(finishedSteps(progress), 4);
  });

  it('never reports more steps counted than the total', () => {
    assert.equal(stepProgress([{ status: 'completed' }, { status: 'completed' }], 1).total, 2);
  });
});
