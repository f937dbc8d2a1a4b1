import assert from 'node:assert/strict';
import type { StepView } from '../../../src/shared/panelViewModel';
import { closeForm, reviewLocks } from '../../../webview/reviewLocks';

const steps = ['S1', 'S2'].map((id) => ({ id }) as StepView);

describe('reviewLocks: what the review refuses while Regenerate runs or a step form is open', () => {
  it('attack: while Regenerate runs, the edit controls and forms are off and say why (the host would refuse what is typed)', () => {
    const locks = reviewLocks({ regenerating: true, startBlockedReason: 'Wait until Regenerate is done.', steps }, { editing: undefined, adding: false });
    assert.match(locks.edit ?? '', /Regenerate is under way/);
    assert.equal(reviewLocks({ regenerating: false, steps }, { editing: undefined, adding: false }).edit, undefined);
  });

  it('attack: Start with a step form open is off and names the step (the run would go without what was typed, and the form with the review)', () => {
    assert.match(reviewLocks({ regenerating: false, steps }, { editing: 'S2', adding: false }).start ?? '', /your edit of step S2/);
    assert.match(reviewLocks({ regenerating: false, steps }, { editing: undefined, adding: true }).start ?? '', /new step/);
    assert.equal(reviewLocks({ regenerating: false, steps }, { editing: undefined, adding: false }).start, undefined);
    // The edit of a step Regenerate took away shows no form: nothing to save or cancel, Start is not held by it.
    assert.equal(reviewLocks({ regenerating: false, steps }, { editing: 'S9', adding: false }).start, undefined);
  });

  it('while an earlier version is looked at, Start and the edit controls are off and say which version is shown; going back to it is not', () => {
    const locks = reviewLocks({ regenerating: false, steps, planVersion: 6, viewing: { version: 4, steps } }, { editing: undefined, adding: false });
    assert.match(locks.start ?? '', /version 4/);
    assert.match(locks.start ?? '', /version 6/);
    assert.match(locks.edit ?? '', /version 4/);
    assert.equal(locks.versions, undefined);
    assert.match(reviewLocks({ regenerating: true, steps, planVersion: 6 }, { editing: undefined, adding: false }).versions ?? '', /Regenerate/);
  });

  it("the host's own reason Start is off comes first", () => {
    assert.equal(
      reviewLocks({ regenerating: false, startBlockedReason: 'Fix the errors first.', steps }, { editing: 'S2', adding: false }).start,
      'Fix the errors first.',
    );
  });

  it('attack: saving the edit of one step leaves the Add step form open with what was typed in it (both closed, and that text was gone)', () => {
    assert.deepEqual(closeForm({ editing: 'S2', adding: true }, 'S2'), { editing: undefined, adding: true });
    assert.deepEqual(closeForm({ editing: 'S2', adding: true }, undefined), { editing: 'S2', adding: false });
  });
});
