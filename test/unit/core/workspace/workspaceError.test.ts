import assert from 'node:assert/strict';
import { PathRefusedError } from '../../../../src/core/workspace/resolveInRoot';
import { hardLinkError, isWorkspaceError, WorkspaceError } from '../../../../src/core/workspace/workspaceError';

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
});
