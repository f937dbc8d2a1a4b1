import assert from 'node:assert/strict';
import { changeLockName, staleTemporaryFileMs, tempFilePrefix, temporaryFileName, temporaryFolder, temporaryFolderIgnore } from '../../../../src/core/workspace/atomicWrites';
import { confinedMemoryWorkspace, type MemoryRawFsOptions, namesIn, type RawOperation } from '../../../fakes/memoryRawFs';

const folder = `/ws/${temporaryFolder}`;
const failing = (fail: RawOperation, code: string, when: (name: string) => boolean = () => true): MemoryRawFsOptions => ({
  before: (operation, name) => {
    if (operation === fail && when(name)) throw Object.assign(new Error(`${code}: simulated ${operation} failure`), { code });
  },
});

describe('AtomicWrites: a file system that fails mid-write', () => {
  for (const [operation, code, reason] of [
    ['writeNewFile', 'ENOSPC', 'the disk is full'],
    ['rename', 'EIO', 'an input/output error'],
  ] as const) {
    it(`leaves the old file whole and no temporary file when ${operation} fails (${code}), saying why in the user's words`, async () => {
      const { raw, workspace } = confinedMemoryWorkspace(failing(operation, code, (name) => name !== '.gitignore'));
      raw.file('/ws/keep.txt', 'original');
      await assert.rejects(workspace.writeText('keep.txt', 'new'), (error: Error) => {
        assert.equal(error.message, `keep.txt cannot be changed: ${reason} (${code}).`);
        assert.match(String((error.cause as Error).message), new RegExp(`simulated ${operation} failure`));
        return true;
      });
      assert.equal(raw.text('/ws/keep.txt'), 'original');
      assert.deepEqual(namesIn(raw, folder), ['.gitignore']);
      assert.deepEqual(namesIn(raw, '/ws'), ['.task-planner', 'keep.txt']);
      assert.equal(raw.open, 0);
    });
  }

  it('removes a temporary file the file system left half-written when it failed', async () => {
    const { raw, workspace } = confinedMemoryWorkspace({
      before: (operation, name) => {
        if (operation !== 'writeNewFile' || name === '.gitignore') return;
        raw.file(`${folder}/${name}`, 'half of the ne');
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      },
    });
    raw.file('/ws/keep.txt', 'original');
    await assert.rejects(workspace.writeText('keep.txt', 'half of the new text'), /keep\.txt cannot be changed: the disk is full \(ENOSPC\)/);
    assert.equal(raw.text('/ws/keep.txt'), 'original');
    assert.deepEqual(namesIn(raw, folder), ['.gitignore']);
  });

  it('writes next to the target when the rename cannot cross file systems, keeping the mode and leaving no temporary file', async () => {
    const written: string[] = [];
    const { raw, workspace } = confinedMemoryWorkspace({
      before: (operation, name) => {
        // The change lock is no temporary file (see the change lock tests).
        if (operation === 'writeNewFile' && !changeLockName.test(name)) written.push(name);
        if (operation === 'rename' && written.length === 2) throw Object.assign(new Error('EXDEV: cross-device link'), { code: 'EXDEV' });
      },
    });
    raw.file('/ws/dir/keep.txt', 'original', { mode: 0o750 });
    await workspace.writeText('dir/keep.txt', 'new');
    assert.equal(raw.text('/ws/dir/keep.txt'), 'new');
    assert.equal((raw.node('/ws/dir/keep.txt') as { mode: number }).mode, 0o750);
    assert.deepEqual(namesIn(raw, '/ws/dir'), ['keep.txt']);
    assert.deepEqual(namesIn(raw, folder), ['.gitignore']);
    assert.equal(written[0], '.gitignore');
    assert.match(written[1] ?? '', temporaryFileName, 'first in the temporary folder, with a name the clean-up knows');
    assert.match(written[2] ?? '', new RegExp(`^${tempFilePrefix.replace(/\./g, '\\.')}[0-9a-f]{16}$`), 'then next to the target, with a name list_files hides');
  });

  it('gives every temporary file a new name', async () => {
    const written: string[] = [];
    const { workspace } = confinedMemoryWorkspace({ before: (operation, name) => void (operation === 'writeNewFile' && !changeLockName.test(name) && written.push(name)) });
    for (let index = 0; index < 5; index++) await workspace.writeText('a.txt', `${index}`);
    assert.equal(new Set(written.slice(1)).size, 5);
  });

  it('leaves the old file when aborted after the temporary file is written, and does not try again next to the target', async () => {
    const controller = new AbortController();
    const { raw, workspace } = confinedMemoryWorkspace({
      before: (operation, name) => {
        if (operation === 'writeNewFile' && name !== '.gitignore') controller.abort(new Error('cancelled by the user'));
      },
    });
    raw.file('/ws/keep.txt', 'original');
    await assert.rejects(workspace.writeText('keep.txt', 'new', controller.signal), /cancelled by the user/);
    assert.equal(raw.text('/ws/keep.txt'), 'original');
    assert.deepEqual(namesIn(raw, folder), ['.gitignore']);
    assert.deepEqual(namesIn(raw, '/ws'), ['.task-planner', 'keep.txt']);
  });

  it('writes next to the target when the temporary folder cannot be made', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/.task-planner', 'a file in the way');
    await workspace.writeText('dir/a.txt', 'a');
    assert.equal(raw.text('/ws/dir/a.txt'), 'a');
    assert.deepEqual(namesIn(raw, '/ws/dir'), ['a.txt']);
  });
});

describe('AtomicWrites: the temporary folder', () => {
  it('hides itself from git and removes only its own stale temporary files, at the first write', async () => {
    const now = 100 * staleTemporaryFileMs;
    const { raw, workspace } = confinedMemoryWorkspace({ now: () => now });
    const stray = (name: string, age: number): void => void raw.file(`${folder}/${name}`, name, { mtimeMs: now - age });
    stray('write-00112233445566aa', staleTemporaryFileMs + 1);
    stray('write-00112233445566bb', staleTemporaryFileMs);
    stray('notes.txt', now);
    stray('old-write-00112233445566cc', now);
    stray('write-00112233445566dd.bak', now);
    raw.put(`${folder}/write-00112233445566ee`, { kind: 'directory', entries: new Map() });
    // Change locks (and their takeover files) left by a crash go too; names that merely contain one stay.
    stray(`lock-${'a'.repeat(32)}`, staleTemporaryFileMs + 1);
    stray(`lock-${'b'.repeat(32)}.takeover`, staleTemporaryFileMs + 1);
    stray(`my-lock-${'c'.repeat(32)}`, staleTemporaryFileMs + 1);
    stray(`lock-${'d'.repeat(32)}.txt`, staleTemporaryFileMs + 1);
    await workspace.readText(`${temporaryFolder}/notes.txt`);
    assert.equal(raw.text(`${folder}/write-00112233445566aa`), 'write-00112233445566aa', 'reading removes nothing');
    await workspace.writeText('a.txt', 'a');
    assert.deepEqual(namesIn(raw, folder), [
      '.gitignore',
      `lock-${'d'.repeat(32)}.txt`,
      `my-lock-${'c'.repeat(32)}`,
      'notes.txt',
      'old-write-00112233445566cc',
      'write-00112233445566bb',
      'write-00112233445566dd.bak',
      'write-00112233445566ee',
    ]);
    assert.equal(raw.text(`${folder}/.gitignore`), temporaryFolderIgnore);
    stray('write-00112233445566ff', now);
    await workspace.writeText('b.txt', 'b');
    assert.ok(namesIn(raw, folder).includes('write-00112233445566ff'), 'only the first write of a workspace cleans up');
  });

  it('keeps a .gitignore someone wrote, and still writes when the folder cannot be read', async () => {
    const { raw, workspace } = confinedMemoryWorkspace(failing('readDirectory', 'EACCES'));
    raw.file(`${folder}/.gitignore`, 'mine\n');
    await workspace.writeText('a.txt', 'a');
    assert.equal(raw.text('/ws/a.txt'), 'a');
    assert.equal(raw.text(`${folder}/.gitignore`), 'mine\n');
  });

  it('rewrites the empty .gitignore a run killed between creating and writing it left, so git does not show its temporary files', async () => {
    // Found by killing the CLI mid-write: the empty file stayed, and every later leftover showed in git.
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file(`${folder}/.gitignore`, '');
    await workspace.writeText('a.txt', 'a');
    assert.equal(raw.text(`${folder}/.gitignore`), temporaryFolderIgnore);
    assert.deepEqual(namesIn(raw, folder), ['.gitignore']);
  });
});
