import assert from 'node:assert/strict';
import type { FileChangedInRun, WorkspaceFs } from '../../../../src/core/ports';
import { programName } from '../../../../src/core/tools/commandAllowRules';
import { changedDefiningFiles, commandDefiningFiles, filesChangedBySteps } from '../../../../src/core/tools/commandDefiningFiles';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';

const workspace = createMemoryWorkspace();

/** The paths of `changed` (each changed by step A) that define what `argv` in `cwd` does. */
async function found(argv: string[], changed: string[], cwd = '', fs: WorkspaceFs = workspace): Promise<string[]> {
  const changes: FileChangedInRun[] = changed.map((path) => ({ path, stepIds: ['A'] }));
  return (await changedDefiningFiles(fs, { argv, cwd }, changes)).map((change) => change.path);
}

/** A workspace whose links lead as `links` says (link → target, workspace-relative). */
function linked(links: Record<string, string>): WorkspaceFs {
  return {
    ...workspace,
    locate: async (path) => {
      for (const [link, target] of Object.entries(links)) {
        if (path === link) return target;
        if (path.startsWith(`${link}/`)) return `${target === '' ? '' : `${target}/`}${path.slice(link.length + 1)}`;
      }
      return path;
    },
  };
}

describe('commandDefiningFiles', () => {
  it('is keyed by program names as the allow rules compare them, each with at least one file', () => {
    for (const [name, files] of Object.entries(commandDefiningFiles)) {
      assert.equal(programName(name), name, `${name} is a program name as programName gives it`);
      const all = [...(files.here ?? []), ...(files.up ?? []), ...(files.anywhere ?? [])];
      assert.ok(all.length > 0, name);
      for (const file of all) assert.ok(!file.startsWith('/') && !file.startsWith('.\\') && !file.includes('..'), `${name}: ${file} is a plain relative name`);
    }
  });

  it('names the files a package manager, make, git, pytest, cargo and tsc read to decide what they run', () => {
    assert.ok(commandDefiningFiles.npm?.up?.includes('package.json'));
    assert.ok(commandDefiningFiles.npm?.up?.includes('.npmrc'));
    assert.deepEqual(commandDefiningFiles.make?.here, ['Makefile', 'makefile', 'GNUmakefile']);
    assert.ok(commandDefiningFiles.git?.anywhere?.includes('.gitattributes'));
    assert.ok(commandDefiningFiles.pytest?.anywhere?.includes('conftest.py'));
    assert.ok(commandDefiningFiles.cargo?.anywhere?.includes('build.rs'));
    assert.ok(commandDefiningFiles.tsc?.up?.includes('tsconfig.json'));
  });
});

describe('changedDefiningFiles', () => {
  it('finds nothing when the run changed nothing, or only files the command does not read to decide what it runs', async () => {
    assert.deepEqual(await found(['npm', 'test'], []), []);
    assert.deepEqual(await found(['npm', 'test'], ['src/index.ts', 'test/a.test.ts', 'README.md', 'Makefile']), []);
    assert.deepEqual(await found(['ls', '-la'], ['package.json', 'Makefile']), []);
  });

  it("finds a package manager's package.json and .npmrc in its folder or any folder above it, never below", async () => {
    assert.deepEqual(await found(['npm', 'test'], ['package.json', '.npmrc', 'sub/package.json']), ['package.json', '.npmrc']);
    assert.deepEqual(await found(['npm', 'test'], ['package.json', 'pkg/package.json', 'pkg/deeper/package.json'], 'pkg'), [
      'package.json',
      'pkg/package.json',
    ]);
    assert.deepEqual(await found(['yarn', 'test'], ['.yarnrc.yml']), ['.yarnrc.yml']);
    assert.deepEqual(await found(['pnpm', 'test'], ['.pnpmfile.cjs']), ['.pnpmfile.cjs']);
  });

  it("finds make's Makefile in its folder only", async () => {
    assert.deepEqual(await found(['make', 'check'], ['Makefile', 'sub/Makefile']), ['Makefile']);
    assert.deepEqual(await found(['make', 'check'], ['Makefile', 'sub/GNUmakefile'], 'sub'), ['sub/GNUmakefile']);
  });

  it('finds .gitattributes and conftest.py in any folder, and the configuration of the program a runner starts', async () => {
    assert.deepEqual(await found(['git', 'diff'], ['deep/down/.gitattributes', 'x.gitattributes']), ['deep/down/.gitattributes']);
    assert.deepEqual(await found(['git', 'commit', '-m', 'x'], ['.husky/pre-commit']), ['.husky/pre-commit']);
    assert.deepEqual(await found(['python3', '-m', 'pytest'], ['tests/unit/conftest.py', 'pyproject.toml', 'tests/test_a.py']), [
      'tests/unit/conftest.py',
      'pyproject.toml',
    ]);
    assert.deepEqual(await found(['uv', 'run', 'pytest'], ['pytest.ini']), ['pytest.ini']);
    assert.deepEqual(await found(['npx', '--yes', 'eslint', '.'], ['eslint.config.js', 'package.json']), ['eslint.config.js', 'package.json']);
    assert.deepEqual(await found(['cargo', 'test'], ['crates/a/build.rs', '.cargo/config.toml', 'src/lib.rs']), ['crates/a/build.rs', '.cargo/config.toml']);
    assert.deepEqual(await found(['npx', 'tsc', '-p', 'x'], ['tsconfig.json']), ['tsconfig.json']);
  });

  it('finds the script an interpreter runs, a Python module run with -m, and a program given as a relative path', async () => {
    assert.deepEqual(await found(['node', 'scripts/build.js', 'src/a.ts'], ['scripts/build.js', 'src/a.ts']), ['scripts/build.js']);
    assert.deepEqual(await found(['node', '--require', './setup.js', 'run.js'], ['setup.js', 'run.js']), ['setup.js', 'run.js']);
    assert.deepEqual(await found(['bash', 'build.sh'], ['tools/build.sh'], 'tools'), ['tools/build.sh']);
    assert.deepEqual(await found(['python', '-m', 'tools.gen'], ['tools/gen.py']), ['tools/gen.py']);
    assert.deepEqual(await found(['deno', 'run', 'main.ts'], ['main.ts']), ['main.ts']);
    assert.deepEqual(await found(['./gradlew', 'test'], ['gradlew', 'build.gradle.kts']), ['gradlew', 'build.gradle.kts']);
    assert.deepEqual(await found(['bin/check'], ['pkg/bin/check'], 'pkg'), ['pkg/bin/check']);
    assert.deepEqual(await found(['check'], ['check']), [], 'a bare name is looked up on PATH, not in the folder');
  });

  it('compares normalised paths without case: ./, .., backslashes and another spelling of the working folder find the same file', async () => {
    assert.deepEqual(await found(['npm', 'test'], ['./package.json']), ['./package.json']);
    assert.deepEqual(await found(['npm', 'test'], ['sub/../package.json']), ['sub/../package.json']);
    assert.deepEqual(await found(['npm', 'test'], ['Package.JSON']), ['Package.JSON'], 'a case-insensitive file system opens it as package.json');
    assert.deepEqual(await found(['make'], ['pkg\\Makefile'], './pkg/'), ['pkg\\Makefile']);
    assert.deepEqual(await found(['node', './x/../run.js'], ['run.js'], 'a/b/..'), []);
    assert.deepEqual(await found(['node', './x/../run.js'], ['a/run.js'], 'a/b/..'), ['a/run.js']);
  });

  it('follows the workspace\'s links: a change through a linked folder, or of the file a defining file links to, counts', async () => {
    assert.deepEqual(await found(['npm', 'test'], ['alias/package.json'], '', linked({ alias: '' })), ['alias/package.json']);
    assert.deepEqual(await found(['npm', 'test'], ['docs/notes.json'], '', linked({ 'package.json': 'docs/notes.json' })), ['docs/notes.json']);
    assert.deepEqual(await found(['make'], ['real/Makefile'], 'sub', linked({ sub: 'real' })), ['real/Makefile']);
    const refusing: WorkspaceFs = { ...workspace, locate: () => Promise.reject(new Error('leads outside')) };
    assert.deepEqual(await found(['npm', 'test'], ['package.json'], '', refusing), ['package.json'], 'a path that cannot be located is compared as written');
  });

  it('ignores paths that are no workspace paths instead of failing', async () => {
    assert.deepEqual(await found(['node', '../outside.js'], ['outside.js']), []);
    assert.deepEqual(await found(['npm', 'test'], ['/etc/package.json']), []);
  });
});

describe('filesChangedBySteps', () => {
  it('lists each changed path once with every step that changed it, in step order', () => {
    const steps = { A: { filesChanged: ['package.json', 'a.ts'] }, B: {}, C: { filesChanged: ['package.json'] } };
    assert.deepEqual(filesChangedBySteps(steps), [
      { path: 'package.json', stepIds: ['A', 'C'] },
      { path: 'a.ts', stepIds: ['A'] },
    ]);
    assert.deepEqual(filesChangedBySteps({}), []);
  });
});
