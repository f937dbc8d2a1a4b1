import assert from 'node:assert/strict';
import type { PanelEdit } from '../../../src/shared/panelProtocol';
import { focusAfterEdit, type StepControl } from '../../../webview/focusAfterEdit';

const steps = (...ids: string[]) => ids.map((id) => ({ id }));
const pending = (edit: PanelEdit, control: StepControl, index: number) => ({ edit, control, index, planVersion: 1 });

describe('webview focus after an edit', () => {
  it('gives a removed step\'s focus to the step that took its place, else the one before, else Add step', () => {
    const remove = (index: number) => pending({ type: 'removeStep', stepId: 'b' }, 'remove', index);
    assert.deepEqual(focusAfterEdit(remove(1), steps('a', 'c')), { type: 'step', stepId: 'c', control: 'card' });
    assert.deepEqual(focusAfterEdit(remove(1), steps('a')), { type: 'step', stepId: 'a', control: 'card' });
    assert.deepEqual(focusAfterEdit(remove(0), steps()), { type: 'add' });
    assert.equal(focusAfterEdit(remove(1), steps('a', 'b', 'c')), undefined, 'a step still there keeps its focus');
  });

  it('keeps a moved step\'s focus on the control it moved with, or its card when that control is disabled at an end', () => {
    const move = (control: StepControl) => pending({ type: 'moveStep', stepId: 'b', toIndex: 2 }, control, 1);
    assert.deepEqual(focusAfterEdit(move('down'), steps('a', 'b', 'c')), { type: 'step', stepId: 'b', control: 'down' });
    assert.deepEqual(focusAfterEdit(move('down'), steps('a', 'c', 'b')), { type: 'step', stepId: 'b', control: 'card' });
    assert.deepEqual(focusAfterEdit(move('up'), steps('b', 'a', 'c')), { type: 'step', stepId: 'b', control: 'card' });
    assert.deepEqual(focusAfterEdit(move('card'), steps('a', 'c', 'b')), { type: 'step', stepId: 'b', control: 'card' });
  });

  it('leaves focus alone after edits that keep the focused element', () => {
    assert.equal(focusAfterEdit(pending({ type: 'skipStep', stepId: 'a' }, 'skip', 0), steps('a')), undefined);
  });
});
