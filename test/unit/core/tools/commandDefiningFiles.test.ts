import assert from 'node:assert/strict';
import type { FileChangedInRun } from '../../../../src/core/interactionPorts';
import type { WorkspaceFs } from '../../../../src/core/workspacePorts';
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
    // GNU make under its other name, and ninja's build file (an outside attack: each ran a file a step had rewritten, unasked).
    assert.deepEqual(commandDefiningFiles.gmake?.here, ['Makefile', 'makefile', 'GNUmakefile']);
    assert.deepEqual(commandDefiningFiles.ninja?.here, ['build.ninja']);
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
    // APFS and NTFS fold the Kelvin sign to k and ſ to s as well (2026-12-06).
    assert.deepEqual(await found(['npm', 'test'], ['pac\u212Aage.json']), ['pac\u212Aage.json'], 'a case-insensitive file system opens it as package.json');
    assert.deepEqual(await found(['make'], ['Ma\u212Aefile']), ['Ma\u212Aefile']);
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

/**
 * The promise per program, written out here (not read from the table): which changed files
 * make the program ask, and where they count. `here`: in its working folder only; `up`: there
 * or in any folder above it; `anywhere`: in any folder of the workspace.
 */
const promised: Record<string, { here?: string[]; up?: string[]; anywhere?: string[] }> = {
  npm: { up: ['package.json', '.npmrc'] },
  npx: { up: ['package.json', '.npmrc'] },
  pnpm: { up: ['package.json', '.npmrc', 'pnpm-workspace.yaml', '.pnpmfile.cjs'] },
  pnpx: { up: ['package.json', '.npmrc', 'pnpm-workspace.yaml', '.pnpmfile.cjs'] },
  yarn: { up: ['package.json', '.npmrc', '.yarnrc', '.yarnrc.yml'] },
  bun: { up: ['package.json', 'bunfig.toml'] },
  bunx: { up: ['package.json', 'bunfig.toml'] },
  make: { here: ['Makefile', 'makefile', 'GNUmakefile'] },
  gmake: { here: ['Makefile', 'makefile', 'GNUmakefile'] },
  ninja: { here: ['build.ninja'] },
  git: {
    up: [
      '.gitconfig', '.husky/_/h', '.githooks/x.sh', '.hooks/x', '.lefthook/pre-push/check.sh', '.pre-commit-config.yaml', 'lefthook.yml', 'lefthook.yaml', '.lefthook.yml',
      '.lefthook.yaml', 'lefthook-local.yml', 'lefthook-local.yaml', '.lefthook-local.yml', '.lefthook-local.yaml',
    ],
    anywhere: [
      '.gitattributes', '.gitmodules', '.git', 'HEAD', 'config', 'config.worktree', 'commondir', 'applypatch-msg', 'pre-applypatch', 'post-applypatch', 'pre-commit',
      'pre-merge-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'pre-rebase', 'post-checkout', 'post-merge', 'pre-push', 'pre-receive', 'update',
      'proc-receive', 'post-receive', 'post-update', 'reference-transaction', 'push-to-checkout', 'pre-auto-gc', 'post-rewrite', 'sendemail-validate',
      'fsmonitor-watchman', 'post-index-change', 'p4-changelist', 'p4-prepare-changelist', 'p4-post-changelist', 'p4-pre-submit',
    ],
  },
  pytest: { up: ['pytest.ini', '.pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini'], anywhere: ['conftest.py'] },
  tox: { up: ['tox.ini', 'pyproject.toml', 'setup.cfg'] },
  cargo: { up: ['.cargo/config.toml', '.cargo/config', 'rust-toolchain', 'rust-toolchain.toml'], anywhere: ['Cargo.toml', 'build.rs'] },
  tsc: { up: ['tsconfig.json'] },
  go: { up: ['go.mod', 'go.work'] },
  deno: { up: ['deno.json', 'deno.jsonc'] },
  eslint: { up: ['eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', 'eslint.config.ts', 'eslint.config.mts', 'eslint.config.cts'] },
  gradle: {
    up: ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts', 'gradle.properties', 'gradle/wrapper/gradle-wrapper.properties'],
  },
  gradlew: {
    up: ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts', 'gradle.properties', 'gradle/wrapper/gradle-wrapper.properties'],
  },
  mvn: { up: ['pom.xml', '.mvn/maven.config', '.mvn/jvm.config', '.mvn/extensions.xml', '.mvn/wrapper/maven-wrapper.properties'] },
  mvnw: { up: ['pom.xml', '.mvn/maven.config', '.mvn/jvm.config', '.mvn/extensions.xml', '.mvn/wrapper/maven-wrapper.properties'] },
};

/** GNU make under either name reads the same files. */
const sameFiles = (program: string, name: string): boolean => ['make', 'gmake'].includes(program) && ['Makefile', 'makefile', 'GNUmakefile'].includes(name);

/** Every file some program of `promised` asks for, for the files a program must not ask for. */
const everyFile = [...new Set(Object.values(promised).flatMap((files) => [...(files.here ?? []), ...(files.up ?? []), ...(files.anywhere ?? [])]))];

describe('changedDefiningFiles, per program', () => {
  for (const [program, files] of Object.entries(promised)) {
    const own = new Set([...(files.here ?? []), ...(files.up ?? []), ...(files.anywhere ?? [])]);
    // A program's working folder `a/b`: its folder, the folders above, one below, and a sibling folder.
    it(`${program}: asks for exactly its own files, each where the program reads it`, async () => {
      for (const name of files.here ?? []) {
        assert.deepEqual(await found([program], [`a/b/${name}`], 'a/b'), [`a/b/${name}`], `${program} reads ${name} in its folder`);
        assert.deepEqual(await found([program], [name, `a/${name}`, `a/b/c/${name}`, `x/${name}`], 'a/b'), [], `${program} reads ${name} nowhere else`);
        assert.deepEqual(await found([program], [name.toUpperCase()]), [name.toUpperCase()], `${program}: ${name} without case`);
      }
      for (const name of files.up ?? []) {
        const changed = [`a/b/${name}`, `a/${name}`, name, `a/b/c/${name}`, `x/${name}`, `a/x/${name}`];
        assert.deepEqual(await found([program], changed, 'a/b'), [`a/b/${name}`, `a/${name}`, name], `${program} reads ${name} in its folder and above`);
        assert.deepEqual(await found([program], [name.toUpperCase()]), [name.toUpperCase()], `${program}: ${name} without case`);
      }
      for (const name of files.anywhere ?? []) {
        const changed = [name, `a/${name}`, `a/b/c/${name}`, `x/y/${name}`, `x${name}`, `a/${name}.bak`];
        assert.deepEqual(await found([program], changed, 'a/b'), [name, `a/${name}`, `a/b/c/${name}`, `x/y/${name}`], `${program} reads ${name} anywhere`);
        assert.deepEqual(await found([program], [`Q/${name.toUpperCase()}`]), [`Q/${name.toUpperCase()}`], `${program}: ${name} without case`);
      }
      // git reads a `config` in any folder (one with a HEAD is a repository), so cargo's `.cargo/config` too.
      const others = everyFile.filter((name) => !own.has(name) && !(program === 'git' && (/^\.(husky|githooks|hooks|lefthook)\//.test(name) || name.endsWith('/config'))) && !sameFiles(program, name));
      assert.deepEqual(await found([program], others), [], `${program} asks for no other program's files`);
    });
  }

  it('attack: git asks again for what a step wrote that git reads as a repository and its configuration', async () => {
    // A step writes evil/HEAD and evil/config (with core.fsmonitor): git in evil/ takes the folder for a repository and runs that program.
    assert.deepEqual(await found(['git', 'status'], ['evil/HEAD', 'evil/config', 'evil/readme.md'], 'evil'), ['evil/HEAD', 'evil/config']);
    assert.deepEqual(await found(['git', 'status'], ['evil/config']), ['evil/config'], 'wherever the command runs');
    assert.deepEqual(await found(['git', 'status'], ['lib/commondir', 'lib/config.worktree']), ['lib/commondir', 'lib/config.worktree']);
    // Anything under a .git folder, at the top or deeper, a .git file pointing elsewhere, and .gitmodules.
    const underGit = ['.git/config', '.GIT/hooks/pre-commit', 'vendor/lib/.git/config', 'vendor/lib/.git/info/attributes', 'sub/.git', '.gitmodules', 'sub/.gitmodules'];
    assert.deepEqual(await found(['git', 'status'], [...underGit, 'x.git/f', 'a/.gitx/f', 'a/.git.bak', 'src/headers.c']), underGit);
    assert.deepEqual(await found(['npx', 'git'], ['evil/config']), ['evil/config'], 'also when a runner starts git');
    assert.deepEqual(await found(['npm', 'test'], ['evil/HEAD', 'evil/config', '.git/config']), [], 'other programs do not read them');
  });

  it("attack: a hook a step wrote runs under an allowed git command wherever core.hooksPath points, and so does a hook manager's configuration", async () => {
    // A repository whose own configuration says `core.hooksPath = tools/hooks`: a step writes tools/hooks/pre-commit, and an allowed
    // `git commit` ran it. git status and git add write the index, which runs post-index-change.
    assert.deepEqual(await found(['git', 'commit', '-m', 'x'], ['tools/hooks/pre-commit', 'tools/hooks/readme.md']), ['tools/hooks/pre-commit']);
    assert.deepEqual(await found(['git', 'status'], ['ci/git-hooks/post-index-change']), ['ci/git-hooks/post-index-change']);
    assert.deepEqual(await found(['git', 'push'], ['scripts/hooks/pre-push'], 'src'), ['scripts/hooks/pre-push'], 'from any working folder');
    // pre-commit's installed hook runs what .pre-commit-config.yaml names (`entry: sh -c …` of a local hook); lefthook's, what lefthook.yml names.
    assert.deepEqual(await found(['git', 'commit'], ['.pre-commit-config.yaml', 'lefthook.yml', '.lefthook/pre-commit/lint.sh']), [
      '.pre-commit-config.yaml',
      'lefthook.yml',
      '.lefthook/pre-commit/lint.sh',
    ]);
    assert.deepEqual(await found(['git', 'commit'], ['src/pre-commit.ts', 'docs/commit-msg.md', 'pre-commit-hook']), [], 'only a hook of that very name');
    assert.deepEqual(await found(['npm', 'test'], ['tools/hooks/pre-commit', '.pre-commit-config.yaml']), [], 'other programs run no hooks');
  });

  it('a folder that stands for every file under it counts in the working folder and above, not below or beside, and without case', async () => {
    const changed = ['.husky/pre-commit', 'Pkg/.husky/_/h.sh', 'pkg/sub/.husky/x', 'other/.husky/x', '.huskyrc', 'pkg/.husky'];
    assert.deepEqual(await found(['git', 'commit'], changed, 'Pkg'), ['.husky/pre-commit', 'Pkg/.husky/_/h.sh']);
    assert.deepEqual(await found(['git', 'commit'], ['PKG/.HUSKY/pre-commit'], 'pkg'), ['PKG/.HUSKY/pre-commit']);
  });

  it('a program a runner starts asks for its own files, the first word after the runner (or its subcommand) that is no option', async () => {
    for (const runner of [['npx'], ['pnpx'], ['bunx'], ['uvx']]) {
      assert.deepEqual(await found([...runner, 'pytest'], ['pytest.ini']), ['pytest.ini'], runner.join(' '));
      assert.deepEqual(await found([...runner, '-y', '--quiet', 'Pytest', 'tox'], ['pytest.ini', 'tox.ini']), ['pytest.ini', 'tox.ini'], runner.join(' '));
    }
    const subcommands = [
      'npm exec',
      'npm x',
      'pnpm exec',
      'pnpm dlx',
      'yarn exec',
      'yarn dlx',
      'yarn run',
      'bun x',
      'bun run',
      'uv run',
      'poetry run',
      'pipenv run',
      'pdm run',
      'hatch run',
    ];
    for (const runner of subcommands.map((words) => words.split(' '))) {
      assert.deepEqual(await found([...runner, 'pytest'], ['pytest.ini']), ['pytest.ini'], runner.join(' '));
      assert.deepEqual(await found([...runner, '--with', 'pytest'], ['pytest.ini']), ['pytest.ini'], runner.join(' '));
      assert.deepEqual(await found([runner[0] ?? '', 'pytest', 'tox'], ['pytest.ini', 'tox.ini']), [], `${runner[0] ?? ''} pytest runs no pytest`);
    }
    assert.deepEqual(await found(['uv', 'sync', 'pytest'], ['pytest.ini']), [], 'uv sync starts nothing');
    assert.deepEqual(await found(['npm', 'test', 'pytest'], ['pytest.ini']), [], 'npm test starts nothing it names');
    assert.deepEqual(await found(['npx', '--yes'], ['pytest.ini', 'package.json']), ['package.json'], 'a runner with nothing to start');
    assert.deepEqual(await found(['uv', 'run'], ['pytest.ini']), []);
  });

  it('an interpreter asks for the script it runs, in its working folder, and no other file', async () => {
    const interpreters = [
      'sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'node', 'nodejs', 'tsx', 'ts-node', 'python', 'py', 'pypy', 'perl', 'ruby', 'php', 'lua', 'luajit', 'deno', 'bun',
    ];
    for (const interpreter of interpreters) {
      assert.deepEqual(await found([interpreter, 'run.x', 'arg.x'], ['run.x', 'arg.x', 'w/run.x']), ['run.x'], interpreter);
      assert.deepEqual(await found([interpreter, 'run.x'], ['run.x', 'w/run.x'], 'w'), ['w/run.x'], `${interpreter} in w`);
      assert.deepEqual(await found([interpreter, '--flag', 'run.x', 'arg.x', 'more.x'], ['run.x', 'arg.x', 'more.x']), ['run.x', 'arg.x'], interpreter);
    }
    assert.deepEqual(await found(['Node.exe', 'run.js'], ['run.js']), ['run.js'], 'the program as programName gives it');
    assert.deepEqual(await found(['python3.12', 'run.py'], ['run.py']), ['run.py']);
    assert.deepEqual(await found(['cat', 'run.x'], ['run.x']), [], 'cat is no interpreter');
    assert.deepEqual(await found(['bash', '-', 'run.sh'], ['run.sh']), [], "'-' is the script (standard input)");
    assert.deepEqual(await found(['bash', '-e', '-x', 'run.sh', 'a.sh', 'b.sh'], ['run.sh', 'a.sh', 'b.sh']), ['run.sh', 'a.sh']);
    assert.deepEqual(await found(['deno', 'run', '--allow-read', 'main.ts', 'arg.ts'], ['main.ts', 'arg.ts', 'run']), ['main.ts', 'arg.ts']);
    assert.deepEqual(await found(['bun', 'run', 'x.js'], ['x.js', 'run']), ['x.js']);
    assert.deepEqual(await found(['node', 'run', 'x.js'], ['x.js', 'run']), ['run'], 'only deno and bun have a run subcommand');
    assert.deepEqual(await found(['deno', 'test', 'x.ts'], ['x.ts', 'test']), ['test']);
  });

  it('a Python runs a module given with -m from its file or package, and starts the program of that name', async () => {
    for (const python of ['python', 'python3', 'py', 'pypy3']) {
      const changed = ['a/b/c.py', 'a/b/c/__main__.py', 'a.b.c.py', 'a/b.c.py', 'c.py', 'pytest.ini'];
      assert.deepEqual(await found([python, '-m', 'a.b.c'], changed), ['a/b/c.py', 'a/b/c/__main__.py'], python);
      assert.deepEqual(await found([python, '-X', 'dev', '-m', 'pytest', 'x.py'], ['pytest.ini', 'conftest.py', 'x.py', 'pytest.py']), [
        'pytest.ini',
        'conftest.py',
        'pytest.py',
      ]);
      assert.deepEqual(await found([python, '-m', 'tox'], ['tox.ini', 'w/tox.py'], 'w'), ['tox.ini', 'w/tox.py']);
    }
    assert.deepEqual(await found(['node', '-m', 'pytest'], ['pytest.ini', 'pytest.py', 'pytest']), ['pytest'], 'only a Python has -m');
    assert.deepEqual(await found(['perl', '-m', 'tox'], ['tox.ini', 'tox.py', 'tox']), ['tox']);
    assert.deepEqual(await found(['python', 'run.py', '-m', 'x'], ['run.py', 'x.py']), ['x.py'], 'the module, as written');
  });

  it('attack: a Python runs each package along the module\'s name first, and a file named like its first part shadows a library', async () => {
    const changed = ['pytest/__init__.py', 'json.py', 'a.py', 'a/__init__.py', 'a/b.py', 'a/b/__init__.py', 'tool.py', 'b.py'];
    assert.deepEqual(await found(['python3', '-m', 'pytest'], changed), ['pytest/__init__.py']);
    assert.deepEqual(await found(['python3', '-m', 'json.tool'], changed), ['json.py']);
    assert.deepEqual(await found(['python3', '-m', 'a.b.c'], changed), ['a.py', 'a/__init__.py', 'a/b.py', 'a/b/__init__.py']);
  });

  it('a program given as a relative path is its own script, with either slash, in its working folder', async () => {
    assert.deepEqual(await found(['./gradlew', 'build'], ['gradlew', 'settings.gradle', 'w/gradlew']), ['gradlew', 'settings.gradle']);
    assert.deepEqual(await found(['.\\mvnw.cmd', 'test'], ['mvnw.cmd', 'pom.xml', 'mvnw']), ['mvnw.cmd', 'pom.xml']);
    assert.deepEqual(await found(['tools\\run'], ['tools/run', 'run'], 'w'), []);
    assert.deepEqual(await found(['tools\\run'], ['w/tools/run', 'run'], 'w'), ['w/tools/run']);
    assert.deepEqual(await found(['../up.sh'], ['up.sh'], 'w'), ['up.sh']);
    assert.deepEqual(await found(['gradlew', 'build'], ['gradlew']), [], 'a bare name is looked up on PATH');
    assert.deepEqual(await found(['./bash', 'x.sh'], ['bash', 'x.sh']), ['bash', 'x.sh'], 'a relative interpreter is both');
  });

  it('programs that are no key of the table, such as the names of object properties, ask for nothing', async () => {
    for (const program of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      assert.deepEqual(await found([program], ['package.json', 'Makefile', 'constructor']), [], program);
    }
    assert.deepEqual(await found([], ['package.json', '']), []);
  });

  it('the working folder is compared normalised: ./, trailing slashes, .. and backslashes', async () => {
    assert.deepEqual(await found(['make'], ['a/b/Makefile', 'a/Makefile', 'Makefile'], './a/./b/'), ['a/b/Makefile']);
    assert.deepEqual(await found(['make'], ['a/b/Makefile', 'a/Makefile'], 'a\\b'), ['a/b/Makefile']);
    assert.deepEqual(await found(['make'], ['a/Makefile', 'a/b/Makefile'], 'a/b/..'), ['a/Makefile']);
    assert.deepEqual(await found(['npm', 'test'], ['a/package.json', 'package.json', 'a/b/package.json'], 'a/b/..'), ['a/package.json', 'package.json']);
    assert.deepEqual(await found(['npm', 'test'], ['package.json'], '../out'), [], 'a working folder out of the workspace reads nothing here');
    assert.deepEqual(await found(['npm', 'test'], ['.\\a\\b\\..\\package.json', 'A/Package.Json'], 'a'), ['.\\a\\b\\..\\package.json', 'A/Package.Json']);
  });

  it('follows links of the working folder and of the changed path, and keeps a path its link leaves as it was', async () => {
    assert.deepEqual(await found(['npm', 'test'], ['real/package.json', 'alias/package.json'], 'alias', linked({ alias: 'real' })), [
      'real/package.json',
      'alias/package.json',
    ]);
    const same: WorkspaceFs = { ...workspace, locate: async (path) => path };
    assert.deepEqual(await found(['npm', 'test'], ['package.json', 'a.ts'], '', same), ['package.json']);
    const outside: WorkspaceFs = { ...workspace, locate: async () => '../elsewhere' };
    assert.deepEqual(await found(['npm', 'test'], ['package.json', 'a.ts'], '', outside), ['package.json'], 'a link out of the workspace: as written');
    const seen: string[] = [];
    const recording: WorkspaceFs = {
      ...workspace,
      locate: async (path) => {
        seen.push(path);
        return path;
      },
    };
    await found(['npm', 'test'], ['./X/../Package.json'], 'w/', recording);
    assert.ok(seen.includes('Package.json') && seen.includes('w'), `links are looked up normalised, case kept: ${seen.join(', ')}`);
  });
});

describe('filesChangedBySteps, more', () => {
  it('lists a step once for a path it lists twice', () => {
    assert.deepEqual(filesChangedBySteps({ A: { filesChanged: ['a', 'a', 'b'] }, B: { filesChanged: ['a'] } }), [
      { path: 'a', stepIds: ['A', 'B'] },
      { path: 'b', stepIds: ['A'] },
    ]);
  });
});
