import assert from 'node:assert/strict';
import { IgnoreRules } from '../../../../src/core/workspace/ignoreRules';

describe('IgnoreRules', () => {
  it('always skips .git and node_modules at any depth', () => {
    const rules = IgnoreRules.empty();
    assert.equal(rules.ignores('.git', true), true);
    assert.equal(rules.ignores('a/node_modules/x.js', false), true);
    assert.equal(rules.ignores('src/git.ts', false), false);
  });

  it('applies nested files relative to their directory, deeper ones overriding', () => {
    const rules = IgnoreRules.empty().withFile('', '*.log\nbuild/\n').withFile('pkg', '!keep.log\n/local.txt\n');
    assert.equal(rules.ignores('debug.log', false), true);
    assert.equal(rules.ignores('pkg/keep.log', false), false);
    assert.equal(rules.ignores('pkg/other.log', false), true);
    assert.equal(rules.ignores('pkg/local.txt', false), true);
    assert.equal(rules.ignores('local.txt', false), false);
    assert.equal(rules.ignores('pkg/sub/local.txt', false), false);
    assert.equal(rules.ignores('x/build', true), true);
    assert.equal(rules.ignores('x/build', false), false);
    assert.equal(rules.ignores('abcdkeep.log', false), true, 'a file of the root is not judged by pkg/.gitignore');
    assert.equal(rules.ignores('pkgx/keep.log', false), true, 'nor is a file of a sibling whose name starts the same');
  });
});
