import assert from 'node:assert/strict';
import { PathRefusedError } from '../../../../src/core/workspace/resolveInRoot';
import { asWorkspaceFailure, hardLinkError, isPermissionDenied, isWorkspaceError, WorkspaceError } from '../../../../src/core/workspace/workspaceError';

describe('workspaceError', () => {
  it('tells a workspace error, of any code or of one code, from anything else', () => {
    const missing = new WorkspaceError('not_found', 'a.txt', 'File not found: a.txt');
    assert.equal(isWorkspaceError(missing), true);
    assert.equal(isWorkspaceError(missing, 'not_found'), true);
    assert.equal(isWorkspaceError(missing, 'too_large'), false);
    assert.equal(isWorkspaceError(new PathRefusedError('../a', 'it climbs out'), 'not_found'), false);
    assert.equal(isWorkspaceError(Object.assign(new Error('File not found'), { code: 'not_found' }), 'not_found'), false);
    assert.equal(isWorkspaceError(undefined), false);
    assert.deepEqual([missing.name, missing.code, missing.path, missing.message], ['WorkspaceError', 'not_found', 'a.txt', 'File not found: a.txt']);
  });

  it('says why a hard-linked file is refused and how to allow it', () => {
    const error = hardLinkError('docs/a.txt', './docs/a.txt', 3);
    assert.deepEqual([error.code, error.path], ['hard_link', './docs/a.txt']);
    assert.match(error.message, /^docs\/a\.txt is a hard link: the same file has 3 names, and another one may be outside the workspace/);
    assert.match(error.message, /taskPlanner\.workspace\.allowHardLinks, or --allow-hard-links on the command line/);
  });

  const failure = (code: unknown, message = `${String(code)}: failed, open '/proc/self/fd/12/a.txt'`): Error => Object.assign(new Error(message), { code });

  it('says in words why the file system refused or failed, naming the path the step gave and keeping the failure as the cause', () => {
    const reasons: [string, string][] = [
      ['ENOSPC', 'the disk is full'],
      ['EDQUOT', 'the disk quota is used up'],
      ['EROFS', 'the file system is read-only'],
      ['EIO', 'an input/output error'],
      ['EMFILE', 'too many files are open'],
      ['ENFILE', 'too many files are open'],
      ['EBUSY', 'it is busy'],
      ['ETXTBSY', 'it is busy'],
      ['ENAMETOOLONG', 'a name on its path is too long'],
      ['EFBIG', 'it is too large for the file system'],
      ['ESTALE', 'the network file system lost it'],
      ['Unavailable', 'the file system is unavailable'],
      ['EXDEV', 'a file system error'],
      ['E2BIG', 'a file system error'],
    ];
    for (const [code, reason] of reasons) {
      const cause = failure(code);
      const error = asWorkspaceFailure(cause, 'src/a.txt', 'changed');
      assert.ok(isWorkspaceError(error, 'io_error'), code);
      assert.equal(error.message, `src/a.txt cannot be changed: ${reason} (${code}).`);
      assert.deepEqual([error.path, error.cause], ['src/a.txt', cause]);
    }
    for (const code of ['EACCES', 'EPERM', 'NoPermissions']) {
      const cause = failure(code);
      const error = asWorkspaceFailure(cause, '', 'listed');
      assert.ok(isWorkspaceError(error, 'no_permission'), code);
      assert.equal(error.message, 'the workspace folder cannot be listed: permission denied. Check the permissions of it and of the folders above it.');
      assert.deepEqual([error.path, error.cause], ['', cause]);
    }
    assert.equal((asWorkspaceFailure(failure('EACCES'), 'b.txt', 'read') as Error).message.startsWith('b.txt cannot be read: permission denied.'), true);
  });

  it('passes on as it is what is no file system failure: a workspace error, a refusal, a cancellation, a bug, another code', () => {
    const passedOn = [
      new WorkspaceError('not_found', 'a.txt', 'File not found: a.txt'),
      new PathRefusedError('../a', 'it climbs out'),
      new DOMException('This operation was aborted', 'AbortError'),
      new TypeError('a bug'),
      failure('ERR_INVALID_ARG_TYPE'),
      failure('enospc'),
      failure('XEIO'),
      failure('EIO!'),
      failure(5),
      'a string',
      undefined,
      null,
    ];
    for (const error of passedOn) assert.equal(asWorkspaceFailure(error, 'a.txt', 'read'), error);
  });

  it('tells a refused access from other failures', () => {
    assert.deepEqual(
      ['EACCES', 'EPERM', 'NoPermissions', 'ENOENT', 'EIO', 'eacces', ''].map((code) => isPermissionDenied(failure(code))),
      [true, true, true, false, false, false, false],
    );
    assert.equal(isPermissionDenied(undefined), false);
    assert.equal(isPermissionDenied(null), false);
    assert.equal(isPermissionDenied({ code: 13 }), false);
  });
});
