import assert from 'node:assert/strict';
import { requireWithVscode } from '../../fakes/requireWithVscode';
import type * as ConfirmUndoModule from '../../../src/vscode/confirmUndo';

/** The dialogs shown: their question, detail and buttons; `answer` is what the next one answers. */
const shown: { question: string; detail: string; buttons: string[] }[] = [];
let answer: string | undefined;

const { confirmUndoDialog } = requireWithVscode<typeof ConfirmUndoModule>(require.resolve('../../../src/vscode/confirmUndo'), {
  window: {
    showWarningMessage: (question: string, options: { detail: string }, ...buttons: string[]) => {
      shown.push({ question, detail: options.detail, buttons });
      return Promise.resolve(answer);
    },
  },
});

describe('confirmUndoDialog: what Undo is about to do, before the user chooses', () => {
  beforeEach(() => (shown.length = 0));

  // An editor trial: the dialog said README.md went back to how it was; it had changed since, and Undo left it alone.
  it('names the files changed since the run as left as they are, and never among those that go back', async () => {
    answer = 'Undo run';
    const undo = await confirmUndoDialog({ objective: 'Add --verbose', files: ['src/cli.js', 'README.md', 'NOTES.md'], created: ['NOTES.md'], changedSince: ['README.md'] });
    assert.equal(undo, true);
    assert.deepEqual(shown[0]?.detail.split('\n\n'), [
      'This file will go back to how it was before the run: src/cli.js.',
      'This file, which the run created, will be deleted: NOTES.md.',
      'Left as it is, changed since the run (Undo then offers to show what it would overwrite): README.md.',
      'Task Planner cannot redo what Undo takes back.',
    ]);
    assert.deepEqual(shown[0]?.buttons, ['Keep the changes', 'Undo run']);
  });

  it('names the folders the run created, which Undo removes when nothing else is in them (a trial\'s Undo removed notes/ unannounced)', async () => {
    answer = 'Undo run';
    assert.equal(await confirmUndoDialog({ objective: 'Add a todo list', files: ['notes/todo.md'], created: ['notes/todo.md'], folders: ['notes'] }), true);
    assert.deepEqual(shown[0]?.detail.split('\n\n'), [
      'This file, which the run created, will be deleted: notes/todo.md.',
      'This folder, which the run created, will be removed if nothing else is in it: notes/.',
      'Task Planner cannot redo what Undo takes back.',
    ]);
  });

  it('says every file goes back when none changed since, and keeping the changes undoes nothing', async () => {
    answer = 'Keep the changes';
    assert.equal(await confirmUndoDialog({ objective: 'Add --verbose', files: ['src/cli.js', 'README.md'] }), false);
    assert.match(shown[0]?.detail ?? '', /^These files will go back to how they were before the run: src\/cli\.js, README\.md\./);
    assert.doesNotMatch(shown[0]?.detail ?? '', /Left as it is, changed since|changed since the run/, 'no file changed since: none is said to have (an editor trial)');
  });
});
