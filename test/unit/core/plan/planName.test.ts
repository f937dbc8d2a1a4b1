import assert from 'node:assert/strict';
import { planName } from '../../../../src/core/plan/planName';
import { makePlan, makeStep } from '../../../support/randomPlans';

describe('planName: what names a plan or run in a row, a title or a notification', () => {
  it('names an imported task file by its title, the first line of its objective (a trial\'s run read "Tasks: Photo albums **Input**: …")', () => {
    const objective = 'Tasks: Photo albums\n\n**Input**: Design documents from /specs/001/\n## Phase 1: Setup';
    const imported = { ...makePlan([makeStep('T001', { input: 'Create the project\n\nFrom specs/001/tasks.md, line 7:\n- Task: T001' })]), objective };
    assert.equal(planName(imported), 'Tasks: Photo albums');
  });

  it('names any other plan by its whole objective: a request typed on several lines is all the request', () => {
    const objective = 'Create CONTRIBUTING.md\n- Add a link from the README';
    assert.equal(planName({ ...makePlan([makeStep('S1', { input: 'Write it' })]), objective }), objective);
    // A step that merely mentions a file and a line is no import.
    const mentioned = makeStep('S1', { input: 'Fix the bug\nFrom the log, line 3 says why' });
    assert.equal(planName({ ...makePlan([mentioned]), objective }), objective);
  });
});
