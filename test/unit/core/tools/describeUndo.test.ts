import assert from 'node:assert/strict';
import { describeUndo } from '../../../../src/core/tools/describeUndo';

describe('describeUndo', () => {
  it('counts restored files with the right plural', () => {
    assert.equal(describeUndo({ runId: 'r', restored: ['a.txt'], unchanged: [], refused: [] }), 'Undo restored 1 file.');
    assert.equal(describeUndo({ runId: 'r', restored: [], unchanged: ['b'], refused: [] }), 'Undo restored 0 files.');
    assert.equal(describeUndo({ runId: 'r', restored: ['a.txt', 'a.txt'], unchanged: [], refused: [] }), 'Undo restored 1 file.', 'one file changed twice is one file');
  });

  it('names every file left alone with its reason', () => {
    const text = describeUndo({ runId: 'r', restored: ['a', 'b'], unchanged: [], refused: [{ path: 'c.txt', reason: 'changed since the run' }, { path: 'd', reason: 'gone' }] });
    assert.equal(text, 'Undo restored 2 files; left alone: c.txt (changed since the run); d (gone).');
  });
});
