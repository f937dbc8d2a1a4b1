import assert from 'node:assert/strict';
import '../../fakes/vscodeL10n';
import { runItemLook } from '../../../src/vscode/runStatusBar';

// A newcomer's trial (code-server): after a reload cut a run off, the status bar read "⊗ Task Planner 0/2", the icon of a
// failed run, with nothing in words, while the Plan view and the panel said "interrupted" and offered Resume.
describe("the status bar item of a run that is not waiting for an answer", () => {
  const done = [{ status: 'completed' }, { status: 'completed' }];
  const cut = [{ status: 'running' }, { status: 'pending' }];

  it('says how a run ended when it did not complete, with the Runs view\'s icon for a run that stopped', () => {
    assert.deepEqual(runItemLook('interrupted', cut, { completed: 0, total: 2 }, undefined), { icon: 'primitive-square', text: 'Task Planner 0/2 · interrupted' });
    assert.deepEqual(runItemLook('cancelled', cut, { completed: 0, total: 2 }, undefined), { icon: 'circle-slash', text: 'Task Planner 0/2 · cancelled' });
    assert.deepEqual(runItemLook('failed', [{ status: 'completed' }, { status: 'failed' }], { completed: 1, total: 2 }, undefined), {
      icon: 'error',
      text: 'Task Planner 1/2 · failed',
    });
    assert.deepEqual(runItemLook('partial', [{ status: 'completed' }, { status: 'skipped' }], { completed: 1, total: 2 }, undefined), {
      icon: 'warning',
      text: 'Task Planner 1/2 · partly done',
    });
    assert.deepEqual(runItemLook('partial', [{ status: 'skipped' }], { completed: 0, total: 1 }, undefined), { icon: 'warning', text: 'Task Planner 0/1 · nothing done' });
  });

  it('shows a completed or going run by its count alone, and what Undo took back in words after the outcome', () => {
    assert.deepEqual(runItemLook('completed', done, { completed: 2, total: 2 }, undefined), { icon: 'pass', text: 'Task Planner 2/2' });
    assert.deepEqual(runItemLook('running', cut, { completed: 0, total: 2 }, undefined), { icon: 'sync~spin', text: 'Task Planner 0/2' });
    assert.deepEqual(runItemLook('completed', done, { completed: 2, total: 2 }, 'all'), { icon: 'discard', text: 'Task Planner 2/2 · changes undone' });
    assert.deepEqual(runItemLook('failed', [{ status: 'completed' }, { status: 'failed' }], { completed: 1, total: 2 }, 'some'), {
      icon: 'discard',
      text: 'Task Planner 1/2 · failed · some changes undone',
    });
  });
});
