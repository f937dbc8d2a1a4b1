import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TextQuery, WorkspaceFs } from '../../../src/core/workspacePorts';
import { maxSearchFileBytes, searchTextTool } from '../../../src/core/tools/searchTextTool';
import { kernelKnowsOpenFiles } from '../../../src/node/nodeDirectoryFs';
import { createParallelTextSearcher, type ParallelSearchOptions } from '../../../src/node/parallelTextSearcher';
import { createNodeWorkspace } from '../../../src/node/nodeWorkspace';
import { makeToolContext, neverAborted } from '../../fakes/toolContext';
import { type LinkSwapper, startLinkSwapper } from './linkSwapper';

const needle: TextQuery = { pattern: 'NEEDLE', regex: false, caseSensitive: true };
type SearchInput = Parameters<typeof searchTextTool.run>[1];

function readerOnly(root: string): WorkspaceFs {
  const { textSearcher: _none, ...workspace } = createNodeWorkspace(root);
  return workspace;
}

function threaded(root: string, options: ParallelSearchOptions = {}): WorkspaceFs {
  const textSearcher = createParallelTextSearcher(root, { minFiles: 1, batchFiles: 3, threads: 2, ...options });
  assert.ok(textSearcher);
  return { ...createNodeWorkspace(root), textSearcher };
}

/** Asserts `search_text` answers every input alike with and without reader threads. */
async function assertSameAsReader(root: string, inputs: SearchInput[], options: ParallelSearchOptions = {}): Promise<void> {
  const plain = makeToolContext({ workspace: readerOnly(root) });
  const withThreads = makeToolContext({ workspace: threaded(root, options) });
  for (const input of inputs) {
    const expected = await searchTextTool.run(plain, input, neverAborted);
    assert.deepEqual(await searchTextTool.run(withThreads, input, neverAborted), expected, JSON.stringify(input));
  }
}

function write(root: string, file: string, content: string | Buffer): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), content);
}

describe('parallel text searcher under attack', function () {
  // Threads start from TypeScript source here, and the machine may be loaded.
  this.timeout(60_000);
  let base: string;
  let root: string;
  beforeEach(function () {
    if (!kernelKnowsOpenFiles) this.skip();
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-threads-'));
    root = path.join(base, 'root');
    fs.mkdirSync(root);
  });
  afterEach(() => {
    if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
  });

  it('matches exactly as the core reader on odd names, undecodable bytes and non-ASCII case folding', async () => {
    // The reader takes a backslash for a separator: "c\\d.txt" is read as c/d.txt.
    write(root, 'a\\b.txt', 'NEEDLE in the file named with a backslash\n');
    write(root, 'a/b.txt', 'plain\n');
    write(root, 'c\\d.txt', 'nothing\n');
    write(root, 'c/d.txt', 'NEEDLE in c/d\n');
    write(root, 'lone\\slash.txt', 'NEEDLE alone\n');
    write(root, '..dots', 'NEEDLE dots\n');
    write(root, '...', 'three dots\n');
    write(root, 'sub/..x', 'NEEDLE sub\n');
    write(root, 'été.txt', 'ÉTÉ chaud Straße ǅ K Σ ς İ ı\n');
    write(root, 'bad.txt', Buffer.from([0x4e, 0x45, 0x45, 0x44, 0x4c, 0x45, 0xff, 0xfe, 0x0a, 0xe2, 0x82, 0x41, 0x0a, 0xef, 0xbf, 0xbd, 0x0a]));
    write(root, 'bom.txt', '\uFEFFNEEDLE after a byte order mark\n');
    fs.writeFileSync(Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0x78, 0xff, 0x79])]), 'NEEDLE in an undecodable name');
    await assertSameAsReader(root, [
      { query: 'NEEDLE' },
      { query: 'nothing' },
      { query: 'needle', caseSensitive: false },
      { query: 'été', caseSensitive: false },
      { query: 'STRASSE', caseSensitive: false },
      { query: 'k', caseSensitive: false },
      { query: 'σ', caseSensitive: false },
      { query: 'ǆ', caseSensitive: false },
      { query: 'İ', caseSensitive: false },
      { query: 'ÉTÉ\\s\\w+', regex: true },
      { query: '[à-ÿ]+', regex: true, caseSensitive: false },
      { query: '\\p{L}+ ', regex: true },
      { query: '\uFFFD' },
      { query: 'NEEDLE\uFFFD\uFFFD' },
      { query: '\uFFFDA' },
      { query: '\uFFFD', regex: true },
      { query: 'NEEDLE\uD800' },
      { query: '^NEEDLE', regex: true },
      { query: '\uFEFF' },
    ]);
  });

  it('neither hangs on nor reads a pipe, a socket or a device node, listed or swapped in after the listing', async function () {
    write(root, 'a.txt', 'NEEDLE a\n');
    write(root, 'later-pipe.txt', 'NEEDLE before it became a pipe\n');
    write(root, 'later-zero.txt', 'NEEDLE before it became a device\n');
    const listed = (await createNodeWorkspace(root).list(undefined, neverAborted)).files;
    if (spawnSync('mkfifo', [path.join(root, 'pipe')]).status !== 0) this.skip();
    fs.rmSync(path.join(root, 'later-pipe.txt'));
    assert.equal(spawnSync('mkfifo', [path.join(root, 'later-pipe.txt')]).status, 0);
    // An endless device, where the system lets us make one: a reader that followed it would never finish.
    fs.rmSync(path.join(root, 'later-zero.txt'));
    const zero = spawnSync('mknod', [path.join(root, 'later-zero.txt'), 'c', '1', '5']).status === 0;
    if (zero) spawnSync('mknod', [path.join(root, 'zero'), 'c', '1', '5']);
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(root, 'socket'), resolve));
    try {
      const narrowing = await threaded(root).textSearcher?.narrow(needle, Promise.resolve(listed), neverAborted);
      assert.deepEqual([...(narrowing?.seen ?? [])], ['a.txt']);
      await assertSameAsReader(root, [{ query: 'NEEDLE' }, { query: 'never there' }]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('leaves unseen a file grown past the size limit after the listing, as the reader skips it', async () => {
    for (let index = 0; index < 8; index++) write(root, `f${index}.txt`, `line ${index}\n`);
    const listed = (await createNodeWorkspace(root).list(undefined, neverAborted)).files;
    fs.appendFileSync(path.join(root, 'f3.txt'), `NEEDLE${'x'.repeat(maxSearchFileBytes)}`);
    const narrowing = await threaded(root).textSearcher?.narrow(needle, Promise.resolve(listed), neverAborted);
    assert.ok(narrowing);
    assert.equal(narrowing.seen.has('f3.txt'), false);
    assert.equal(narrowing.seen.size, 7);
    await assertSameAsReader(root, [{ query: 'NEEDLE' }, { query: 'line' }]);
  });

  it('finds every match among 5,000 files of one directory cut across batches', async () => {
    const names: string[] = [];
    for (let index = 0; index < 5000; index++) {
      const name = `big/f${String(index).padStart(4, '0')}.txt`;
      names.push(name);
      write(root, name, index % 997 === 0 || index === 4999 ? `x\nNEEDLE ${index}\n` : `x ${index}\n`);
    }
    const workspace = threaded(root, { batchFiles: 256 });
    const narrowing = await workspace.textSearcher?.narrow(needle, workspace.list(undefined, neverAborted).then((listing) => listing.files), neverAborted);
    assert.deepEqual([...(narrowing?.matched ?? [])].sort(), [
      'big/f0000.txt',
      'big/f0997.txt',
      'big/f1994.txt',
      'big/f2991.txt',
      'big/f3988.txt',
      'big/f4985.txt',
      'big/f4999.txt',
    ]);
    assert.equal(narrowing?.seen.size, 5000);
    await assertSameAsReader(root, [{ query: 'NEEDLE' }, { query: 'needle \\d+$', regex: true, caseSensitive: false }], { batchFiles: 256 });
  });

  it('answers two searches at once on one pool, and the next after one is cancelled', async () => {
    for (let index = 0; index < 300; index++) write(root, `d${index % 7}/f${index}.txt`, index % 5 === 0 ? 'NEEDLE\n' : `other ${index}\n`);
    const workspace = threaded(root, { batchFiles: 4 });
    const listed = (await workspace.list(undefined, neverAborted)).files;
    const alone = async (query: TextQuery): Promise<string[]> =>
      [...((await workspace.textSearcher?.narrow(query, Promise.resolve(listed), neverAborted))?.matched ?? [])].sort();
    const other = { pattern: 'other 1\\d$', regex: true, caseSensitive: true };
    const [first, second] = [await alone(needle), await alone(other)];
    assert.equal(first.length, 60);
    assert.equal(second.length, 8);
    const controller = new AbortController();
    const cancelled = assert.rejects(workspace.textSearcher?.narrow(needle, Promise.resolve(listed), controller.signal) ?? Promise.resolve(), /stopped/);
    const together = await Promise.all([alone(needle), alone(other), Promise.resolve().then(() => controller.abort(new Error('stopped')))]);
    await cancelled;
    assert.deepEqual(together.slice(0, 2), [first, second]);
    assert.deepEqual(await alone(needle), first);
  });
});

describe('parallel text searcher in a process of its own', function () {
  this.timeout(120_000);
  // Searches 600 files on the default pool, cancelled at once when asked, and prints what it found; must then end by itself.
  const script = (root: string, cancel: boolean): string => `
    import { createParallelTextSearcher } from ${JSON.stringify(path.resolve(__dirname, '../../../src/node/parallelTextSearcher.ts'))};
    const files = Array.from({ length: 600 }, (_, index) => 'f' + index + '.txt');
    const controller = new AbortController();
    const pending = createParallelTextSearcher(${JSON.stringify(root)})!.narrow({ pattern: 'NEEDLE', regex: false, caseSensitive: true }, Promise.resolve(files), controller.signal);
    if (${String(cancel)}) setImmediate(() => controller.abort(new Error('cancelled')));
    pending.then((found) => console.log(found?.matched.size, found?.seen.size), (error: Error) => console.log(error.message));
  `;
  let base: string;
  beforeEach(function () {
    if (!kernelKnowsOpenFiles) this.skip();
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-threads-exit-'));
    for (let index = 0; index < 600; index++) write(base, `root/f${index}.txt`, index % 100 === 0 ? 'NEEDLE\n' : 'other\n');
  });
  afterEach(() => {
    if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
  });

  for (const cancel of [false, true]) {
    it(cancel ? 'ends once a search is cancelled while its threads read' : 'ends once a search is done: no thread keeps it alive', () => {
      fs.writeFileSync(path.join(base, 'search.ts'), script(path.join(base, 'root'), cancel));
      // The bound only stops a hung child: the threads end with their last batch, long before it.
      const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(base, 'search.ts')], {
        cwd: path.resolve(__dirname, '../../..'),
        encoding: 'utf8',
        timeout: 90_000,
      });
      assert.equal(child.signal, null, 'the process was still running');
      assert.equal(child.status, 0, child.stderr);
      assert.equal(child.stdout.trim(), cancel ? 'cancelled' : '6 600');
    });
  }
});

describe('parallel text searcher against a directory swapped for a link while its threads read', function () {
  if (process.platform !== 'linux') return;
  this.timeout(120_000);
  let base: string;
  let root: string;
  const swappers: LinkSwapper[] = [];
  beforeEach(function () {
    if (!kernelKnowsOpenFiles) this.skip();
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-threads-race-'));
    root = path.join(base, 'root');
    const outside = path.join(base, 'outside');
    // Inside, no file holds the needle; every file of the same name outside does.
    for (let index = 0; index < 20; index++) {
      write(root, `d/f${index}.txt`, 'inside\n');
      write(root, `d/deep/g${index}.txt`, 'inside\n');
      write(outside, `f${index}.txt`, 'NEEDLE outside\n');
      write(outside, `deep/g${index}.txt`, 'NEEDLE outside\n');
    }
    write(root, 'file.txt', 'inside\n');
    // Two files outside: the target of the soft link has a single name, so only following it could read it.
    write(base, 'soft-secret.txt', 'NEEDLE outside\n');
    write(base, 'hard-secret.txt', 'NEEDLE outside\n');
    fs.symlinkSync(outside, path.join(root, 'swap'));
    fs.symlinkSync(path.join(base, 'soft-secret.txt'), path.join(root, 'file-link'));
    fs.linkSync(path.join(base, 'hard-secret.txt'), path.join(root, 'file-hard'));
  });
  afterEach(async () => {
    for (const swapper of swappers.splice(0)) await swapper.stop();
    if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
  });

  it('never names a file read through the link, or through a file swapped for a soft or hard link', async () => {
    const workspace = threaded(root, { batchFiles: 7 });
    const listed = (await workspace.list(undefined, neverAborted)).files.filter((file) => file.startsWith('d/') || file === 'file.txt');
    assert.equal(listed.length, 41);
    swappers.push(await startLinkSwapper(path.join(root, 'd'), path.join(root, 'swap')));
    swappers.push(await startLinkSwapper(path.join(root, 'file.txt'), path.join(root, 'file-link')));
    let seenInside = 0;
    for (let round = 0; round < 300; round++) {
      const narrowing = await workspace.textSearcher?.narrow(needle, Promise.resolve(listed), neverAborted);
      assert.deepEqual([...(narrowing?.matched ?? [])], [], `round ${round}`);
      seenInside += narrowing?.seen.size ?? 0;
    }
    // The threads did read between the swaps: the test raced something.
    assert.ok(seenInside > 0);
    await swappers.pop()?.stop();
    swappers.push(await startLinkSwapper(path.join(root, 'file.txt'), path.join(root, 'file-hard')));
    for (let round = 0; round < 300; round++) {
      const narrowing = await workspace.textSearcher?.narrow(needle, Promise.resolve(listed), neverAborted);
      assert.deepEqual([...(narrowing?.matched ?? [])], [], `round ${round}`);
    }
  });
});

describe('search_text over a file holding a private key, with and without reader threads', function () {
  this.timeout(60_000);
  let root: string;
  beforeEach(function () {
    if (!kernelKnowsOpenFiles) this.skip();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-oracle-'));
  });
  afterEach(() => {
    if (root !== undefined) fs.rmSync(root, { recursive: true, force: true });
  });

  it('attack: counts nothing that tells whether a guess is in a file holding a private key (search_text as an oracle)', async () => {
    // Not named as a credentials file: only its content keeps it from the model. The threads saw it without a match for a
    // wrong guess (counted searched) and the reader skipped it for a right one (counted skipped): the key, one character at a time.
    const key = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCSECRET\n-----END PRIVATE KEY-----\n';
    for (let index = 0; index < 8; index++) write(root, `f${index}.txt`, `plain file ${index}\n`);
    write(root, 'service-account.json', JSON.stringify({ type: 'service_account', private_key: key }));
    const withheld: string[] = [];
    for (const workspace of [threaded(root), readerOnly(root)]) {
      const ctx = makeToolContext({ workspace, withheld: (file: string) => withheld.push(file) });
      const counts = async (query: string) => {
        const result = await searchTextTool.run(ctx, { query }, neverAborted);
        return { matches: result.matches.length, searched: result.filesSearched, skipped: result.filesSkipped, truncated: result.truncated };
      };
      const right = await counts('AASCSECRET');
      assert.deepEqual(right, { matches: 0, searched: 9, skipped: 0, truncated: false });
      assert.deepEqual(await counts('AASCSECREX'), right);
      assert.deepEqual(await counts('plain file'), { matches: 8, searched: 9, skipped: 0, truncated: false });
    }
    assert.ok(withheld.every((file) => file === 'service-account.json'), withheld.join());
  });
});
