import assert from 'node:assert/strict';
import { describeUndo, undoLines } from '../../../../src/core/tools/describeUndo';

describe('describeUndo', () => {
  it('counts restored files with the right plural', () => {
    assert.equal(describeUndo({ runId: 'r', restored: ['a.txt'], removed: [], unchanged: [], refused: [], overwritable: [] }), 'Undo restored 1 file.');
    // a run already undone (a notification's Undo pressed after the panel's) is not "restored 0 files"
    assert.equal(describeUndo({ runId: 'r', restored: [], removed: [], unchanged: ['b'], refused: [], overwritable: [] }), 'Nothing to undo: 1 file the run changed is already as before it.');
    assert.equal(describeUndo({ runId: 'r', restored: [], removed: [], unchanged: ['b', 'c', 'b'], refused: [], overwritable: [] }), 'Nothing to undo: 2 files the run changed are already as before it.');
    assert.equal(describeUndo({ runId: 'r', restored: [], removed: [], unchanged: [], refused: [], overwritable: [] }), 'Nothing to undo: no change of the run is left to take back (it was undone already, or it changed no file through the file tools).');
    assert.equal(
      describeUndo({ runId: 'r', restored: [], removed: [], unchanged: [], refused: [{ path: 'c.txt', reason: 'changed since the run' }], overwritable: [] }),
      'Undo changed nothing; left alone: c.txt (changed since the run).',
    );
    assert.equal(
      describeUndo({ runId: 'r', restored: ['a.txt', 'a.txt'], removed: [], unchanged: [], refused: [], overwritable: [] }),
      'Undo restored 1 file.',
      'one file changed twice is one file',
    );
  });

  it('names every file left alone with its reason', () => {
    const text = describeUndo({
      runId: 'r', restored: ['a', 'b'], removed: [], unchanged: [], refused: [{ path: 'c.txt', reason: 'changed since the run' }, { path: 'd', reason: 'gone' }], overwritable: [],
    });
    assert.equal(text, 'Undo restored 2 files; left alone: c.txt (changed since the run); d (gone).');
  });

  it('never calls a file the run created "restored": it says it removed it', () => {
    const created = { runId: 'r', restored: ['new.txt'], removed: [{ path: 'new.txt', kind: 'file' as const }], unchanged: [], refused: [], overwritable: [] };
    assert.equal(describeUndo(created), 'Undo removed 1 file the run created.');
    const mixed = {
      runId: 'r',
      restored: ['old.txt', 'new.txt', 'b.txt', 'src/gen', 'new.txt'],
      removed: [{ path: 'new.txt', kind: 'file' as const }, { path: 'b.txt', kind: 'file' as const }, { path: 'src/gen', kind: 'folder' as const }],
      unchanged: [],
      refused: [{ path: 'c.txt', reason: 'changed since the run' }],
      overwritable: [],
    };
    assert.equal(describeUndo(mixed), 'Undo restored 1 file and removed 2 files and 1 folder the run created; left alone: c.txt (changed since the run).');
    const folders = { runId: 'r', restored: ['d1', 'd2'], removed: [{ path: 'd1', kind: 'folder' as const }, { path: 'd2', kind: 'folder' as const }], unchanged: [], refused: [], overwritable: [] };
    assert.equal(describeUndo(folders), 'Undo removed 2 folders the run created.');
  });

  it('undoLines: the sentence, then the commands not undone, only when this Undo found something of the run', () => {
    const commands = 'Commands are not undone: step C ran a command; check what it changed (git status shows it in a repository).';
    const report = (part: Partial<Parameters<typeof describeUndo>[0]>) => ({ runId: 'r', restored: [], removed: [], unchanged: [], refused: [], overwritable: [], ...part });
    assert.deepEqual(undoLines(report({ restored: ['a.txt'] }), commands), ['Undo restored 1 file.', commands]);
    assert.deepEqual(undoLines(report({ unchanged: ['a.txt'] }), commands), ['Nothing to undo: 1 file the run changed is already as before it.', commands]);
    assert.deepEqual(undoLines(report({ refused: [{ path: 'a.txt', reason: 'changed since the run' }] }), commands), [
      'Undo changed nothing; left alone: a.txt (changed since the run).',
      commands,
    ]);
    // Undone already (or no file changed): said once, by the Undo that did the work.
    assert.deepEqual(undoLines(report({}), commands), [describeUndo(report({}))]);
    assert.deepEqual(undoLines(report({ restored: ['a.txt'] }), undefined), ['Undo restored 1 file.']);
  });
});
