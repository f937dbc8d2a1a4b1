import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { changedMeanwhileError, checkExpectedContent, isExpectedContent, sha256OfBytes } from '../../../../src/core/workspace/expectedContent';
import { isWorkspaceError } from '../../../../src/core/workspace/workspaceError';
import { confinedMemoryWorkspace, MemoryRawFs, type MemoryDirectory } from '../../../fakes/memoryRawFs';

const hashOf = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const changed = (error: unknown): boolean => isWorkspaceError(error, 'changed') && /^notes\/a\.txt changed after its new content was computed .*nothing was changed/.test(error.message);

/** A raw file system holding `/ws/notes/a.txt` ('v1'), and the handle of `/ws/notes`. */
function notes(): { raw: MemoryRawFs; folder: MemoryDirectory } {
  const raw = new MemoryRawFs('/ws');
  raw.file('/ws/notes/a.txt', 'v1');
  return { raw, folder: raw.node('/ws/notes') as MemoryDirectory };
}

describe('expected content (compare-and-swap of a change)', () => {
  it('names bytes by their sha256', () => {
    assert.equal(sha256OfBytes(new TextEncoder().encode('é✓')), hashOf('é✓'));
  });

  it('takes a version for the expected one only when both are absent, or both present with the same hash', () => {
    const v1 = { exists: true as const, sha256: hashOf('v1') };
    const v2 = { exists: true as const, sha256: hashOf('v2') };
    const absent = { exists: false as const };
    assert.equal(isExpectedContent(v1, v1), true);
    assert.equal(isExpectedContent(absent, absent), true);
    assert.equal(isExpectedContent(v1, v2), false);
    assert.equal(isExpectedContent(v1, absent), false);
    assert.equal(isExpectedContent(absent, v1), false);
  });

  it('refuses in words that say nothing was changed and what to do', () => {
    const error = changedMeanwhileError('./notes/a.txt', 'notes/a.txt');
    assert.ok(isWorkspaceError(error, 'changed'));
    assert.equal(error.path, './notes/a.txt');
    assert.match(error.message, /^notes\/a\.txt changed after its new content was computed \(another step, another run or another program wrote it\); nothing was changed\. Read it again/);
  });

  it('lets a change through over the version it was computed from, and refuses it over any other, closing what it opened', async () => {
    const { raw, folder } = notes();
    await checkExpectedContent(raw, folder, 'a.txt', { exists: true, sha256: hashOf('v1') }, 'notes/a.txt', 'notes/a.txt');
    await checkExpectedContent(raw, folder, 'new.txt', { exists: false }, 'notes/new.txt', 'notes/new.txt');
    await assert.rejects(checkExpectedContent(raw, folder, 'a.txt', { exists: true, sha256: hashOf('v0') }, 'notes/a.txt', 'notes/a.txt'), changed);
    await assert.rejects(checkExpectedContent(raw, folder, 'a.txt', { exists: false }, 'notes/a.txt', 'notes/a.txt'), changed);
    assert.equal(raw.open, 0);
  });

  it('checks nothing for a change that expects nothing', async () => {
    const raw = new MemoryRawFs('/ws', {
      before: () => {
        throw new Error('nothing is looked at');
      },
    });
    await checkExpectedContent(raw, { kind: 'directory', entries: new Map() }, 'a.txt', undefined, 'a.txt', 'a.txt');
  });

  it('never takes a link swapped in for the file for the expected version: not the file it leads to, not an absent file', async () => {
    const { raw, folder } = notes();
    raw.file('/ws/notes/target.txt', 'v1');
    raw.put('/ws/notes/a.txt', { kind: 'link', target: 'target.txt' });
    await assert.rejects(checkExpectedContent(raw, folder, 'a.txt', { exists: true, sha256: hashOf('v1') }, 'notes/a.txt', 'notes/a.txt'), changed);
    await assert.rejects(checkExpectedContent(raw, folder, 'a.txt', { exists: false }, 'notes/a.txt', 'notes/a.txt'), changed);
  });

  it('never takes a pipe, device or directory where the file was for the expected version, and closes it', async () => {
    const { raw, folder } = notes();
    raw.put('/ws/notes/a.txt', { kind: 'other' });
    await assert.rejects(checkExpectedContent(raw, folder, 'a.txt', { exists: false }, 'notes/a.txt', 'notes/a.txt'), changed);
    await assert.rejects(checkExpectedContent(raw, folder, 'a.txt', { exists: true, sha256: hashOf('') }, 'notes/a.txt', 'notes/a.txt'), changed);
    raw.put('/ws/notes/a.txt', { kind: 'directory', entries: new Map() });
    await assert.rejects(checkExpectedContent(raw, folder, 'a.txt', { exists: false }, 'notes/a.txt', 'notes/a.txt'), changed);
    assert.equal(raw.open, 0);
  });

  it('in the workspace: a write whose file was swapped for a link while it was being written is refused, and neither the link nor its target changes', async () => {
    const { raw, workspace } = confinedMemoryWorkspace({
      before: (operation) => {
        // Another program swaps a link in for the file after the new content was computed.
        if (operation === 'writeNewFile') raw.put('/ws/notes/a.txt', { kind: 'link', target: 'target.txt' });
      },
    });
    raw.file('/ws/notes/a.txt', 'v1');
    raw.file('/ws/notes/target.txt', 'v1');
    await assert.rejects(workspace.writeText('notes/a.txt', 'v2', undefined, { expected: { exists: true, sha256: hashOf('v1') } }), changed);
    assert.deepEqual(raw.node('/ws/notes/a.txt'), { kind: 'link', target: 'target.txt' });
    assert.equal(raw.text('/ws/notes/target.txt'), 'v1');
    assert.deepEqual([...(raw.node('/ws/notes') as MemoryDirectory).entries.keys()].sort(), ['a.txt', 'target.txt']);
  });
});
