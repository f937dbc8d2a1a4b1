import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { constants, linkSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NotPlainFileError, openPlainFile, readBoundedText, readPlainFile } from '../../../src/node/readBoundedText';
import { temporaryDirectory } from '../../support/temporaryDirectory';

describe('readPlainFile and openPlainFile (files Task Planner keeps for itself)', () => {
  const dir = temporaryDirectory('plain-file-');

  it('reads a plain file whole, and gives undefined for one larger than the bound without reading past it', async () => {
    writeFileSync(join(dir.path, 'a.jsonl'), 'one\ntwo\n');
    assert.equal((await readPlainFile(join(dir.path, 'a.jsonl'), 100))?.toString('utf8'), 'one\ntwo\n');
    assert.equal(await readPlainFile(join(dir.path, 'a.jsonl'), 7), undefined);
    await assert.rejects(readPlainFile(join(dir.path, 'missing.jsonl'), 100), { code: 'ENOENT' });
  });

  it('attack: refuses a link (to a file outside), naming it and its target and saying to remove it, and writes nothing through it', async () => {
    const outside = join(dir.path, 'outside.txt');
    writeFileSync(outside, 'keep\n');
    symlinkSync(outside, join(dir.path, 'linked.jsonl'));
    const refusal = (error: unknown): boolean => {
      assert.ok(error instanceof NotPlainFileError);
      assert.match(error.message, /linked\.jsonl is a link \(to .*outside\.txt\): .*Nothing was read from it or written to it; remove it and try again\.$/);
      return true;
    };
    await assert.rejects(readPlainFile(join(dir.path, 'linked.jsonl'), 100), refusal);
    await assert.rejects(openPlainFile(join(dir.path, 'linked.jsonl'), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT), refusal);
    assert.equal(readFileSync(outside, 'utf8'), 'keep\n');
  });

  it('attack: refuses a file with a second name (a hard link), to read or to append', async () => {
    writeFileSync(join(dir.path, 'elsewhere.txt'), 'keep\n');
    linkSync(join(dir.path, 'elsewhere.txt'), join(dir.path, 'hard.jsonl'));
    await assert.rejects(readPlainFile(join(dir.path, 'hard.jsonl'), 100), /hard\.jsonl is a file with 2 names \(hard links/);
    await assert.rejects(openPlainFile(join(dir.path, 'hard.jsonl'), constants.O_WRONLY | constants.O_APPEND), NotPlainFileError);
    assert.equal(readFileSync(join(dir.path, 'elsewhere.txt'), 'utf8'), 'keep\n');
  });

  it('attack: refuses a named pipe at once, to read or to append, without waiting for the other end', async function () {
    if (process.platform === 'win32') this.skip();
    const fifo = join(dir.path, 'pipe.jsonl');
    spawnSync('mkfifo', [fifo]);
    await assert.rejects(readPlainFile(fifo, 100), /pipe\.jsonl is a pipe: /);
    // No reader: refused by the system (ENXIO) rather than waited on, or by what it is.
    await assert.rejects(openPlainFile(fifo, constants.O_WRONLY | constants.O_APPEND));
    await assert.rejects(openPlainFile(fifo, constants.O_RDWR), /is a pipe/);
  });

  it('attack: refuses a device, named or linked to (/dev/zero), without reading from it', async function () {
    if (process.platform === 'win32') this.skip();
    await assert.rejects(readPlainFile('/dev/zero', 100), /^NotPlainFileError: \/dev\/zero is a device: /);
    symlinkSync('/dev/zero', join(dir.path, 'zero.jsonl'));
    await assert.rejects(readPlainFile(join(dir.path, 'zero.jsonl'), 100), /zero\.jsonl is a link \(to \/dev\/zero\)/);
  });

  it('leaves readBoundedText as it was: a file the user named is read through a link', async () => {
    writeFileSync(join(dir.path, 'plan.json'), '{}');
    symlinkSync(join(dir.path, 'plan.json'), join(dir.path, 'mine.json'));
    assert.equal(await readBoundedText(join(dir.path, 'mine.json'), 10), '{}');
    assert.equal(await readBoundedText(join(dir.path, 'mine.json'), 1), undefined);
  });
});
