import assert from 'node:assert/strict';
import { maxLinks, maxRetries } from '../../../../src/core/workspace/confinedWalk';
import { createConfinedWorkspace } from '../../../../src/core/workspace/confinedWorkspace';
import { PathRefusedError } from '../../../../src/core/workspace/resolveInRoot';
import { WorkspaceError } from '../../../../src/core/workspace/workspaceError';
import { confinedMemoryWorkspace, MemoryRawFs, type MemoryDirectory, namesIn, stillClock } from '../../../fakes/memoryRawFs';
import { memoryChangeLocks } from '../../../fakes/memoryChangeLocks';

const refused = (pattern: RegExp) => (error: unknown): boolean => error instanceof PathRefusedError && pattern.test(error.message);

describe('ConfinedWalk: symbolic links', () => {
  it('follows links that stay inside, relative or absolute, and says where they lead', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/src/a.ts', 'a');
    raw.put('/ws/rel', { kind: 'link', target: 'src' });
    raw.put('/ws/abs', { kind: 'link', target: '/ws/src/a.ts' });
    raw.put('/ws/src/up', { kind: 'link', target: '../src/a.ts' });
    raw.put('/ws/slash', { kind: 'link', target: 'src/' });
    raw.put('/ws/dotted', { kind: 'link', target: './src/./a.ts' });
    raw.put('/ws/doubled', { kind: 'link', target: 'src//a.ts' });
    const texts = await Promise.all(['rel/a.ts', 'abs', 'src/up', 'dotted', 'doubled'].map((input) => workspace.readText(input)));
    assert.deepEqual(texts, ['a', 'a', 'a', 'a', 'a']);
    assert.deepEqual(
      [
        await workspace.locate?.('rel/a.ts'),
        await workspace.locate?.('abs'),
        await workspace.locate?.('rel/new/x.ts'),
        await workspace.locate?.('slash'),
        await workspace.locate?.(''),
      ],
      ['src/a.ts', 'src/a.ts', 'src/new/x.ts', 'src', ''],
    );
    assert.equal((await workspace.stat('slash'))?.type, 'directory');
    await workspace.writeText('rel/b.ts', 'b');
    assert.equal(raw.text('/ws/src/b.ts'), 'b');
    assert.equal(raw.open, 0);
  });

  it('follows absolute links named through the root as given or through its real place', async () => {
    const raw = new MemoryRawFs('/ws');
    raw.file('/real/ws/src/a.ts', 'a');
    raw.put('/ws', { kind: 'link', target: '/real/ws' });
    raw.put('/real/ws/by-name', { kind: 'link', target: '/ws/src/a.ts' });
    raw.put('/real/ws/by-place', { kind: 'link', target: '/real/ws/src/a.ts' });
    const workspace = createConfinedWorkspace(raw, { root: '/ws', clock: stillClock, changeLocks: memoryChangeLocks(raw) });
    assert.deepEqual([await workspace.readText('by-name'), await workspace.readText('by-place')], ['a', 'a']);
  });

  it('refuses links that lead out, absolutely or by climbing, in every method, touching nothing outside', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/outside/secret.txt', 'SECRET');
    raw.put('/ws/out', { kind: 'link', target: '/outside' });
    raw.put('/ws/climb', { kind: 'link', target: '../outside' });
    raw.put('/ws/deep', { kind: 'link', target: 'x/../../outside/secret.txt' });
    raw.put('/ws/x', { kind: 'directory', entries: new Map() });
    const outside = refused(/leads outside the workspace through a symbolic link/);
    for (const input of ['out/secret.txt', 'climb/secret.txt', 'deep']) {
      await assert.rejects(workspace.readText(input), outside, input);
      await assert.rejects(workspace.writeText(input, 'x'), outside, input);
      await assert.rejects(workspace.stat(input), outside, input);
      await assert.rejects(workspace.delete(input), outside, input);
    }
    await assert.rejects(workspace.createDirectory('out/new'), outside);
    assert.deepEqual(namesIn(raw, '/outside'), ['secret.txt']);
    assert.equal(raw.text('/outside/secret.txt'), 'SECRET');
    assert.equal(raw.open, 0);
  });

  it('refuses a dangling link, and a loop, saying so', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.put('/ws/dangling', { kind: 'link', target: 'nowhere.txt' });
    raw.put('/ws/dir-dangling', { kind: 'link', target: 'nowhere' });
    raw.put('/ws/loop', { kind: 'link', target: 'loop' });
    const dangling = refused(/symbolic link whose target does not exist/);
    await assert.rejects(workspace.readText('dangling'), dangling);
    await assert.rejects(workspace.writeText('dangling', 'x'), dangling);
    await assert.rejects(workspace.writeText('dir-dangling/a.txt', 'x'), dangling);
    await assert.rejects(workspace.createDirectory('dir-dangling/sub'), dangling);
    await assert.rejects(workspace.stat('dangling'), dangling);
    await assert.rejects(workspace.delete('dangling'), dangling);
    assert.deepEqual(namesIn(raw, '/ws'), ['dangling', 'dir-dangling', 'loop'], 'nothing was created where the links point');
    await assert.rejects(workspace.readText('loop'), refused(/too many symbolic links \(a loop\?\)/));
  });

  it(`follows a chain of ${maxLinks} links and refuses a longer one`, async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/target.txt', 'end');
    for (let index = 0; index <= maxLinks; index++) raw.put(`/ws/l${index}`, { kind: 'link', target: index === maxLinks ? 'target.txt' : `l${index + 1}` });
    assert.equal(await workspace.readText('l1'), 'end');
    await assert.rejects(workspace.readText('l0'), refused(/too many symbolic links/));
  });

  it('refuses changes that lead into .git through a link (any letter case), creating nothing there', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/.git/config', '[core]');
    raw.put('/ws/docs', { kind: 'link', target: '.GIT' });
    raw.put('/ws/.GIT', { kind: 'link', target: '.git' });
    const intoGit = refused(/inside \.git, which git manages/);
    await assert.rejects(workspace.writeText('docs/hooks/pre-commit', 'echo pwned'), intoGit);
    await assert.rejects(workspace.createDirectory('docs/hooks'), intoGit);
    await assert.rejects(workspace.delete('docs/config'), intoGit);
    await assert.rejects(
      workspace.writeText('.git/config', 'x'),
      refused(/^Refused path "\.git\/config": it is inside \.git, which git manages: tools never change files there\.$/),
    );
    assert.deepEqual(namesIn(raw, '/ws/.git'), ['config']);
    assert.equal(await workspace.readText('docs/config'), '[core]', 'reading stays allowed');
  });

  it('refuses changes that lead into .task-planner through a link (any letter case), creating nothing there', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/.task-planner/runs/r1.jsonl', 'journal');
    raw.put('/ws/notes', { kind: 'link', target: '.Task-Planner' });
    raw.put('/ws/.Task-Planner', { kind: 'link', target: '.task-planner/runs' });
    const intoOwnData = refused(/inside \.task-planner, where Task Planner keeps/);
    await assert.rejects(workspace.writeText('notes/r1.jsonl', 'forged'), intoOwnData);
    await assert.rejects(workspace.writeText('notes/r2.jsonl', 'forged'), intoOwnData);
    await assert.rejects(workspace.createDirectory('notes/sub'), intoOwnData);
    await assert.rejects(workspace.delete('notes/r1.jsonl'), intoOwnData);
    await assert.rejects(workspace.writeText('.task-planner/runs/r1.jsonl', 'forged'), refused(/it is inside \.task-planner, where/));
    assert.deepEqual(namesIn(raw, '/ws/.task-planner/runs'), ['r1.jsonl']);
    assert.equal(await workspace.readText('notes/r1.jsonl'), 'journal', 'reading stays allowed');
    await workspace.writeText('src/a.ts', 'a');
    assert.equal(raw.text('/ws/src/a.ts'), 'a', 'atomic writes still use their temporary folder in .task-planner');
  });

  it('deletes a link itself, never its target', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/target.txt', 't');
    raw.put('/ws/link', { kind: 'link', target: 'target.txt' });
    await workspace.delete('link');
    assert.deepEqual(namesIn(raw, '/ws'), ['target.txt']);
  });

  it('says which file is in the way of a new directory', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/a/file.txt', 'x');
    const inTheWay =
      (pattern: RegExp) =>
      (error: unknown): boolean =>
        error instanceof WorkspaceError && error.code === 'not_directory' && pattern.test(error.message);
    await assert.rejects(
      workspace.writeText('a/file.txt/b/c.txt', 'x'),
      inTheWay(/^Cannot create a\/file\.txt\/b\/c\.txt: a\/file\.txt is a file in the way$/),
    );
    await assert.rejects(workspace.createDirectory('a/file.txt'), inTheWay(/a\/file\.txt is a file in the way/));
    raw.makeDirectory = async () => 'not_directory';
    await assert.rejects(workspace.createDirectory('new'), inTheWay(/^Cannot create new: a file is in the way$/));
  });
});

describe('ConfinedWalk: a tree that changes while it walks', () => {
  it('keeps reading in the directory it opened when that directory is swapped for a link that leads out', async () => {
    let swapped = false;
    const { raw, workspace } = confinedMemoryWorkspace({
      before: (operation, name) => {
        if (operation === 'openFile' && name === 'secret.txt' && !swapped) {
          swapped = true;
          raw.put('/ws/d-old', raw.node('/ws/d') as MemoryDirectory);
          raw.put('/ws/d', { kind: 'link', target: '/outside' });
        }
      },
    });
    raw.file('/ws/d/secret.txt', 'inside');
    raw.file('/outside/secret.txt', 'OUTSIDE');
    assert.equal(await workspace.readText('d/secret.txt'), 'inside');
    assert.equal(swapped, true);
    await assert.rejects(workspace.readText('d/secret.txt'), refused(/leads outside/));
  });

  it('writes into the directory it opened when that directory is swapped for a link that leads out', async () => {
    const { raw, workspace } = confinedMemoryWorkspace({
      before: (operation, name) => {
        if (operation === 'rename' && name === 'new.txt') {
          raw.put('/ws/d-old', raw.node('/ws/d') as MemoryDirectory);
          raw.put('/ws/d', { kind: 'link', target: '/outside' });
        }
      },
    });
    raw.put('/ws/d', { kind: 'directory', entries: new Map() });
    raw.put('/outside', { kind: 'directory', entries: new Map() });
    await workspace.writeText('d/new.txt', 'text');
    assert.equal(raw.text('/ws/d-old/new.txt'), 'text');
    assert.deepEqual(namesIn(raw, '/outside'), []);
  });

  it('refuses when a directory on the way was moved outside after it was opened', async () => {
    const { raw, workspace } = confinedMemoryWorkspace({
      before: (operation, name) => {
        if (operation === 'openDirectory' && name === 'sub') {
          raw.put('/outside/d', raw.node('/ws/d') as MemoryDirectory);
          (raw.node('/ws') as MemoryDirectory).entries.delete('d');
        }
      },
    });
    raw.file('/ws/d/sub/a.txt', 'a');
    await assert.rejects(workspace.writeText('d/sub/a.txt', 'changed'), refused(/a directory on its way was moved outside the workspace/));
    assert.equal(raw.text('/outside/d/sub/a.txt'), 'a');
    assert.equal(raw.open, 0);
  });

  it('looks again at a link that vanished between seeing it and reading it', async () => {
    let flickers = 0;
    const { raw, workspace } = confinedMemoryWorkspace({
      before: (operation, name) => {
        if (operation === 'readLink' && name === 'flicker' && flickers++ === 0) raw.file('/ws/flicker', 'now a file');
      },
    });
    raw.put('/ws/flicker', { kind: 'link', target: '/outside/x' });
    assert.equal(await workspace.readText('flicker'), 'now a file');
    assert.deepEqual(await workspace.stat('flicker'), { type: 'file', size: 10, mtimeMs: 0, mode: 0o644 });
  });

  it(`gives up on links that keep vanishing and reappearing after ${maxRetries} new looks, saying why`, async () => {
    let looks = 0;
    const { raw, workspace } = confinedMemoryWorkspace({
      before: (operation, name) => {
        if (operation === 'readLink' && name === 'flip') looks++;
        if (operation === 'readLink' && (name === 'flip' || name === 'blink')) (raw.node('/ws') as MemoryDirectory).entries.delete(name);
        if (operation === 'openDirectory' && name === 'flip') raw.put('/ws/flip', { kind: 'link', target: 'd' });
        if (operation === 'lstat' && name === 'blink') raw.put('/ws/blink', { kind: 'link', target: 'd/a.txt' });
      },
    });
    raw.file('/ws/d/a.txt', 'a');
    raw.put('/ws/flip', { kind: 'link', target: 'd' });
    raw.put('/ws/blink', { kind: 'link', target: 'd/a.txt' });
    await assert.rejects(workspace.readText('flip/a.txt'), /^Error: flip\/a\.txt kept changing while it was being opened; try again$/);
    assert.equal(looks, maxRetries + 1);
    await assert.rejects(workspace.stat('blink'), refused(/too many symbolic links/));
    assert.equal(raw.open, 0);
  });

  it('refuses when the root was replaced while in use, and names a missing root', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/a.txt', 'a');
    assert.equal(await workspace.readText('a.txt'), 'a');
    raw.put('/ws-moved', raw.node('/ws') as MemoryDirectory);
    raw.file('/elsewhere/a.txt', 'ELSEWHERE');
    raw.put('/ws', { kind: 'link', target: '/elsewhere' });
    await assert.rejects(workspace.readText('a.txt'), refused(/the workspace root \/ws was moved or replaced while in use/));
    raw.top.entries.delete('ws');
    await assert.rejects(workspace.readText('a.txt'), refused(/the workspace root \/ws does not exist/));
    const absentRaw = new MemoryRawFs('/absent');
    const absent = createConfinedWorkspace(absentRaw, { root: '/absent', clock: stillClock, changeLocks: memoryChangeLocks(absentRaw) });
    await assert.rejects(absent.list(), refused(/the workspace root \/absent does not exist/));
    await assert.rejects(absent.readTextMany([], () => undefined), (error: unknown) => error instanceof PathRefusedError && error.path === '');
  });
});
