import assert from 'node:assert/strict';
import { isProtectedPath, isProtectedSegment, protectedPlaceReason } from '../../../../src/core/workspace/protectedPlaces';

describe('protectedPlaces', () => {
  it('protects .git in any letter case, and nothing that only looks like it', () => {
    assert.deepEqual(['.git', '.GIT', '.Git'].map(isProtectedSegment), [true, true, true]);
    assert.deepEqual(['.github', 'git', '.gitignore', 'x.git', '.gi', ''].map(isProtectedSegment), [false, false, false, false, false, false]);
  });

  it('protects a path with .git at any depth, and only those', () => {
    assert.deepEqual(['.git', '.git/config', 'sub/.GIT/hooks/pre-commit', 'vendor/lib/.git/HEAD'].map(isProtectedPath), [true, true, true, true]);
    assert.deepEqual(['', 'src/a.ts', 'docs/.github/workflows/ci.yml', 'a.git/b', 'x/.gitignore'].map(isProtectedPath), [false, false, false, false, false]);
  });

  it('says where a refused change leads and why', () => {
    assert.equal(protectedPlaceReason('.git/config'), 'it leads to .git/config, inside .git, which git manages: tools never change files there');
  });
});
