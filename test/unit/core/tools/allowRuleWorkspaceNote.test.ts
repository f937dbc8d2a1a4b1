import assert from 'node:assert/strict';
import { allowRuleWorkspaceNote } from '../../../../src/core/tools/allowRuleWorkspaceNote';

describe('allowRuleWorkspaceNote: what decides what an allowed command runs, said where the rule is given', () => {
  it("names the workspace's files that steer a package manager, make or a test runner", () => {
    assert.equal(
      allowRuleWorkspaceNote(['npm', 'test']),
      '"npm test" runs what the workspace\'s own package.json and .npmrc say when it runs (a repository\'s scripts and build files are its own code): ' +
        'allow it only in a project you trust. A run that changes one of them asks again before the command.',
    );
    assert.match(allowRuleWorkspaceNote(['make', 'check']) ?? '', /^"make check" runs what the workspace's own Makefile and GNUmakefile say/);
    assert.match(allowRuleWorkspaceNote(['/usr/bin/pytest', '...']) ?? '', /^"\/usr\/bin\/pytest \.\.\." runs what the workspace's own pytest\.ini, \.pytest\.ini and pyproject\.toml say/);
  });

  it("says a relative program is the workspace's own file, and that git asks for a repository's own programs", () => {
    assert.match(allowRuleWorkspaceNote(['./gradlew', 'test']) ?? '', /^"\.\/gradlew test" runs the workspace's own file \.\/gradlew/);
    assert.match(allowRuleWorkspaceNote(['git', 'status']) ?? '', /asks first\.$/);
  });

  it('says nothing of a program no file of the workspace steers', () => {
    assert.equal(allowRuleWorkspaceNote(['ls', '-la']), undefined);
    assert.equal(allowRuleWorkspaceNote([]), undefined);
  });
});
