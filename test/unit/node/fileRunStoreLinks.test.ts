import assert from 'node:assert/strict';
import { linkSync, lstatSync, mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runsCommand } from '../../../src/cli/runsCommand';
import { createFileRunStore, maxRunFileBytes } from '../../../src/node/fileRunStore';
import { NotPlainFileError } from '../../../src/node/readBoundedText';
import { temporaryDirectory } from '../../support/temporaryDirectory';
import { plantedFifos } from '../../support/plantedFifos';

// An outside attacker's find: the CLI keeps journals in <workspace>/.task-planner/runs, where a repository can commit files;
// the folders were checked for links, the files in them were not (read and appended through a link, a pipe read forever).
describe('createFileRunStore over files a repository committed in its folder', () => {
  const root = temporaryDirectory('runstore-links-');
  const runs = (): string => join(root.path, 'ws', '.task-planner', 'runs');
  const entry = (seq: number) => ({ type: 'step_ready', runId: 'r1', seq, time: seq, stepId: `s${seq}` });
  const journalText = `${JSON.stringify(entry(1))}\n`;
  const fifos = plantedFifos();
  beforeEach(() => mkdirSync(runs(), { recursive: true }));
  afterEach(() => fifos.releaseAll());
  const mkfifo = (path: string): void => fifos.make(path);

  it('attack: a journal linked to a file outside is neither read nor appended to: load and append reject naming it, and the file is unchanged', async () => {
    const outside = join(root.path, 'other-project.jsonl');
    writeFileSync(outside, journalText);
    symlinkSync(outside, join(runs(), 'r1.jsonl'));
    const store = createFileRunStore(runs());
    const refusal = (error: unknown): boolean => {
      assert.ok(error instanceof NotPlainFileError);
      assert.match(error.message, /runs\/r1\.jsonl is a link \(to .*other-project\.jsonl\): .*remove it and try again\.$/);
      return true;
    };
    await assert.rejects(store.load('r1'), refusal);
    await assert.rejects(store.append('r1', [entry(2)]), refusal);
    assert.equal(readFileSync(outside, 'utf8'), journalText);
  });

  it('attack: a journal with a second name (a hard link to a file elsewhere) is neither read nor appended to', async () => {
    const outside = join(root.path, 'elsewhere.jsonl');
    writeFileSync(outside, journalText);
    linkSync(outside, join(runs(), 'r1.jsonl'));
    const store = createFileRunStore(runs());
    await assert.rejects(store.load('r1'), /r1\.jsonl is a file with 2 names/);
    await assert.rejects(store.append('r1', [entry(2)]), NotPlainFileError);
    assert.equal(readFileSync(outside, 'utf8'), journalText);
  });

  it('attack: a journal that is a named pipe is refused at once, not waited on for ever, and `runs` lists the run as unreadable, naming the pipe', async function () {
    if (process.platform === 'win32') this.skip();
    this.timeout(10_000);
    mkfifo(join(runs(), '20260101-000000-cccccc.jsonl'));
    const store = createFileRunStore(runs());
    assert.deepEqual((await store.list()).map((run) => run.runId), ['20260101-000000-cccccc']);
    await assert.rejects(store.load('20260101-000000-cccccc'), /20260101-000000-cccccc\.jsonl is a pipe: /);
    await assert.rejects(store.append('20260101-000000-cccccc', [entry(1)]));
    const out: string[] = [];
    const io = { out: (text: string) => out.push(text), err: () => undefined, interactive: false, ask: () => Promise.resolve('') };
    assert.equal(await runsCommand(join(root.path, 'ws'), false, io), 0);
    assert.match(out.join('\n'), /^20260101-000000-cccccc {2}unreadable +0\/0 .* \S*20260101-000000-cccccc\.jsonl is a pipe: /m);
  });

  it('attack: a journal linked to /dev/zero is refused without being read (it was read until the string limit, then "Invalid string length")', async function () {
    if (process.platform === 'win32') this.skip();
    symlinkSync('/dev/zero', join(runs(), 'r1.jsonl'));
    await assert.rejects(createFileRunStore(runs()).load('r1'), /r1\.jsonl is a link \(to \/dev\/zero\): /);
  });

  it('refuses a journal larger than it reads (a sparse file), saying the limit, before reading any of it', async () => {
    const file = join(runs(), 'r1.jsonl');
    writeFileSync(file, '');
    truncateSync(file, maxRunFileBytes + 1);
    const store = createFileRunStore(runs());
    const limit = new RegExp(`^Error: The run journal .*r1\\.jsonl is larger than ${Math.floor(maxRunFileBytes / 1024 / 1024)} MB, the most Task Planner reads of a run file`);
    await assert.rejects(store.load('r1'), limit);
    await assert.rejects(store.append('r1', [entry(1)]), limit);
    assert.equal(lstatSync(file).size, maxRunFileBytes + 1, 'nothing cut off or appended');
  });

  it('lists a run whose journal is a dangling link by the link itself, and the other runs with it (the listing failed as a whole)', async () => {
    symlinkSync(join(root.path, 'gone.jsonl'), join(runs(), 'r1.jsonl'));
    writeFileSync(join(runs(), 'r2.jsonl'), journalText);
    assert.deepEqual((await createFileRunStore(runs()).list()).map((run) => run.runId).sort(), ['r1', 'r2']);
  });

  it('attack: a snapshot linked to a file outside is not read, and the next snapshot replaces the link, not that file', async () => {
    writeFileSync(join(runs(), 'r1.jsonl'), journalText);
    const outside = join(root.path, 'snapshot.json');
    const forged = JSON.stringify({ seq: 99, time: 99, state: { forged: true } });
    writeFileSync(outside, forged);
    symlinkSync(outside, join(runs(), 'r1.snapshot.json'));
    const store = createFileRunStore(runs());
    assert.equal((await store.load('r1'))?.snapshot, undefined, 'the journal has every event: a snapshot that is no plain file is left out');
    await store.writeSnapshot('r1', { seq: 1, time: 1, state: {} });
    assert.equal(readFileSync(outside, 'utf8'), forged);
    assert.ok(lstatSync(join(runs(), 'r1.snapshot.json')).isFile());
    assert.equal((await store.load('r1'))?.snapshot?.seq, 1);
  });

  it("attack: a snapshot's temporary file committed as a link to a file outside is replaced, not written through", async () => {
    const outside = join(root.path, 'bashrc');
    writeFileSync(outside, '# mine\n');
    symlinkSync(outside, join(runs(), `r1.snapshot.json.${process.pid}.tmp`));
    const store = createFileRunStore(runs());
    await store.writeSnapshot('r1', { seq: 1, time: 1, state: {} });
    assert.equal(readFileSync(outside, 'utf8'), '# mine\n');
    await store.append('r1', [entry(1)]);
    assert.equal((await store.load('r1'))?.snapshot?.seq, 1);
  });

  it('appends to, cuts the torn tail of and reads a plain journal as before', async () => {
    const store = createFileRunStore(runs(), { lockRuns: true });
    await store.append('r1', [entry(1)]);
    writeFileSync(join(runs(), 'r1.jsonl'), `${journalText}{"type":"st`);
    await createFileRunStore(runs()).append('r1', [entry(2)]);
    assert.deepEqual((await store.load('r1'))?.entries.map((found) => found.seq), [1, 2]);
  });
});
