import assert from 'node:assert/strict';
import { editNote, PlanVersions, regenerateNote } from '../../../../src/core/view/planVersions';
import { makePlan, makeStep } from '../../../support/randomPlans';

describe('planVersions', () => {
  it('names each kind of edit by what it did to which step', () => {
    assert.deepEqual(
      [
        editNote({ type: 'updateStep', stepId: 'S2', patch: { title: 't' } }),
        editNote({ type: 'moveStep', stepId: 'S2', toIndex: 0 }),
        editNote({ type: 'skipStep', stepId: 'S2' }),
        editNote({ type: 'unskipStep', stepId: 'S2' }),
        editNote({ type: 'addStep', step: { id: 'S9', kind: 'manual', title: 'Check it' } }),
        editNote({ type: 'removeStep', stepId: 'S2' }),
        editNote({ type: 'makeManual', stepIds: ['S1'] }),
        editNote({ type: 'makeManual', stepIds: ['S1', 'S3'] }),
        editNote({ type: 'setContextTags', tags: ['docs'] }),
      ],
      [
        'edited S2',
        'moved S2',
        'skipped S2',
        'unskipped S2',
        'added S9',
        'removed S2',
        'S1 made yours to do',
        '2 steps made yours to do',
        'changed the topics',
      ],
    );
    assert.equal(regenerateNote(' add\n tests '), 'regenerated with "add tests"');
  });

  it("names an edit that changed only a step's files by that, and any other edit of the step as an edit", () => {
    const before = makePlan([makeStep('S2', { writes: ['src'] })]);
    const after = (fields: object) => makePlan([makeStep('S2', { writes: ['src'], ...fields })]);
    const edit = { type: 'updateStep' as const, stepId: 'S2', patch: {} };
    assert.equal(editNote(edit, { before, after: after({ writes: ['src', 'docs'] }) }), 'changed the files S2 may change');
    assert.equal(editNote(edit, { before, after: after({ writes: undefined }) }), 'changed the files S2 may change');
    assert.equal(editNote(edit, { before, after: after({ writes: ['docs'], title: 'Other' }) }), 'edited S2');
    assert.equal(editNote(edit, { before, after: after({}) }), 'edited S2', 'nothing changed');
    assert.equal(editNote(edit, { before, after: makePlan([makeStep('S3')]) }), 'edited S2');
    assert.equal(editNote({ type: 'skipStep', stepId: 'S2' }, { before, after: after({ writes: [] }) }), 'skipped S2');
  });

  it('keeps what made a version when the same version is shown again, and starts over for another plan', () => {
    const versions = new PlanVersions();
    const plan = makePlan([makeStep('A')]);
    versions.record(plan);
    versions.record({ ...plan, version: 2 }, 'edited A');
    versions.record({ ...plan, version: 2 });
    assert.deepEqual(versions.list(), [{ version: 2, label: 'v2 · edited A' }, { version: 1, label: 'v1 · planned' }]);
    assert.equal(versions.nextVersion(plan), 3);
    versions.record({ ...plan, id: 'other' });
    assert.deepEqual(versions.list(), [{ version: 1, label: 'v1 · planned' }]);
  });

  it('calls a version shown after the first without a note "opened", and replaces the first version when it is recorded again', () => {
    const versions = new PlanVersions();
    const plan = makePlan([makeStep('A')]);
    assert.equal(versions.nextVersion({ ...plan, version: 4 }), 5, 'nothing recorded yet');
    versions.record(plan);
    versions.record({ ...plan, version: 3 });
    versions.record({ ...plan, objective: 'changed' }, 'back to v1');
    assert.deepEqual(versions.list(), [{ version: 3, label: 'v3 · opened' }, { version: 1, label: 'v1 · back to v1' }]);
    assert.equal(versions.get(1)?.objective, 'changed');
  });

  it('cuts long feedback at 40 characters', () => {
    const forty = 'x'.repeat(40);
    assert.equal(regenerateNote(forty), `regenerated with "${forty}"`);
    assert.equal(regenerateNote(`${'y'.repeat(39)}  zz`), `regenerated with "${'y'.repeat(39)}…"`);
  });
});
