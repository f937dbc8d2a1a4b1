import assert from 'node:assert/strict';
import { maxGitignoreBytes } from '../../../../src/core/workspace/listConfined';
import { confinedMemoryWorkspace } from '../../../fakes/memoryRawFs';

describe('listConfined', () => {
  it('lists files and file links inside, not linked directories, links out or to nothing, temporary, ignored or odd files', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/src/a.ts', 'a');
    raw.file('/ws/src/.gitignore', 'gen/\n*.log\nonly-dirs/\n');
    raw.file('/ws/src/gen/x.ts', 'x');
    raw.file('/ws/src/b.log', 'b');
    raw.file('/ws/.task-planner-tmp-0011', 'stray');
    raw.file('/ws/node_modules/m.js', 'm');
    raw.put('/ws/src/link.ts', { kind: 'link', target: 'a.ts' });
    raw.put('/ws/src/only-dirs', { kind: 'link', target: 'a.ts' });
    raw.put('/ws/src/ignored.log', { kind: 'link', target: 'a.ts' });
    raw.put('/ws/src/dangling.ts', { kind: 'link', target: 'gone.ts' });
    raw.put('/ws/out.ts', { kind: 'link', target: '/outside/a.ts' });
    raw.put('/ws/dir-link', { kind: 'link', target: 'src' });
    raw.put('/ws/pipe', { kind: 'other' });
    raw.file('/outside/a.ts', 'SECRET');
    assert.deepEqual((await workspace.list()).files, ['src/.gitignore', 'src/a.ts', 'src/link.ts', 'src/only-dirs']);
    assert.deepEqual((await workspace.list('**/*.ts')).files, ['src/a.ts', 'src/link.ts']);
    assert.equal(raw.open, 0);
  });

  it('honours a .gitignore of up to 1 MB; a larger one (a repository can hold one of hundreds of MB) ignores nothing', async () => {
    assert.equal(maxGitignoreBytes, 1_000_000);
    const { raw, workspace } = confinedMemoryWorkspace();
    const rules = '*.log\n';
    raw.file('/ws/fits/.gitignore', rules + '#'.repeat(maxGitignoreBytes - rules.length));
    raw.file('/ws/fits/a.log', 'a');
    raw.file('/ws/huge/.gitignore', rules + '#'.repeat(maxGitignoreBytes - rules.length + 1));
    raw.file('/ws/huge/b.log', 'b');
    assert.deepEqual((await workspace.list('**/*.log')).files, ['huge/b.log']);
    assert.equal(raw.open, 0);
  });

  it('leaves out Task Planner\'s own folder at any depth, and names no workspace path can name (a backslash: "a\\b" would read a/b)', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/.task-planner/runs/run-1.jsonl', '{"type":"run_started"} TODO');
    raw.file('/ws/pkg/.task-planner/runs/run-2.jsonl', 'TODO');
    raw.file('/ws/a\\b.txt', 'the file named with a backslash');
    raw.file('/ws/a/b.txt', 'another file');
    raw.file('/ws/notes.md', 'TODO');
    assert.deepEqual((await workspace.list()).files, ['a/b.txt', 'notes.md']);
  });

  it('does not descend into a directory swapped for a link while it lists', async () => {
    const { raw, workspace } = confinedMemoryWorkspace({
      before: (operation, name) => {
        if (operation === 'openDirectory' && name === 'd') raw.put('/ws/d', { kind: 'link', target: '/outside' });
      },
    });
    raw.file('/ws/d/inside.txt', 'inside');
    raw.file('/ws/top.txt', 'top');
    raw.file('/outside/secret.txt', 'SECRET');
    assert.deepEqual((await workspace.list()).files, ['top.txt']);
    assert.equal(raw.open, 0);
  });

  it('sorts by code unit and stops when aborted', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    for (const name of ['b.txt', 'B.txt', 'a/z.txt', 'é.txt', 'a.txt']) raw.file(`/ws/${name}`, name);
    assert.deepEqual((await workspace.list()).files, ['B.txt', 'a.txt', 'a/z.txt', 'b.txt', 'é.txt']);
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    await assert.rejects(workspace.list(undefined, controller.signal), /stopped/);
    assert.equal(raw.open, 0);
  });
});
