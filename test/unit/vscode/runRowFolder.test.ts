import assert from 'node:assert/strict';
import type { PlanTreeNode } from '../../../src/core/view/planTreeModel';
import type * as RunRowFolderModule from '../../../src/vscode/runRowFolder';
import { requireWithVscode } from '../../fakes/requireWithVscode';

const { runRowInFolder } = requireWithVscode<typeof RunRowFolderModule>(require.resolve('../../../src/vscode/runRowFolder'), {});

const row: PlanTreeNode = {
  id: 'run-1',
  label: 'Create an empty file notes/todo.txt, then run python3 -m pytest -q',
  description: 'completed · 2/2 · 12/8/2026, 3:09:19 AM',
  tooltip: 'Create an empty file notes/todo.txt, then run python3 -m pytest -q',
  accessibilityLabel: 'Create an empty file notes/todo.txt, then run python3 -m pytest -q, completed, 2/2',
  icon: 'pass',
  contextValue: 'run.completed',
  children: [],
};

// A multi-root trial: the folder came after the request in the description, which a sidebar of the default width cut
// off, so the runs of "mathlib" and "pytools" looked alike.
describe('runRowInFolder: a Runs view row names its folder where the sidebar shows it', () => {
  it('puts the folder first in the label, and says it in the tooltip and to a screen reader', () => {
    const shown = runRowInFolder(row, 'pytools');
    assert.equal(shown.label, 'pytools · Create an empty file notes/todo.txt, then run python3 -m pytest -q');
    assert.equal(shown.description, row.description);
    assert.match(shown.tooltip, /\nFolder: pytools$/);
    assert.equal(shown.accessibilityLabel, `${row.accessibilityLabel}, in the folder pytools`);
  });

  it('leaves the row of a window of one folder as it is', () => {
    assert.equal(runRowInFolder(row, undefined), row);
  });
});
