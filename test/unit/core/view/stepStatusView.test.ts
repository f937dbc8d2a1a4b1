import assert from 'node:assert/strict';
import { interruptedLook, previewValue, stepStateView, stoppedRun } from '../../../../src/core/view/stepStatusView';

describe('stepStateView', () => {
  it('tells a step skipped because the user rejected it apart from one skipped for another cause', () => {
    assert.deepEqual(stepStateView({ status: 'skipped', skipCause: 'rejected' }), { icon: 'thumbsdown', color: 'charts.orange', label: 'rejected by you' });
    assert.equal(stepStateView({ status: 'skipped', skipCause: 'dependency' }).label, 'skipped');
    assert.equal(stepStateView({ status: 'skipped', skipCause: 'halted' }).label, 'skipped');
  });

  it('in a run stopped before its end, says a step that did not end is not finished; one that ended as it ended', () => {
    assert.equal(stepStateView({ status: 'pending' }, 'cancelled').label, 'not finished (run cancelled)');
    assert.equal(stepStateView({ status: 'ready' }, 'interrupted').label, 'not finished (run interrupted)');
    assert.equal(stepStateView({ status: 'completed' }, 'cancelled').label, 'completed');
    assert.equal(stepStateView({ status: 'skipped', skipCause: 'rejected' }, 'cancelled').label, 'rejected by you');
    assert.equal(stepStateView({ status: 'pending' }).label, 'pending');
    assert.deepEqual((['running', 'waiting', 'completed', 'partial', 'failed', 'cancelled', 'interrupted'] as const).map(stoppedRun), [
      undefined, undefined, undefined, undefined, undefined, 'cancelled', 'interrupted',
    ]);
  });
});

describe('previewValue', () => {
  it('shows a plain object one field a line, strings raw and other values as JSON', () => {
    assert.equal(previewValue({ path: 'a.ts', text: 'line 1\nline 2', lines: [1, 2], ok: true }), 'path: a.ts\ntext: line 1\nline 2\nlines: [1,2]\nok: true');
  });

  it('shows strings as they are, and lists, null and numbers as JSON', () => {
    assert.deepEqual(['plain', ['a', { b: 1 }], null, 42, undefined].map((value) => previewValue(value)), ['plain', '["a",{"b":1}]', 'null', '42', 'undefined']);
  });

  it('shows an agent step\'s result as its answer and its changes, not as fields', () => {
    const result = { answer: 'Renamed the module.', changes: { applied: [{ operation: 'write_file', path: 'b.ts' }], rejected: [], failed: [{ operation: 'delete_file', path: 'a.ts', reason: 'busy' }] } };
    assert.equal(previewValue(result), 'Renamed the module.\n\nChanges:\napplied: write_file b.ts\nfailed: delete_file a.ts (busy)');
    assert.equal(previewValue({ answer: 'Nothing to change.', changes: { applied: [], rejected: [], failed: [] } }), 'Nothing to change.');
  });

  it('cuts at the limit and says how much more there was', () => {
    assert.equal(previewValue('abcdef', 6), 'abcdef');
    assert.equal(previewValue('abcdefgh'.repeat(5), 6), 'abcdef… (34 more characters)');
  });

  it('shows the whole when the note of what was cut would be longer than the cut', () => {
    assert.equal(previewValue('abcdefgh', 6), 'abcdefgh');
    const justOver = 'x'.repeat(620);
    assert.equal(previewValue(justOver), justOver);
    // from the length where cutting saves a character
    const over = 'x'.repeat(600 + '… (23 more characters)'.length + 1);
    assert.equal(previewValue(over), `${'x'.repeat(600)}… (${over.length - 600} more characters)`);
    assert.ok(previewValue(over).length < over.length);
  });

  it('shows a field JSON cannot show as its text', () => {
    assert.equal(previewValue({ big: 10n }), 'big: 10');
  });

  // A trial: the interrupted run's icon was the same pause "||" as "waits for earlier steps", in the Runs and Plan views.
  it('gives a run a reload cut off its own icon, not the pause of a step waiting for earlier steps, and its waiting steps that look', () => {
    const waits = stepStateView({ status: 'blocked' });
    assert.notEqual(interruptedLook.icon, waits.icon);
    assert.doesNotMatch(interruptedLook.icon, /^debug-/);
    const cut = stepStateView({ status: 'blocked' }, 'interrupted');
    assert.equal(cut.icon, interruptedLook.icon);
    assert.equal(cut.label, 'not finished (run interrupted)');
    assert.notEqual(stepStateView({ status: 'running', startedAt: 1 }, 'interrupted').icon, interruptedLook.icon, 'one cut short as it ran is told apart');
  });
});
