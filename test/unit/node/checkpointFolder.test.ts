import assert from 'node:assert/strict';
import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCheckpointFolder } from '../../../src/node/checkpointFolder';
import { NotPlainFileError } from '../../../src/node/readBoundedText';
import { temporaryDirectory } from '../../support/temporaryDirectory';
import { plantedFifos } from '../../support/plantedFifos';

// An outside attacker's find: a repository committed <run>.checkpoints.json in .task-planner/runs as a link to ~/.bashrc;
// `task-planner resume <run> --approve …` appended checkpoint records (plan-controlled paths, "$(…)" included) to it.
describe('createCheckpointFolder over files a repository committed in its folder', () => {
  const root = temporaryDirectory('checkpoint-folder-');
  const runs = (): string => join(root.path, 'ws', '.task-planner', 'runs');
  const change = { runId: 'r1', stepId: 'w', path: 'notes$(cd;touch PWNED).txt', operation: 'write' as const, before: { exists: false as const }, afterSha256: 'abc' };
  const fifos = plantedFifos();
  beforeEach(() => mkdirSync(runs(), { recursive: true }));
  afterEach(() => fifos.releaseAll());

  it('keeps one file per run beside the journals, and reads it back', async () => {
    const folder = createCheckpointFolder(runs());
    await folder.record(change);
    await folder.record({ ...change, runId: 'r2' });
    assert.deepEqual((await createCheckpointFolder(runs()).list('r1')).map((checkpoint) => [checkpoint.seq, checkpoint.path]), [[1, change.path]]);
    assert.deepEqual(readdirSync(runs()).sort(), ['.gitignore', 'r1.checkpoints.json', 'r2.checkpoints.json']);
  });

  it('attack: a checkpoint file linked to a file outside (a shell rc file) is never read or appended to: the change is refused, naming it', async () => {
    const bashrc = join(root.path, 'home', '.bashrc');
    mkdirSync(join(root.path, 'home'));
    writeFileSync(bashrc, '# victim bashrc\n');
    symlinkSync('../../../home/.bashrc', join(runs(), 'r1.checkpoints.json'));
    const folder = createCheckpointFolder(runs());
    const refusal = (error: unknown): boolean => {
      assert.ok(error instanceof NotPlainFileError);
      assert.match(error.message, /r1\.checkpoints\.json is a link \(to \.\.\/\.\.\/\.\.\/home\/\.bashrc\): .*remove it and try again\.$/);
      return true;
    };
    await assert.rejects(folder.record(change), refusal);
    await assert.rejects(folder.list('r1'), refusal);
    assert.equal(readFileSync(bashrc, 'utf8'), '# victim bashrc\n');
  });

  it('attack: a checkpoint file with a second name (a hard link to a file elsewhere) is neither read nor appended to', async () => {
    const outside = join(root.path, 'profile');
    writeFileSync(outside, '# mine\n');
    linkSync(outside, join(runs(), 'r1.checkpoints.json'));
    await assert.rejects(createCheckpointFolder(runs()).record(change), /r1\.checkpoints\.json is a file with 2 names/);
    assert.equal(readFileSync(outside, 'utf8'), '# mine\n');
  });

  it('attack: a checkpoint file that is a named pipe is refused at once, not waited on for ever', async function () {
    if (process.platform === 'win32') this.skip();
    this.timeout(10_000);
    const fifo = join(runs(), 'r1.checkpoints.json');
    fifos.make(fifo);
    await assert.rejects(createCheckpointFolder(runs()).list('r1'), /r1\.checkpoints\.json is a pipe: /);
  });

  it("attack: the temporary file of an older version's checkpoint array, committed as a link to a file outside, is replaced, not written through", async () => {
    const outside = join(root.path, 'bashrc');
    writeFileSync(outside, '# mine\n');
    writeFileSync(join(runs(), 'r1.checkpoints.json'), JSON.stringify([{ ...change, seq: 1, state: 'applied' }]));
    symlinkSync(outside, join(runs(), 'r1.checkpoints.json.tmp'));
    const folder = createCheckpointFolder(runs());
    await folder.record({ ...change, path: 'b.txt' });
    assert.equal(readFileSync(outside, 'utf8'), '# mine\n');
    assert.ok(lstatSync(join(runs(), 'r1.checkpoints.json')).isFile());
    // The older version's record is kept, unsealed: not listed (Undo does not write it back), but not lost either.
    const reloaded = createCheckpointFolder(runs());
    assert.deepEqual((await reloaded.list('r1')).map((checkpoint) => checkpoint.path), ['b.txt']);
    assert.deepEqual((await reloaded.unvouched?.('r1'))?.map((checkpoint) => checkpoint.path), [change.path]);
  });
});
