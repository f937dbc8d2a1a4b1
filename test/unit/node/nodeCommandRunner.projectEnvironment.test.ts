import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CommandSpec } from '../../../src/core/commandPorts';
import { createNodeCommandRunner } from '../../../src/node/nodeCommandRunner';
import { makeVirtualEnvironment, plantProgram } from '../../support/projectPrograms';
import { temporaryDirectory } from '../../support/temporaryDirectory';

describe("createNodeCommandRunner in the workspace's environment", function () {
  this.timeout(10_000);
  const temp = temporaryDirectory('tp-cmd-env-');
  const root = (): string => path.join(temp.path, 'ws');
  beforeEach(() => fs.mkdirSync(root()));
  const spec = (argv: string[], extra: Partial<CommandSpec> = {}): CommandSpec => ({ argv, cwd: '', timeoutMs: 5000, maxOutputBytes: 64 * 1024, ...extra });
  const never = new AbortController().signal;
  // What a command finds without the workspace: the system's folders, never the workspace's.
  const env = { PATH: '/usr/bin:/bin', HOME: '/home/u', API_TOKEN: 'not-for-commands', DATABASE_URL: 'postgres://u:pass@db/x' };
  const mypy = 'echo "mypy from $0 with $*"; echo "VIRTUAL_ENV=$VIRTUAL_ENV"; echo "PATH=$PATH"; echo "TOKEN=$API_TOKEN$DATABASE_URL"';

  it("runs a program of the workspace's .venv/bin that PATH does not have, with the environment activated and secrets still removed", async () => {
    makeVirtualEnvironment(path.join(root(), '.venv'));
    plantProgram(path.join(root(), '.venv', 'bin', 'mypy'), mypy);
    fs.mkdirSync(path.join(root(), 'src'));
    const runner = createNodeCommandRunner(root(), { env, projectEnvironment: {} });
    const program = await runner.describeProgram?.('mypy', 'src');
    const bin = path.join(root(), '.venv', 'bin');
    assert.deepEqual(program, { path: path.join(bin, 'mypy'), shown: '.venv/bin/mypy', from: 'virtualEnvironment' });
    const result = await runner.run(spec(['mypy', '--strict', 'pkg'], { cwd: 'src', program: program?.path }), never);
    assert.equal(result.exitCode, 0, result.stderr);
    assert.deepEqual(result.stdout.trim().split('\n'), [
      `mypy from ${path.join(bin, 'mypy')} with --strict pkg`,
      `VIRTUAL_ENV=${path.join(root(), '.venv')}`,
      `PATH=${bin}:/usr/bin:/bin`,
      'TOKEN=',
    ]);
    // Found at run time too, without the path the question showed.
    assert.match((await runner.run(spec(['mypy']), never)).stdout, /^mypy from .*\.venv\/bin\/mypy/);
  });

  it("finds node_modules/.bin's programs; a program on PATH is no project's, and without the option only PATH counts", async () => {
    plantProgram(path.join(root(), 'node_modules', '.bin', 'eslint'), 'echo "eslint $*"');
    const runner = createNodeCommandRunner(root(), { env, projectEnvironment: {} });
    assert.deepEqual(await runner.describeProgram?.('eslint', ''), {
      path: path.join(root(), 'node_modules', '.bin', 'eslint'),
      shown: 'node_modules/.bin/eslint',
      from: 'nodeModules',
    });
    assert.equal((await runner.run(spec(['eslint', '.']), never)).stdout, 'eslint .\n');
    assert.equal(await runner.describeProgram?.('sh', ''), undefined);
    assert.equal(await runner.describeProgram?.('./node_modules/.bin/eslint', ''), undefined);

    const plain = createNodeCommandRunner(root(), { env });
    assert.equal(await plain.describeProgram?.('eslint', ''), undefined);
    await assert.rejects(plain.run(spec(['eslint']), never), /^Error: Cannot start "eslint": no such program on PATH \(\/usr\/bin:\/bin\)\./);
  });

  // An outside attack (2026-12-02): a repository committed node_modules/.bin/node (and bash, ssh, editor, git-merge-*);
  // the rule-allowed `npm ls` started /usr/bin/npm, whose `#!/usr/bin/env node` then ran the repository's node.
  it("attack: a command nobody was shown runs with the user's PATH alone: a program it starts by name is never the workspace's", async () => {
    plantProgram(path.join(root(), 'node_modules', '.bin', 'sh'), 'echo "the repository\'s sh"');
    makeVirtualEnvironment(path.join(root(), '.venv'));
    const runner = createNodeCommandRunner(root(), { env, projectEnvironment: {} });
    // `env sh -c …` starts sh by name from PATH, as npm's `#!/usr/bin/env node` starts node.
    const argv = ['env', 'sh', '-c', 'echo "PATH=$PATH VIRTUAL_ENV=$VIRTUAL_ENV"'];
    const shown = await runner.run(spec(argv), never);
    assert.equal(shown.stdout, "the repository's sh\n", 'the workspace environment is not first on PATH');
    const unseen = await runner.run(spec(argv, { withoutProjectPrograms: true }), never);
    assert.equal(unseen.stdout, 'PATH=/usr/bin:/bin VIRTUAL_ENV=\n');
  });

  it("in a monorepo's package, finds the nearest package's node_modules/.bin first, then the root's, and a root rule's program is not the package's", async () => {
    plantProgram(path.join(root(), 'node_modules', '.bin', 'eslint'), 'echo "root eslint $*"');
    plantProgram(path.join(root(), 'node_modules', '.bin', 'tsc'), 'echo "root tsc"');
    plantProgram(path.join(root(), 'packages', 'web', 'node_modules', '.bin', 'eslint'), 'echo "web eslint $*"');
    fs.mkdirSync(path.join(root(), 'packages', 'web', 'src'), { recursive: true });
    const runner = createNodeCommandRunner(root(), { env, projectEnvironment: {} });
    const web = path.join(root(), 'packages', 'web', 'node_modules', '.bin', 'eslint');
    assert.deepEqual(await runner.describeProgram?.('eslint', 'packages/web'), { path: web, shown: 'packages/web/node_modules/.bin/eslint', from: 'nodeModules' });
    assert.deepEqual((await runner.describeProgram?.('eslint', 'packages/web/src'))?.path, web, 'a folder inside the package uses the package\'s');
    assert.deepEqual((await runner.describeProgram?.('eslint', ''))?.shown, 'node_modules/.bin/eslint', 'the root uses its own');
    assert.deepEqual((await runner.describeProgram?.('tsc', 'packages/web'))?.shown, 'node_modules/.bin/tsc', 'what the package lacks comes from the root');
    assert.equal((await runner.run(spec(['eslint', '.'], { cwd: 'packages/web' }), never)).stdout, 'web eslint .\n');
    assert.equal((await runner.run(spec(['eslint', '.']), never)).stdout, 'root eslint .\n');
  });

  it('runs exactly the file the user was shown, whatever the name finds now', async () => {
    plantProgram(path.join(root(), 'node_modules', '.bin', 'tool'), 'echo shown');
    makeVirtualEnvironment(path.join(root(), '.venv'));
    plantProgram(path.join(root(), '.venv', 'bin', 'tool'), 'echo planted-later');
    const runner = createNodeCommandRunner(root(), { env, projectEnvironment: {} });
    const shown = path.join(root(), 'node_modules', '.bin', 'tool');
    assert.equal((await runner.run(spec(['tool'], { program: shown }), never)).stdout, 'shown\n');
    fs.rmSync(shown);
    await assert.rejects(runner.run(spec(['tool'], { program: shown }), never), /Cannot start "tool": .*node_modules\/\.bin\/tool is no longer there\./);
  });

  it('does not run a .venv that is a link out of the workspace, and says where it looked and how to fix it', async () => {
    const outside = path.join(temp.path, 'elsewhere');
    makeVirtualEnvironment(outside);
    plantProgram(path.join(outside, 'bin', 'mypy'), 'echo outside');
    fs.symlinkSync(outside, path.join(root(), '.venv'));
    const runner = createNodeCommandRunner(root(), { env, projectEnvironment: {} });
    assert.equal(await runner.describeProgram?.('mypy', ''), undefined);
    await assert.rejects(
      runner.run(spec(['mypy', 'src']), never),
      (error: Error) =>
        error.message ===
        'Cannot start "mypy": no such program on PATH (/usr/bin:/bin). Not used: .venv (it leads out of the workspace folder). Create the virtual environment with `python3 -m venv .venv` and install mypy into it (`.venv/bin/python -m pip install mypy`), or install mypy where PATH finds it.',
    );
  });

  it("uses the editor's selected Python environment, read at each command", async () => {
    const prefix = path.join(temp.path, 'envs', 'proj');
    makeVirtualEnvironment(prefix);
    plantProgram(path.join(prefix, 'bin', 'pytest'), 'echo "pytest in $VIRTUAL_ENV"');
    const choice: { selected?: { prefix: string; bin: string } } = {};
    const runner = createNodeCommandRunner(root(), { env, projectEnvironment: { selectedPython: async () => choice.selected } });
    assert.equal(await runner.describeProgram?.('pytest', ''), undefined);
    choice.selected = { prefix, bin: path.join(prefix, 'bin') };
    assert.deepEqual(await runner.describeProgram?.('pytest', ''), {
      path: path.join(prefix, 'bin', 'pytest'),
      shown: path.join(prefix, 'bin', 'pytest'),
      from: 'selectedPythonEnvironment',
    });
    assert.equal((await runner.run(spec(['pytest']), never)).stdout, `pytest in ${prefix}\n`);
  });

  it('looks on the absolute entries of PATH only, with or without the workspace environment', async () => {
    plantProgram(path.join(root(), 'git'), 'echo planted git');
    for (const runner of [
      createNodeCommandRunner(root(), { env: { PATH: '.:' } }),
      createNodeCommandRunner(root(), { env: { PATH: '.:' }, projectEnvironment: {} }),
    ]) {
      await assert.rejects(runner.run(spec(['git', 'status']), never), /Cannot start "git": no such program on PATH \(empty\)/);
    }
  });
});
