import assert from 'node:assert/strict';
import { importTaskFile } from '../../../../src/core/interop/importTaskFile';
import { createdPathsOfTask, emptyTask } from '../../../../src/core/interop/sourceTasks';

describe('createdPathsOfTask: the files a task says to create', () => {
  const task = (title: string, details: string[] = []) => Object.assign(emptyTask(1, title), { details });

  it('reads the files named after "Create" in the title or a detail line, and only there', () => {
    assert.deepEqual(createdPathsOfTask(task('Create `src/theme.ts`')), ['src/theme.ts']);
    assert.deepEqual(createdPathsOfTask(task('Create ThemeContext', ['Create `frontend/src/context/ThemeContext.tsx`', 'Read docs/theme.md'])), [
      'frontend/src/context/ThemeContext.tsx',
    ]);
    assert.deepEqual(createdPathsOfTask(task('Update `src/theme.ts` to create themes')), [], 'a file changed, or "create" later in the line, is no file created');
    assert.deepEqual(createdPathsOfTask(task('Create the folder `src/themes/`')), [], 'a folder is no file');
    assert.deepEqual(createdPathsOfTask(task('Create `../outside.ts` and `/etc/motd` and `src/*.ts`')), [], 'nothing outside the workspace, no pattern');
  });

  it('gives an imported agent step a file_exists check for each, and a step done by hand none', () => {
    const text = '# Plan\n\n- [ ] Create `src/theme.ts`\n- [ ] Make the header use it\n';
    const withModel = importTaskFile('tasks.md', text, { model: true });
    assert.ok(withModel.ok);
    assert.deepEqual(withModel.plan.steps.map((step) => step.checks), [[{ kind: 'file_exists', path: 'src/theme.ts' }], undefined]);
    const byHand = importTaskFile('tasks.md', text, { model: false });
    assert.ok(byHand.ok);
    assert.deepEqual(byHand.plan.steps.map((step) => step.checks), [undefined, undefined]);
  });
});
