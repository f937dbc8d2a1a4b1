import * as assert from 'node:assert/strict';
import { originText, readOrigin } from '../../../../src/core/interop/sourceOrigin';
import { emptyTask } from '../../../../src/core/interop/sourceTasks';
import { importedFrom, withoutTickRequest } from '../../../../src/core/plan/originTick';

describe('sourceOrigin head', () => {
  it('ends "From FILE, line N." when the file said nothing more of the task, and reads it back', () => {
    const text = originText('TODO.md', emptyTask(5, 'Write the notes'));
    assert.equal(text, 'From TODO.md, line 5.');
    const { text: before, origin } = readOrigin(`Write the notes\n\n${text}`);
    assert.equal(before, 'Write the notes');
    assert.equal(origin?.file, 'TODO.md');
    assert.equal(origin?.line, 5);
    assert.equal(importedFrom(`Write the notes\n\n${text}`), 'TODO.md');
  });

  it('keeps the colon before the lines that follow it, the tick line included', () => {
    const task = emptyTask(7, 'Ship it');
    task.key = 'T007';
    assert.equal(originText('tasks.md', task), 'From tasks.md, line 7:\n- Task: T007');
    const ticked = originText('TODO.md', emptyTask(2, 'Tidy'), true);
    assert.equal(ticked, 'From TODO.md, line 2:\n- Tick in the source file when done: yes');
    assert.equal(readOrigin(ticked).origin?.tick, true);
    assert.deepEqual(withoutTickRequest(`Tidy\n\n${ticked}`), { input: 'Tidy\n\nFrom TODO.md, line 2:', file: 'TODO.md' });
  });
});
