import assert from 'node:assert/strict';
import { describeUndo, undoLines } from '../../../../src/core/tools/describeUndo';
import type { UndoReport } from '../../../../src/core/tools/undoRun';

const report = (part: Partial<UndoReport>): UndoReport => ({ runId: 'r', restored: [], removed: [], unchanged: [], undoneBefore: [], refused: [], overwritable: [], ...part });

describe('describeUndo', () => {
  it('names up to three files it restored, and counts more', () => {
    assert.equal(describeUndo(report({ restored: ['a.txt'] })), 'Undo restored a.txt.');
    assert.equal(describeUndo(report({ restored: ['a.txt', 'a.txt'] })), 'Undo restored a.txt.', 'one file changed twice is one file');
    assert.equal(describeUndo(report({ restored: ['a.txt', 'b.txt'] })), 'Undo restored a.txt and b.txt.');
    assert.equal(describeUndo(report({ restored: ['a', 'b', 'c'] })), 'Undo restored a, b and c.');
    assert.equal(describeUndo(report({ restored: ['a', 'b', 'c', 'd'] })), 'Undo restored 4 files.');
  });

  it('says a file it took back only some changes to once, with what it kept and why, never as both restored and left alone (a trial)', () => {
    const why = 'tasks.md was changed after step T001 changed it, and undoing would lose those changes';
    const ticks = report({ restored: ['tasks.md', 'tasks.md', 'a.txt'], refused: [{ path: 'tasks.md', reason: why }, { path: 'b.txt', reason: 'b.txt is a hard link' }] });
    assert.equal(describeUndo(ticks), `Undo restored a.txt and took back part of the run's changes to tasks.md. Kept: ${why}. Left alone: b.txt is a hard link.`);
    assert.equal(describeUndo(report({ restored: ['tasks.md'], refused: [{ path: 'tasks.md', reason: why }] })), `Undo took back part of the run's changes to tasks.md. Kept: ${why}.`);
  });

  it('never calls a file the run created "restored": it says it removed it, folders with a slash', () => {
    assert.equal(describeUndo(report({ restored: ['new.txt'], removed: [{ path: 'new.txt', kind: 'file' }] })), 'Undo removed new.txt, which the run created.');
    const mixed = report({
      restored: ['old.txt', 'new.txt', 'src/gen/b.txt', 'src/gen', 'new.txt'],
      removed: [{ path: 'new.txt', kind: 'file' }, { path: 'src/gen/b.txt', kind: 'file' }, { path: 'src/gen', kind: 'folder' }],
    });
    assert.equal(describeUndo(mixed), 'Undo restored old.txt and removed new.txt, src/gen/b.txt and src/gen/, which the run created.');
    const many = report({
      restored: ['n1', 'n2', 'n3', 'd'],
      removed: [{ path: 'n1', kind: 'file' }, { path: 'n2', kind: 'file' }, { path: 'n3', kind: 'file' }, { path: 'd', kind: 'folder' }],
    });
    assert.equal(describeUndo(many), 'Undo removed 3 files and 1 folder the run created.');
    const folders = report({ restored: ['d1', 'd2', 'd3', 'd4'], removed: ['d1', 'd2', 'd3', 'd4'].map((path) => ({ path, kind: 'folder' as const })) });
    assert.equal(describeUndo(folders), 'Undo removed 4 folders the run created.');
  });

  it('names every file left alone once, with its reason, in a sentence of its own', () => {
    const refused = [
      { path: 'c.txt', reason: 'c.txt was changed after step S1 changed it, and undoing would lose those changes' },
      { path: 'd.txt', reason: 'an earlier change by step S2 was kept, since a later change to it could not be undone' },
    ];
    assert.equal(
      describeUndo(report({ restored: ['a', 'b'], refused })),
      'Undo restored a and b. Left alone: c.txt was changed after step S1 changed it, and undoing would lose those changes; ' +
        'd.txt: an earlier change by step S2 was kept, since a later change to it could not be undone.',
    );
    assert.equal(describeUndo(report({ refused: refused.slice(0, 1) })), `Undo changed nothing. Left alone: ${refused[0]!.reason}.`);
    // A reason that only starts with the same letters as the path is not taken for naming it.
    assert.equal(describeUndo(report({ refused: [{ path: 'c', reason: 'c.txt moved' }] })), 'Undo changed nothing. Left alone: c: c.txt moved.');
  });

  it('an Undo with nothing to do says why: as before the run, undone by an earlier Undo, or no file changed', () => {
    assert.equal(describeUndo(report({ unchanged: ['b'] })), 'Nothing to undo: b the run changed is already as before it.');
    assert.equal(describeUndo(report({ unchanged: ['b', 'c', 'b'] })), 'Nothing to undo: b and c the run changed are already as before it.');
    assert.equal(describeUndo(report({ undoneBefore: ['a.txt', 'a.txt'] })), "Nothing to undo: an earlier Undo already took back the run's changes to a.txt.");
    assert.equal(describeUndo(report({})), 'Nothing to undo: the run changed no file through the file tools.');
  });

  it('undoLines: the sentence, then the commands not undone, only when this Undo found something of the run', () => {
    const commands = 'Commands are not undone: step C ran a command; check what it changed (git status shows it in a repository).';
    assert.deepEqual(undoLines(report({ restored: ['a.txt'] }), commands), ['Undo restored a.txt.', commands]);
    assert.deepEqual(undoLines(report({ unchanged: ['a.txt'] }), commands), ['Nothing to undo: a.txt the run changed is already as before it.', commands]);
    const refused = [{ path: 'a.txt', reason: 'a.txt was changed after step S1 changed it, and undoing would lose those changes' }];
    assert.deepEqual(undoLines(report({ refused }), commands), [`Undo changed nothing. Left alone: ${refused[0]!.reason}.`, commands]);
    // Undone already (or no file changed): said once, by the Undo that did the work.
    assert.deepEqual(undoLines(report({ undoneBefore: ['a.txt'] }), commands), ["Nothing to undo: an earlier Undo already took back the run's changes to a.txt."]);
    assert.deepEqual(undoLines(report({ restored: ['a.txt'] }), undefined), ['Undo restored a.txt.']);
  });
});
