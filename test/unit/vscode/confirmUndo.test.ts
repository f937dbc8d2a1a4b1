import assert from 'node:assert/strict';
import { requireWithVscode } from '../../fakes/requireWithVscode';
import type * as ConfirmUndoModule from '../../../src/vscode/confirmUndo';

/** The dialogs shown: their question, detail and buttons; `answer` is what the next one answers. */
const shown: { question: string; detail: string; buttons: string[] }[] = [];
let answer: string | undefined;
/** The plain notices shown instead of a question. */
const informed: string[] = [];

const { confirmUndoDialog } = requireWithVscode<typeof ConfirmUndoModule>(require.resolve('../../../src/vscode/confirmUndo'), {
  window: {
    showWarningMessage: (question: string, options: { detail: string }, ...buttons: string[]) => {
      shown.push({ question, detail: options.detail, buttons });
      return Promise.resolve(answer);
    },
    showInformationMessage: (message: string) => {
      informed.push(message);
      return Promise.resolve(undefined);
    },
  },
});

describe('confirmUndoDialog: what Undo is about to do, before the user chooses', () => {
  beforeEach(() => {
    shown.length = 0;
    informed.length = 0;
  });

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

  // A multi-root trial: the question about a run of "mathlib", asked over the panel showing a run of "pytools", said
  // "docs/api.md will be deleted" without saying whose.
  it('names the workspace folder first when there are several', async () => {
    answer = 'Keep the changes';
    await confirmUndoDialog({ objective: 'Write the API notes', folder: 'mathlib', files: ['docs/api.md'], created: ['docs/api.md'] });
    assert.deepEqual(shown[0]?.detail.split('\n\n').slice(0, 2), [
      'In the workspace folder "mathlib".',
      'This file, which the run created, will be deleted: docs/api.md.',
    ]);
  });

  it('says every file goes back when none changed since, and keeping the changes undoes nothing', async () => {
    answer = 'Keep the changes';
    assert.equal(await confirmUndoDialog({ objective: 'Add --verbose', files: ['src/cli.js', 'README.md'] }), false);
    assert.match(shown[0]?.detail ?? '', /^These files will go back to how they were before the run: src\/cli\.js, README\.md\./);
    assert.doesNotMatch(shown[0]?.detail ?? '', /Left as it is, changed since|changed since the run/, 'no file changed since: none is said to have (an editor trial)');
  });

  // A trial: a run and its repair run have the same title, and the question did not say which one Undo would take back.
  it('names which run of a repaired task it asks about: the repair (with the run it replaced), or the run a repair replaced', async () => {
    answer = 'Keep the changes';
    await confirmUndoDialog({ objective: 'Add --verbose', repair: 1, files: ['src/cli.js'] });
    await confirmUndoDialog({ objective: 'Add --verbose', replacedBy: 1, files: ['src/cli.js', 'README.md'], changedSince: ['README.md'] });
    await confirmUndoDialog({ objective: 'Add --verbose', repair: 1, replacedBy: 2, fromStep: 'S2', files: ['src/cli.js'] });
    await confirmUndoDialog({ objective: 'Add --verbose', repair: 2, files: ['src/cli.js'] });
    assert.deepEqual(shown.map((dialog) => dialog.question), [
      'Undo the run "Add --verbose" (repair 1, with the run it replaced)?',
      'Undo the run "Add --verbose" (replaced by repair 1)?',
      'Undo step S2 of the run "Add --verbose" (repair 1, replaced by repair 2), and the later steps that depend on it or changed the same files?',
      'Undo the run "Add --verbose" (repair 2, with the runs it replaced)?',
    ]);
  });

  // A trial: "Undo run" was offered for a replaced run whose only file its repair had changed since ("Left as it is, …").
  it('says plainly that undoing a replaced run would take back nothing when every file it changed has changed since, and offers no Undo', async () => {
    answer = 'Undo run';
    assert.equal(await confirmUndoDialog({ objective: 'Add --verbose', replacedBy: 1, files: ['src/cli.js'], changedSince: ['src/cli.js'] }), false);
    assert.deepEqual(shown, [], 'no question offering Undo run');
    assert.deepEqual(informed, [
      'Task Planner: undoing run "Add --verbose" would take back nothing: every file it changed has changed since (src/cli.js), as its repair run went on ' +
        'from them. To take back the task\'s changes, undo repair 1: it takes back the runs it replaced too.',
    ]);
  });
});

