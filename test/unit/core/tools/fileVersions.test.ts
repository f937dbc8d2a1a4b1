import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { WorkspaceFs } from '../../../../src/core/workspacePorts';
import { expectedOf, maxChangedFileBytes, readCurrent, readVersion, sha256, textOf, versionOf } from '../../../../src/core/tools/fileVersions';
import { isWorkspaceError, WorkspaceError } from '../../../../src/core/workspace/workspaceError';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

const hex = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

/** A memory workspace whose files are given as bytes (not always UTF-8), with permission bits. */
function byteWorkspace(files: Record<string, Uint8Array>, mode?: number): WorkspaceFs {
  const memory = createMemoryWorkspace();
  return {
    ...memory,
    stat: async (path) => (files[path] === undefined ? undefined : { type: 'file', size: files[path].length, mtimeMs: 0, ...(mode === undefined ? {} : { mode }) }),
    readBytes: async (path) => {
      const bytes = files[path];
      if (bytes === undefined) throw new WorkspaceError('not_found', path, `File not found: ${path}`);
      return bytes;
    },
    readText: async () => assert.fail('a file with bytes is read as bytes'),
  };
}

describe('file versions', () => {
  it('attack: refuses a file larger than the file tools change before reading it, saying so (a 600 MB edit read it all, then said "not UTF-8")', async () => {
    const size = maxChangedFileBytes + 1;
    const asked: (number | undefined)[] = [];
    const huge: WorkspaceFs = {
      ...createMemoryWorkspace(),
      stat: async () => ({ type: 'file', size, mtimeMs: 0 }),
      readBytes: async (path, _signal, options) => {
        asked.push(options?.maxBytes);
        if (options?.maxBytes !== undefined && size > options.maxBytes) throw new WorkspaceError('too_large', path, 'too large');
        return new Uint8Array(0);
      },
    };
    await assert.rejects(readVersion({ workspace: huge }, 'big.log', neverAborted), (error: unknown) => {
      assert.ok(isWorkspaceError(error, 'too_large'));
      assert.equal(error.message, 'big.log is larger than the file tools change (64 MB), so it was not read or changed; change it with a command.');
      return true;
    });
    assert.deepEqual(asked, [maxChangedFileBytes]);
  });

  it('names a text by the sha256 of its UTF-8 bytes', () => {
    assert.equal(sha256('héllo'), hex(Buffer.from('héllo', 'utf8')));
    assert.notEqual(sha256('a'), sha256('b'));
  });

  it('keeps the permission bits of a version where known, even 0, and nothing where unknown', () => {
    assert.deepEqual(versionOf(undefined), { exists: false });
    assert.deepEqual(versionOf('x'), { exists: true, text: 'x', sha256: sha256('x') });
    assert.deepEqual(versionOf('x', 0o750), { exists: true, text: 'x', sha256: sha256('x'), mode: 0o750 });
    assert.deepEqual(versionOf('x', 0), { exists: true, text: 'x', sha256: sha256('x'), mode: 0 });
  });

  it('expects of a change exactly the version it was computed from, text left out', () => {
    assert.deepEqual(expectedOf({ exists: false }), { exists: false });
    assert.deepEqual(expectedOf(versionOf('v1', 0o644)), { exists: true, sha256: sha256('v1') });
    assert.equal(textOf(versionOf('v1')), 'v1');
    assert.equal(textOf(versionOf('')), '');
    assert.equal(textOf({ exists: false }), undefined);
  });

  it('reads an absent file as absent, and a file as its text, hash and mode', async () => {
    const ctx = makeToolContext({ workspace: byteWorkspace({ 'run.sh': Buffer.from('#!/bin/sh\n') }, 0o750) });
    assert.deepEqual(await readVersion(ctx, 'missing.txt', neverAborted), { exists: false });
    assert.deepEqual(await readVersion(ctx, 'run.sh', neverAborted), { exists: true, text: '#!/bin/sh\n', sha256: sha256('#!/bin/sh\n'), mode: 0o750 });
    assert.equal(await readCurrent(ctx, 'run.sh', neverAborted), '#!/bin/sh\n');
    assert.equal(await readCurrent(ctx, 'missing.txt', neverAborted), undefined);
  });

  it('reads through readText where the workspace cannot read bytes', async () => {
    const memory = createMemoryWorkspace({ 'a.txt': 'plain' });
    const textOnly: WorkspaceFs = { ...memory, readBytes: undefined };
    assert.deepEqual(await readVersion(makeToolContext({ workspace: textOnly }), 'a.txt', neverAborted), versionOf('plain'));
  });

  it('refuses a directory as a file', async () => {
    const memory = createMemoryWorkspace({ 'dir/a.txt': 'a' });
    const neverRead = async (): Promise<never> => assert.fail('a directory is refused before anything is read');
    const ctx = makeToolContext({ workspace: { ...memory, readBytes: neverRead, readText: neverRead } });
    await assert.rejects(readVersion(ctx, 'dir', neverAborted), (error: unknown) => isWorkspaceError(error, 'is_directory') && error.message === 'dir is a directory, not a file');
  });

  it('refuses bytes that are not UTF-8 instead of replacing them, and keeps a BOM so the text encodes back to the same bytes', async () => {
    const latin1 = Buffer.from('caf\xe9\n', 'latin1');
    const bom = Buffer.from('\ufeffhead\r\n', 'utf8');
    const ctx = makeToolContext({ workspace: byteWorkspace({ 'l1.txt': latin1, 'bom.txt': bom }) });
    await assert.rejects(readVersion(ctx, 'l1.txt', neverAborted), (error: unknown) => isWorkspaceError(error, 'not_utf8') && /l1\.txt is not UTF-8 text/.test(error.message));
    const version = await readVersion(ctx, 'bom.txt', neverAborted);
    assert.equal(version.exists && version.text, '\ufeffhead\r\n');
    assert.equal(version.exists && version.sha256, hex(bom));
  });

  it('takes a file that vanished between the stat and the read for absent, but never one still there', async () => {
    const memory = createMemoryWorkspace({ 'gone.txt': 'x', 'there.txt': 'y' });
    const notFound = async (path: string): Promise<never> => {
      if (path === 'gone.txt') await memory.delete(path);
      throw new WorkspaceError('not_found', path, `File not found: ${path}`);
    };
    const ctx = makeToolContext({ workspace: { ...memory, readBytes: notFound, readText: notFound } });
    assert.deepEqual(await readVersion(ctx, 'gone.txt', neverAborted), { exists: false });
    await assert.rejects(readVersion(ctx, 'there.txt', neverAborted), (error: unknown) => error instanceof Error && /there\.txt exists but could not be read; nothing was written/.test(error.message) && isWorkspaceError(error.cause, 'not_found'));
  });

  it('passes on any other read failure', async () => {
    const memory = createMemoryWorkspace({ 'a.txt': 'x' });
    const denied = async (): Promise<never> => {
      throw new Error('EACCES: permission denied');
    };
    await assert.rejects(readVersion(makeToolContext({ workspace: { ...memory, readBytes: denied, readText: denied } }), 'a.txt', neverAborted), /EACCES/);
  });
});
