import assert from 'node:assert/strict';
import type { WorkspaceError } from '../../../../src/core/workspace/workspaceError';
import { confinedMemoryWorkspace, type MemoryDirectory } from '../../../fakes/memoryRawFs';

const describeOutcome = (text: string | undefined, error: unknown): string => text ?? `${(error as Error).name}: ${(error as Error).message}`;

describe('readManyConfined (readTextMany of the workspace policy)', () => {
  it('gives every path exactly what readText gives it, links and refusals included, closing every handle', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/a.txt', 'a');
    raw.file('/ws/src/b.txt', 'b');
    raw.file('/ws/src/hard.txt', 'h', { links: 2 });
    raw.file('/ws/src/big.txt', 'x'.repeat(50));
    raw.put('/ws/src/link.txt', { kind: 'link', target: 'b.txt' });
    raw.put('/ws/src/pipe', { kind: 'other' });
    raw.put('/ws/out', { kind: 'link', target: '/outside' });
    raw.file('/outside/s.txt', 'SECRET');
    const paths = ['a.txt', 'src/b.txt', 'src/link.txt', 'src/hard.txt', 'src/big.txt', 'src/pipe', 'src', '', 'out/s.txt', 'nope/x', '../x', 'src/b.txt'];
    const expected: string[] = [];
    for (const input of paths) expected.push(await workspace.readText(input, undefined, { maxBytes: 40 }).then((text) => describeOutcome(text, undefined), (error: unknown) => describeOutcome(undefined, error)));
    const seen: string[] = [];
    await workspace.readTextMany(paths, (_, text, error) => void seen.push(describeOutcome(text, error)), undefined, { maxBytes: 40 });
    assert.deepEqual(seen, expected);
    assert.deepEqual(seen.slice(0, 5), ['a', 'b', 'b', 'WorkspaceError: src/hard.txt is a hard link: the same file has 2 names, and another one may be outside the workspace, so it is neither read nor changed. Replace it with a copy, or allow hard links (setting taskPlanner.workspace.allowHardLinks, or --allow-hard-links on the command line) if you trust every name it has.', 'WorkspaceError: src/big.txt is 50 bytes, more than the 40-byte limit for this read']);
    assert.equal(raw.open, 0);
  });

  it('stops when the visitor says so, or throws, closing what it opened', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/a.txt', 'a');
    raw.file('/ws/d/b.txt', 'b');
    const seen: string[] = [];
    await workspace.readTextMany(['a.txt', 'd/b.txt', 'a.txt'], (input) => seen.push(input) < 2);
    assert.deepEqual(seen, ['a.txt', 'd/b.txt']);
    await assert.rejects(workspace.readTextMany(['d/b.txt'], () => assert.fail('visitor failed')), /visitor failed/);
    assert.equal(raw.open, 0);
  });

  it('opens each directory once and keeps reading in it when it is swapped for a link that leads out', async () => {
    let rootOpened = 0;
    const { raw, workspace } = confinedMemoryWorkspace({ before: (operation) => void (operation === 'openRoot' && rootOpened++) });
    raw.file('/ws/top.txt', 'top');
    raw.file('/ws/other.txt', 'other');
    raw.file('/ws/src/a.ts', 'inside a');
    raw.file('/ws/src/c.ts', 'inside c');
    raw.file('/outside/c.ts', 'SECRET');
    const seen: string[] = [];
    await workspace.readTextMany(['top.txt', 'other.txt', 'src/a.ts', 'src/c.ts'], (input, text, error) => {
      seen.push(describeOutcome(text, error));
      if (input === 'src/a.ts') {
        raw.put('/ws/src-old', raw.node('/ws/src') as MemoryDirectory);
        raw.put('/ws/src', { kind: 'link', target: '/outside' });
      }
    });
    assert.deepEqual(seen, ['top', 'other', 'inside a', 'inside c']);
    assert.equal(rootOpened, 2, 'one walk for the root, one for src');
  });

  it('keeps at most 16 directories open, closing those it drops and those it never found', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    const paths: string[] = [];
    for (let index = 0; index < 40; index++) {
      raw.file(`/ws/d${index}/f.txt`, `${index}`);
      paths.push(`d${index}/f.txt`);
    }
    for (let index = 0; index < 40; index++) paths.push(`missing${index}/f.txt`);
    let most = 0;
    const texts: string[] = [];
    await workspace.readTextMany(paths, (_, text, error) => {
      most = Math.max(most, raw.open);
      texts.push(text ?? (error as WorkspaceError).code);
    });
    assert.deepEqual(texts, paths.map((file) => (file.startsWith('d') ? file.slice(1, -6) : 'not_found')));
    assert.equal(most, 16);
    assert.equal(raw.open, 0);
  });

  it('lets other work run every 64 files and every 8 MiB read, and stops when aborted meanwhile', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    let breaths = 0;
    raw.breathe = async () => void breaths++;
    raw.file('/ws/small.txt', 's');
    raw.file('/ws/four.txt', 'x'.repeat(4 * 1024 * 1024));
    await workspace.readTextMany(Array.from({ length: 130 }, () => 'small.txt'), () => undefined);
    assert.equal(breaths, 2, 'before the 64th and the 128th file');
    breaths = 0;
    await workspace.readTextMany(['four.txt', 'small.txt', 'four.txt'], () => undefined);
    assert.equal(breaths, 0, 'not before 8 MiB were read');
    await workspace.readTextMany(['four.txt', 'four.txt', 'small.txt'], () => undefined);
    assert.equal(breaths, 1, 'once 8 MiB were read');
    const controller = new AbortController();
    raw.breathe = async () => controller.abort(new Error('stopped while breathing'));
    let visits = 0;
    await assert.rejects(workspace.readTextMany(Array.from({ length: 100 }, () => 'small.txt'), () => void visits++, controller.signal), /stopped while breathing/);
    assert.equal(visits, 63);
  });

  it('asks refuseTarget where each file is as it is opened (links followed), as readText does, and reads nothing it refuses', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/a.txt', 'a');
    raw.file('/ws/keep/b.txt', 'SECRET b');
    raw.file('/ws/keep/c.txt', 'SECRET c');
    raw.put('/ws/link.txt', { kind: 'link', target: 'keep/b.txt' });
    raw.put('/ws/alias', { kind: 'link', target: 'keep' });
    const asked: string[] = [];
    const refuseTarget = (resolved: string, input: string): Error | undefined => {
      asked.push(`${input} -> ${resolved}`);
      return resolved.startsWith('keep/') ? new Error(`kept: ${resolved}`) : undefined;
    };
    const paths = ['a.txt', 'link.txt', 'alias/c.txt', 'keep/b.txt'];
    const seen: string[] = [];
    await workspace.readTextMany(paths, (_, text, error) => void seen.push(describeOutcome(text, error)), undefined, { refuseTarget });
    assert.deepEqual(seen, ['a', 'Error: kept: keep/b.txt', 'Error: kept: keep/c.txt', 'Error: kept: keep/b.txt']);
    // The quick path asks for the files in a directory it opened (alias/ led to keep/); a link goes the long way.
    assert.deepEqual(asked, ['a.txt -> a.txt', 'link.txt -> keep/b.txt', 'alias/c.txt -> keep/c.txt', 'keep/b.txt -> keep/b.txt']);
    for (const input of paths.slice(1)) await assert.rejects(workspace.readText(input, undefined, { refuseTarget }), /^Error: kept: keep\//);
    await assert.rejects(async () => workspace.readBytes?.('alias/c.txt', undefined, { refuseTarget }), /^Error: kept: keep\/c\.txt$/);
    assert.equal(raw.open, 0, 'every handle is closed');
  });
});
