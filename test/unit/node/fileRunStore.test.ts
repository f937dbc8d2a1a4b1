import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { appendFile, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJournalWriter } from '../../../src/core/engine/journalWriter';
import { initialRunState } from '../../../src/core/engine/reduceRunEvent';
import type { RunEvent } from '../../../src/core/engine/runEvents';
import { createFileRunStore } from '../../../src/node/fileRunStore';
import { describeRunStoreDeleteConformance } from '../conformance/runStoreConformance';

describeRunStoreDeleteConformance('file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'runstore-delete-'));
  return { store: createFileRunStore(join(dir, 'runs')), dispose: async () => rmSync(dir, { recursive: true, force: true }) };
});

describe('createFileRunStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'runstore-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const entry = (seq: number) => ({ type: 'step_ready', runId: 'r1', seq, time: seq, stepId: `s${seq}` });

  it('appends JSON lines in order, keeps the newest snapshot and lists runs', async () => {
    const store = createFileRunStore(join(dir, 'runs'));
    await store.append('r1', [entry(1), entry(2)]);
    await store.append('r1', [entry(3)]);
    await store.writeSnapshot('r1', { seq: 2, time: 2, state: { a: 1 } });
    await store.writeSnapshot('r1', { seq: 3, time: 3, state: { a: 2 } });
    const loaded = await store.load('r1');
    assert.deepEqual(loaded?.entries.map((item) => item.seq), [1, 2, 3]);
    assert.deepEqual(loaded?.lines, [1, 2, 3], 'the line of each entry, for messages');
    assert.deepEqual(loaded?.snapshot, { seq: 3, time: 3, state: { a: 2 } });
    assert.equal(loaded?.tornLine, undefined);
    assert.deepEqual((await store.list()).map((run) => run.runId), ['r1']);
    assert.equal(await store.load('other'), undefined);
  });

  it("sync flushes the journal's data to the disk (and its folder's entry, once), and a run with no journal yet has nothing to flush", async () => {
    const store = createFileRunStore(join(dir, 'runs'));
    const probe = await open(join(dir, 'probe'), 'w');
    const handles = Object.getPrototypeOf(probe) as { datasync: () => Promise<void>; sync: () => Promise<void> };
    await probe.close();
    const { datasync, sync } = handles;
    const flushed: string[] = [];
    handles.datasync = async function (this: unknown) {
      flushed.push(`data:${readFileSync(join(dir, 'runs', 'r1.jsonl'), 'utf8').trim().split('\n').length} lines`);
      return datasync.call(this);
    };
    handles.sync = async function () {
      flushed.push('folder');
      return sync.call(this);
    };
    try {
      await store.sync('r1');
      assert.deepEqual(flushed, [], 'nothing journaled: nothing to flush, no error');
      await store.append('r1', [entry(1), entry(2)]);
      await store.sync('r1');
      await store.append('r1', [entry(3)]);
      await store.sync('r1');
    } finally {
      handles.datasync = datasync;
      handles.sync = sync;
    }
    assert.deepEqual(flushed, ['data:2 lines', 'folder', 'data:3 lines']);
  });

  it('a snapshot goes to the disk after the journal it claims, and its own bytes before its name (a power loss left one ahead of its journal)', async () => {
    const store = createFileRunStore(join(dir, 'runs'));
    await store.append('r1', [entry(1), entry(2)]);
    const probe = await open(join(dir, 'probe'), 'w');
    const handles = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
    await probe.close();
    const { datasync } = handles;
    const seen: string[] = [];
    handles.datasync = async function (this: unknown) {
      seen.push(existsSync(join(dir, 'runs', 'r1.snapshot.json')) ? 'snapshot there' : 'no snapshot yet');
      return datasync.call(this);
    };
    try {
      await store.writeSnapshot('r1', { seq: 2, time: 2, state: { a: 1 } });
    } finally {
      handles.datasync = datasync;
    }
    assert.deepEqual(seen, ['no snapshot yet', 'no snapshot yet'], 'the journal, then the temporary snapshot, before the rename');
  });

  it("removes the temporary snapshots a killed process left of a run when the run is written again, and no running process's", async () => {
    const runs = join(dir, 'runs');
    mkdirSync(runs, { recursive: true });
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      for (const name of [`r1.snapshot.json.${dead}.tmp`, `r1.snapshot.json.${live.pid}.tmp`, `r2.snapshot.json.${dead}.tmp`, 'r1.snapshot.json.x.tmp']) writeFileSync(join(runs, name), '{}');
      await createFileRunStore(runs).append('r1', [entry(1)]);
      assert.deepEqual(readdirSync(runs).filter((name) => name.endsWith('.tmp')).sort(), [`r1.snapshot.json.${live.pid}.tmp`, 'r1.snapshot.json.x.tmp', `r2.snapshot.json.${dead}.tmp`].sort());
    } finally {
      live.kill('SIGKILL');
    }
  });

  it('reports a torn last line, then cuts it off before the next append', async () => {
    const store = createFileRunStore(dir);
    await store.append('r1', [entry(1)]);
    appendFileSync(join(dir, 'r1.jsonl'), '{"type":"step_re');
    const loaded = await store.load('r1');
    assert.deepEqual(loaded?.tornLine, { lineNumber: 2, text: '{"type":"step_re' });
    assert.equal(loaded?.entries.length, 1);
    await createFileRunStore(dir).append('r1', [entry(2)]);
    assert.equal(readFileSync(join(dir, 'r1.jsonl'), 'utf8'), `${JSON.stringify(entry(1))}\n${JSON.stringify(entry(2))}\n`);
  });

  // An outside attacker's find (2026-12-01): an append the disk cut short was followed, once space came back, by the next
  // entry glued to it: the journal held a bad line in the middle, and the run could not be resumed.
  // And the second round: the run went on, later appends landed, and the journal had a gap it could not be resumed over.
  it('cuts back what an append that failed part way wrote, and writes its entries first with the next append: no entry glued, none missing', async () => {
    let failNext = false;
    const store = createFileRunStore(dir, {
      appendFile: async (file, text, encoding) => {
        if (!failNext) return appendFile(file, text, encoding);
        failNext = false;
        // One whole line and part of the next made it to the disk.
        await appendFile(file, String(text).slice(0, String(text).indexOf('\n') + 10), encoding);
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
    });
    await store.append('r1', [entry(1)]);
    failNext = true;
    await assert.rejects(store.append('r1', [entry(2), entry(3)]), /ENOSPC/);
    await store.append('r1', [entry(4)]);
    const loaded = await createFileRunStore(dir).load('r1');
    assert.deepEqual(loaded?.entries.map((found) => found.seq), [1, 2, 3, 4]);
    assert.equal(loaded?.tornLine, undefined);
  });

  // The retry at a run's end (JournalWriter.flush): its last batch refused by a disk that filled up, no later event to carry it.
  it("a run's last batch, refused once by a full disk, is written by the writer's flush with the final snapshot: the run can be resumed", async () => {
    let failNext = false;
    const store = createFileRunStore(dir, {
      appendFile: async (file, text, encoding) => {
        if (!failNext) return appendFile(file, text, encoding);
        failNext = false;
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
    });
    const writer = createJournalWriter(store, 'r1', 100, () => ({ ...initialRunState('r1'), lastSeq: 0 }));
    writer.append(entry(1) as unknown as RunEvent);
    await writer.flush();
    failNext = true;
    writer.append(entry(2) as unknown as RunEvent);
    await writer.flush({ ...initialRunState('r1'), lastSeq: 2, endedAt: 9 });
    assert.match(writer.failure ?? '', /ENOSPC/, 'the refusal is still reported');
    const loaded = await createFileRunStore(dir).load('r1');
    assert.deepEqual(loaded?.entries.map((found) => found.seq), [1, 2]);
    assert.equal(loaded?.snapshot?.seq, 2);
  });

  it('leaves no temporary file behind when a snapshot cannot be written (it would hold space a full disk needs)', async () => {
    const store = createFileRunStore(dir);
    await store.append('r1', [entry(1)]);
    // Something in the snapshot's place that a file cannot replace: the rename fails.
    mkdirSync(join(dir, 'r1.snapshot.json', 'inside'), { recursive: true });
    await assert.rejects(store.writeSnapshot('r1', { runId: 'r1' } as never));
    assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith('.tmp')), []);
  });

  it('takes garbage on the last line, ending in a line break, for a torn line: reported, then cut off before the next append', async () => {
    const store = createFileRunStore(dir);
    await store.append('r1', [entry(1)]);
    appendFileSync(join(dir, 'r1.jsonl'), 'garbage\n');
    const loaded = await store.load('r1');
    assert.deepEqual(loaded?.tornLine, { lineNumber: 2, text: 'garbage' });
    await createFileRunStore(dir).append('r1', [entry(2)]);
    assert.equal(readFileSync(join(dir, 'r1.jsonl'), 'utf8'), `${JSON.stringify(entry(1))}\n${JSON.stringify(entry(2))}\n`);
    assert.deepEqual((await store.load('r1'))?.entries.map((item) => item.seq), [1, 2]);
  });

  it('refuses damage before the last line and unsafe run ids', async () => {
    writeFileSync(join(dir, 'bad.jsonl'), `not json\n${JSON.stringify(entry(1))}\n`);
    await assert.rejects(createFileRunStore(dir).load('bad'), /Line 1 of the run journal .* is not valid JSON/);
    await assert.rejects(createFileRunStore(dir).append('../escape', []), /not a valid run id/);
  });

  it('deletes a run\'s files and nothing else, and refuses an unsafe run id', async () => {
    const store = createFileRunStore(dir);
    await store.append('r1', [entry(1)]);
    await store.writeSnapshot('r1', { seq: 1, time: 1, state: {} });
    writeFileSync(join(dir, 'notes.txt'), 'kept');
    await store.delete('r1');
    assert.deepEqual(readdirSync(dir), ['.gitignore', 'notes.txt']);
    await assert.rejects(store.delete('../notes'), /not a valid run id/);
    assert.deepEqual(readdirSync(dir), ['.gitignore', 'notes.txt']);
  });

  it('keeps its folder out of git with a .gitignore of *, and leaves one the user wrote as it is', async () => {
    const store = createFileRunStore(join(dir, 'runs'));
    await store.append('r1', [entry(1)]);
    assert.match(readFileSync(join(dir, 'runs', '.gitignore'), 'utf8'), /^\*$/m);
    writeFileSync(join(dir, 'runs', '.gitignore'), '# mine\n');
    await createFileRunStore(join(dir, 'runs')).append('r2', [{ ...entry(1), runId: 'r2' }]);
    assert.equal(readFileSync(join(dir, 'runs', '.gitignore'), 'utf8'), '# mine\n');
  });

  it('lists nothing for a missing directory', async () => {
    assert.deepEqual(await createFileRunStore(join(dir, 'none')).list(), []);
  });
});
