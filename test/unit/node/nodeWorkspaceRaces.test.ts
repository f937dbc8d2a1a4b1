import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeWorkspace } from '../../../src/node/nodeWorkspace';
import { type LinkSwapper, startLinkSwapper } from './linkSwapper';

// Races against a real process that swaps a directory (or a file) of the workspace with a
// symbolic link to the outside while the workspace works. Each test runs a fixed number of
// operations and asserts on what happened outside, never on timing.
const maxAttempts = 1000;

describe('createNodeWorkspace under a directory swapped with an outside link', function () {
  if (process.platform !== 'linux') return;
  // A few seconds each; room for a machine loaded by other work.
  this.timeout(60_000);
  let base: string;
  let root: string;
  let outside: string;
  let swapper: LinkSwapper | undefined;
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-race-'));
    root = path.join(base, 'root');
    outside = path.join(base, 'outside');
    fs.mkdirSync(path.join(root, 'd'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(root, 'd/secret.txt'), 'inside');
    fs.writeFileSync(path.join(root, 'f.txt'), 'inside');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE');
    fs.writeFileSync(path.join(outside, 'f.txt'), 'OUTSIDE');
    fs.symlinkSync(outside, path.join(root, 'swap'));
    fs.symlinkSync(path.join(outside, 'f.txt'), path.join(root, 'flink'));
  });
  afterEach(async () => {
    await swapper?.stop();
    swapper = undefined;
    fs.rmSync(base, { recursive: true, force: true });
  });

  const swapDirectory = async (): Promise<void> => {
    swapper = await startLinkSwapper(path.join(root, 'd'), path.join(root, 'swap'));
  };
  // Runs `operation` at least `count` times, and on (up to `maxAttempts`) until some of it
  // succeeded: on a loaded machine the swapper may hold one position for a long stretch.
  const attempt = async (count: number, operation: (index: number) => Promise<number>): Promise<number> => {
    let succeeded = 0;
    for (let index = 0; index < maxAttempts && (index < count || succeeded < 10); index++) succeeded += await operation(index);
    return succeeded;
  };
  const createdOutside = (): string[] => fs.readdirSync(outside).filter((name) => name !== 'secret.txt' && name !== 'f.txt');

  it('never reads outside content through readText or readTextMany', async () => {
    const workspace = createNodeWorkspace(root);
    await swapDirectory();
    const seen = { inside: 0, outside: 0 };
    const count = (text: string | undefined): void => {
      if (text === 'OUTSIDE') seen.outside++;
      if (text === 'inside') seen.inside++;
    };
    for (let index = 0; index < 2000; index++) count(await workspace.readText('d/secret.txt').catch(() => undefined));
    await workspace.readTextMany(Array.from({ length: 2000 }, () => 'd/secret.txt'), (_, text) => count(text));
    for (let batch = 0; batch < 200; batch++) await workspace.readTextMany(['d/secret.txt', 'f.txt'], (_, text) => count(text));
    assert.equal(seen.outside, 0, `outside content read ${seen.outside} times (inside ${seen.inside})`);
    assert.ok(seen.inside > 0, 'some reads succeeded inside');
  });

  it('never reads outside content when the file itself is swapped for an outside link', async () => {
    const workspace = createNodeWorkspace(root);
    swapper = await startLinkSwapper(path.join(root, 'f.txt'), path.join(root, 'flink'));
    const seen = { inside: 0, outside: 0 };
    for (let index = 0; index < 2000; index++) {
      const text = await workspace.readText('f.txt').catch(() => undefined);
      if (text === 'OUTSIDE') seen.outside++;
      if (text === 'inside') seen.inside++;
    }
    assert.equal(seen.outside, 0, `outside content read ${seen.outside} times (inside ${seen.inside})`);
    assert.ok(seen.inside > 0, 'some reads succeeded inside');
  });

  it('never writes a file, a temporary file or a directory outside', async () => {
    const workspace = createNodeWorkspace(root);
    await swapDirectory();
    const succeeded = await attempt(500, async (index) => {
      const wrote = await workspace.writeText(`d/w${index}.txt`, 'written').then(() => 1, () => 0);
      return wrote + (await workspace.createDirectory(`d/m${index}/n`).then(() => 1, () => 0));
    });
    await swapper?.stop();
    swapper = undefined;
    const escaped = createdOutside();
    assert.equal(escaped.length, 0, `${escaped.length} entries created outside, e.g. ${escaped.slice(0, 5).join(', ')}`);
    assert.ok(succeeded > 0, 'some writes succeeded inside');
  });

  it('never deletes outside', async () => {
    const workspace = createNodeWorkspace(root);
    for (let index = 0; index < maxAttempts; index++) {
      fs.writeFileSync(path.join(root, 'd', `x${index}.txt`), 'inside');
      fs.writeFileSync(path.join(outside, `x${index}.txt`), 'OUTSIDE');
    }
    await swapDirectory();
    const deleted = await attempt(300, (index) => workspace.delete(`d/x${index}.txt`).then(() => 1, () => 0));
    await swapper?.stop();
    swapper = undefined;
    const remaining = fs.readdirSync(outside).filter((name) => name.startsWith('x')).length;
    assert.equal(maxAttempts - remaining, 0, `${maxAttempts - remaining} files deleted outside`);
    assert.ok(deleted > 0, 'some deletions succeeded inside');
  });
});
