import assert from 'node:assert/strict';
import { importTaskFile } from '../../../../src/core/interop/importTaskFile';
import { createdPathsOfTask, emptyTask } from '../../../../src/core/interop/sourceTasks';
import { checkReadBack } from '../../../../src/core/interop/tasksToPlan';

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

  // A trial's "Create `docs/usage.md` describing how to run wordcount.py" got the check "file exists wordcount.py" too.
  it('reads the files the line creates, not those it mentions after them', () => {
    assert.deepEqual(createdPathsOfTask(task('Create `docs/usage.md` describing how to run wordcount.py')), ['docs/usage.md']);
    assert.deepEqual(createdPathsOfTask(task('Create the files `src/a.ts`, `src/b.ts` and `src/c.ts` that import src/index.ts')), ['src/a.ts', 'src/b.ts', 'src/c.ts']);
    assert.deepEqual(createdPathsOfTask(task('Create a new file [notes](docs/notes.md) linking to README.md')), ['docs/notes.md']);
  });

  it('gives an imported step a file_exists check for each, an agent\'s or yours (a newcomer\'s Done without the file ticked the task)', () => {
    const text = '# Plan\n\n- [ ] Create `src/theme.ts`\n- [ ] Make the header use it\n';
    const withModel = importTaskFile('tasks.md', text, { model: true });
    assert.ok(withModel.ok);
    assert.deepEqual(withModel.plan.steps.map((step) => step.checks), [[{ kind: 'file_exists', path: 'src/theme.ts' }], undefined]);
    const byHand = importTaskFile('tasks.md', text, { model: false });
    assert.ok(byHand.ok);
    assert.deepEqual(byHand.plan.steps.map((step) => step.checks), [[{ kind: 'file_exists', path: 'src/theme.ts' }], undefined]);
  });

  it('knows the checks an export keeps: a created file\'s comes back with its task, any other is lost', () => {
    const imported = importTaskFile('tasks.md', '# Plan\n\n- [ ] Add the theme\n  - Create `src/theme.ts`\n', { model: true });
    assert.ok(imported.ok);
    const step = imported.plan.steps[0]!;
    assert.deepEqual(step.checks, [{ kind: 'file_exists', path: 'src/theme.ts' }]);
    assert.equal(checkReadBack(step, { kind: 'file_exists', path: 'src/theme.ts' }), true);
    assert.equal(checkReadBack(step, { kind: 'file_exists', path: 'src/other.ts' }), false);
    assert.equal(checkReadBack(step, { kind: 'command', argv: ['npm', 'test'] }), false);
  });
});
