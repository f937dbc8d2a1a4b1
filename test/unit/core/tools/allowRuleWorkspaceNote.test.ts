import assert from 'node:assert/strict';
import { allowRuleWorkspaceNote } from '../../../../src/core/tools/allowRuleWorkspaceNote';
import { describeAllowRule } from '../../../../src/core/tools/commandAllowRules';

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

  it('names a single file alone, at most three, each once whatever its case', () => {
    assert.equal(
      allowRuleWorkspaceNote(['tsc', '-p', '.']),
      '"tsc -p ." runs what the workspace\'s own tsconfig.json say when it runs (a repository\'s scripts and build files are its own code): ' +
        'allow it only in a project you trust. A run that changes one of them asks again before the command.',
    );
    assert.match(allowRuleWorkspaceNote(['ninja']) ?? '', /^"ninja" runs what the workspace's own build\.ninja say when it runs/);
    assert.match(allowRuleWorkspaceNote(['make']) ?? '', /^"make" runs what the workspace's own Makefile and GNUmakefile say when it runs/);
    assert.match(allowRuleWorkspaceNote(['cargo', 'test']) ?? '', /^"cargo test" runs what the workspace's own \.cargo\/config\.toml, \.cargo\/config and rust-toolchain say when it runs/);
    assert.match(allowRuleWorkspaceNote(['C:\\tools\\NPM.CMD', 'ci']) ?? '', /own package\.json and \.npmrc say/);
  });

  it("takes only a program that begins with ./ or ../ (either slash) for the workspace's own file", () => {
    const own = (program: string): string => `"${describeAllowRule([program, 'x'])}" runs the workspace's own file ${program}, whatever it holds when it runs: allow it only in a project you trust.`;
    for (const program of ['./run.sh', '../run.sh', '.\\run.bat', '..\\run.bat', './npm', '../tools/make']) {
      assert.equal(allowRuleWorkspaceNote([program, 'x']), own(program), program);
    }
    // An installed program whose path only passes through ./ or ../ is the program its name says.
    assert.match(allowRuleWorkspaceNote(['/usr/local/../bin/npm', 'test']) ?? '', /runs what the workspace's own package\.json and \.npmrc say/);
    assert.match(allowRuleWorkspaceNote(['/opt/./bin/make']) ?? '', /runs what the workspace's own Makefile/);
    assert.equal(allowRuleWorkspaceNote(['/opt/../bin/ls']), undefined);
    assert.equal(allowRuleWorkspaceNote(['.../run.sh']), undefined);
    assert.equal(allowRuleWorkspaceNote(['.run.sh']), undefined);
  });

  it('says of git, whatever its path, that a repository\'s own programs ask first', () => {
    const note = (shown: string): string =>
      `"${shown}" runs the git on your PATH; what a repository's own git configuration names for it (a filter, a diff driver, a hook) asks first.`;
    assert.equal(allowRuleWorkspaceNote(['git', 'status']), note('git status'));
    assert.equal(allowRuleWorkspaceNote(['/usr/bin/git', 'log']), note('/usr/bin/git log'));
  });

  it('says nothing of a program no file of the workspace steers', () => {
    assert.equal(allowRuleWorkspaceNote(['ls', '-la']), undefined);
    assert.equal(allowRuleWorkspaceNote([]), undefined);
  });
});
