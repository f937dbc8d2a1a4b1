import assert from 'node:assert/strict';
import { ApprovalRejectedError } from '../../../../src/core/tools/approvals';
import type { CommandResult, CommandRunner, CommandSpec } from '../../../../src/core/commandPorts';
import type { WorkspaceFs } from '../../../../src/core/workspacePorts';
import { runCommandTool } from '../../../../src/core/tools/runCommandTool';
import { StepFailure } from '../../../../src/core/tools/stepFailure';
import { PathRefusedError } from '../../../../src/core/workspace/resolveInRoot';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

function fakeRunner(result: Partial<CommandResult> = {}): CommandRunner & { specs: CommandSpec[] } {
  const specs: CommandSpec[] = [];
  return {
    specs,
    describeCwd: async (cwd) => `/memory-workspace${cwd ? `/${cwd}` : ''}`,
    run: async (spec) => {
      specs.push(spec);
      return { exitCode: 0, signal: null, stdout: 'ok\n', stderr: '', timedOut: false, truncated: false, durationMs: 5, ...result };
    },
  };
}

describe('run_command', () => {
  const workspace = createMemoryWorkspace({ 'pkg/package.json': '{}' });

  it('always asks with the exact argv and cwd, even under commandsOnly and after approving writes', async () => {
    const runner = fakeRunner();
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
    const ctx = makeToolContext({ workspace, interaction, commandRunner: runner, approvalPolicy: 'commandsOnly' });
    const result = await runCommandTool.run(ctx, { argv: ['npm', 'run', 'test -- --grep "x y"'], cwd: 'pkg' }, neverAborted);
    assert.equal(result.stdout, 'ok\n');
    assert.deepEqual(interaction.approvals(), [{ kind: 'command', stepId: 'S1', title: 'Test step', argv: ['npm', 'run', 'test -- --grep "x y"'], cwd: '/memory-workspace/pkg', shell: false }]);
    assert.deepEqual(runner.specs.map((s) => [s.argv, s.cwd, s.timeoutMs, s.maxOutputBytes]), [[['npm', 'run', 'test -- --grep "x y"'], 'pkg', 120_000, 65_536]]);
  });

  it('attack: refuses, without asking, a command too long for its question to show whole (its end and folder would be below the fold)', async () => {
    const runner = fakeRunner();
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
    const ctx = makeToolContext({ workspace, interaction, commandRunner: runner });
    const argv = ['npm', 'test', ...Array.from({ length: 120 }, (_, index) => `--grep=${'x'.repeat(30)}${index}`), '--prefix', '/tmp/evil'];
    await assert.rejects(runCommandTool.run(ctx, { argv }, neverAborted), (error: unknown) => {
      assert.ok(error instanceof StepFailure && !error.retryable);
      assert.match(error.message, /^The command is \d+ characters long as its question would show it; at most 2000 can be shown whole/);
      return true;
    });
    assert.equal(interaction.requests.length, 0);
    assert.equal(runner.specs.length, 0);
    // At the limit it is asked about, whole.
    const fits = ['echo', 'x'.repeat(2000 - 'echo '.length)];
    await runCommandTool.run(ctx, { argv: fits }, neverAborted);
    assert.equal(interaction.approvals().length, 1);
  });

  it('runs nothing when rejected', async () => {
    const runner = fakeRunner();
    const ctx = makeToolContext({ workspace, interaction: new ScriptedInteraction({ approvals: [{ approved: false }] }), commandRunner: runner });
    await assert.rejects(runCommandTool.run(ctx, { argv: ['rm', '-rf', '.'] }, neverAborted), ApprovalRejectedError);
    assert.equal(runner.specs.length, 0);
  });

  it('fails on a non-zero exit or a timeout unless allowFailure, with the output tail', async () => {
    const failing = makeToolContext({ workspace, commandRunner: fakeRunner({ exitCode: 2, stderr: 'boom\n' }) });
    await assert.rejects(runCommandTool.run(failing, { argv: ['make'] }, neverAborted), /^StepFailure: Command make exited with code 2.\nboom$/);
    assert.equal((await runCommandTool.run(failing, { argv: ['make'], allowFailure: true }, neverAborted)).exitCode, 2);
    const slow = makeToolContext({ workspace, commandRunner: fakeRunner({ exitCode: null, signal: 'SIGTERM', timedOut: true }) });
    await assert.rejects(runCommandTool.run(slow, { argv: ['sleep', '9'], timeoutMs: 50 }, neverAborted), /timed out after 50 ms and was killed/);
  });

  it('refuses a cwd outside the workspace or missing, and works without a runner only by failing clearly', async () => {
    const ctx = makeToolContext({ workspace, commandRunner: fakeRunner() });
    await assert.rejects(runCommandTool.run(ctx, { argv: ['ls'], cwd: '../..' }, neverAborted), PathRefusedError);
    await assert.rejects(runCommandTool.run(ctx, { argv: ['ls'], cwd: 'nope' }, neverAborted), /The working directory nope does not exist/);
    await assert.rejects(runCommandTool.run(makeToolContext({ workspace }), { argv: ['ls'] }, neverAborted), /no command runner is configured/);
    assert.equal(runCommandTool.inputSchema.safeParse({ argv: [] }).success, false);
    assert.equal(runCommandTool.inputSchema.safeParse({ argv: ['ls'], shell: true }).success, false);
  });

  it('refuses a blank program name before asking anything', async () => {
    const runner = fakeRunner();
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
    const ctx = makeToolContext({ workspace, interaction, commandRunner: runner });
    await assert.rejects(runCommandTool.run(ctx, { argv: ['  ', 'x'] }, neverAborted), /^Error: run_command needs a program name in argv\[0\]\.$/);
    assert.deepEqual([interaction.approvals().length, runner.specs.length], [0, 0]);
  });

  it('refuses a working directory that is a file', async () => {
    const ctx = makeToolContext({ workspace, commandRunner: fakeRunner() });
    await assert.rejects(runCommandTool.run(ctx, { argv: ['ls'], cwd: 'pkg/package.json' }, neverAborted), /^WorkspaceError: The working directory pkg\/package\.json does not exist or is not a directory$/);
  });

  it('says which command the user rejected', async () => {
    const ctx = makeToolContext({ workspace, interaction: new ScriptedInteraction({ approvals: [{ approved: false }] }), commandRunner: fakeRunner() });
    await assert.rejects(runCommandTool.run(ctx, { argv: ['rm', '-rf', '.'] }, neverAborted), { message: 'The user rejected running ["rm","-rf","."] in /memory-workspace. Nothing was changed.' });
  });

  it('passes standard input only when given, and streams output to the step when it listens', async () => {
    const runner = fakeRunner();
    const seen: string[] = [];
    await runCommandTool.run(makeToolContext({ workspace, commandRunner: runner }), { argv: ['cat'], stdin: '' }, neverAborted);
    await runCommandTool.run(makeToolContext({ workspace, commandRunner: runner, output: (text) => seen.push(text) }), { argv: ['cat'] }, neverAborted);
    assert.equal(runner.specs[0]?.stdin, '');
    assert.ok(!('stdin' in runner.specs[1]!));
    assert.ok(!('onOutput' in runner.specs[0]), 'nobody listens to the first run');
    runner.specs[1]?.onOutput?.('line\n');
    assert.deepEqual(seen, ['line\n']);
  });

  it('says a killed command was killed by its signal, and shows the end of standard output when there is no error output', async () => {
    const killed = makeToolContext({ workspace, commandRunner: fakeRunner({ exitCode: null, signal: 'SIGKILL', stdout: '  progress\n', stderr: ' \n' }) });
    await assert.rejects(runCommandTool.run(killed, { argv: ['build'] }, neverAborted), { message: 'Command build was killed by SIGKILL.\nprogress' });
    const silent = makeToolContext({ workspace, commandRunner: fakeRunner({ exitCode: 1, stdout: '', stderr: '' }) });
    await assert.rejects(runCommandTool.run(silent, { argv: ['false'] }, neverAborted), { message: 'Command false exited with code 1.' });
    // Its words as the approval showed them: a newcomer read 'node -e console.log("running tests"); …' as several commands.
    const spaced = makeToolContext({ workspace, commandRunner: fakeRunner({ exitCode: 3, stdout: '', stderr: '' }) });
    await assert.rejects(runCommandTool.run(spaced, { argv: ['node', '-e', 'console.log("hi"); process.exit(3)'] }, neverAborted), {
      message: 'Command node -e "console.log(\\"hi\\"); process.exit(3)" exited with code 3.',
    });
  });

  describe('with allow rules', () => {
    const rules = (...list: string[][]) => ({ rules: () => list });

    it('runs a command a rule allows without asking, and says so in the step output', async () => {
      const runner = fakeRunner();
      const interaction = new ScriptedInteraction({ approvals: [] });
      const output: string[] = [];
      const ctx = makeToolContext({ workspace, interaction, commandRunner: runner, allowedCommands: rules(['make', 'lint'], ['npm', 'test', '...']), output: (text) => output.push(text) });
      await runCommandTool.run(ctx, { argv: ['npm', 'test', '--', '--grep', 'x y'], cwd: 'pkg' }, neverAborted);
      assert.deepEqual(interaction.approvals(), []);
      assert.deepEqual(runner.specs.map((spec) => spec.argv), [['npm', 'test', '--', '--grep', 'x y']]);
      assert.deepEqual(output, ['Runs without asking: allowed by the rule "npm test ...".\n']);
    });

    // An outside attacker's finds (2026-12-01): under "cat ..." a committed link etclink -> /etc printed /etc/hostname, and
    // `cat .env` sent the key to the model; under "npx tsc ..." `@/etc/passwd` put its lines into the step's failure.
    it('attack: asks when an allowed command names a path that leads out through a link, a file kept from the model, or a response file', async () => {
      const linked = createMemoryWorkspace({ '.env': 'KEY=x', 'notes.md': 'n', 'sub/.npmrc': 't', 'etclink/hostname': 'vm' });
      const locate = (path: string) =>
        path.startsWith('etclink') ? Promise.reject(new PathRefusedError(path, 'it is a symbolic link leading outside the workspace')) : Promise.resolve(path);
      const withLinks = { ...linked, locate };
      const cases: [argv: string[], cwd: string, asks: RegExp][] = [
        [['cat', 'etclink/hostname'], '', /"etclink\/hostname" leads out of the workspace/],
        [['cat', '.env'], '', /"\.env" is a file tools keep from the model/],
        [['cat', '.npmrc'], 'sub', /"\.npmrc" is a file tools keep from the model \(sub\/\.npmrc\)/],
        // (not --file: an abbreviation of --files-from, which asks for itself)
        [['cat', '--input=.env'], '', /"\.env" is a file tools keep/],
        [['npx', 'tsc', '@/etc/passwd'], '', /more arguments from a file/],
        [['npx', 'tsc', '@args.txt'], '', /more arguments from a file/],
      ];
      for (const [argv, cwd, asks] of cases) {
        const runner = fakeRunner();
        const interaction = new ScriptedInteraction({ approvals: [{ approved: false }] });
        const output: string[] = [];
        const ctx = makeToolContext({ workspace: withLinks, interaction, commandRunner: runner, allowedCommands: rules(['cat', '...'], ['npx', 'tsc', '...']), output: (text) => output.push(text) });
        await assert.rejects(runCommandTool.run(ctx, { argv, cwd }, neverAborted), ApprovalRejectedError, JSON.stringify(argv));
        assert.equal(runner.specs.length, 0, JSON.stringify(argv));
        assert.match(output.join(''), asks, JSON.stringify(argv));
      }
      const runner = fakeRunner();
      const ctx = makeToolContext({ workspace: withLinks, interaction: new ScriptedInteraction({ approvals: [] }), commandRunner: runner, allowedCommands: rules(['cat', '...']) });
      await runCommandTool.run(ctx, { argv: ['cat', 'notes.md', 'missing.md'] }, neverAborted);
      assert.equal(runner.specs.length, 1, 'a path inside, or one that does not exist, is the rule\'s');
    });

    it('G1: asks before options after an allowed command write files or swap the program (rules git log, git diff, git status, npm test)', async () => {
      for (const argv of [
        ['git', 'log', '-1', '--format=%H', '--output=../outside/x'],
        ['git', 'log', '--output=.git/config'],
        ['git', 'diff', '--no-index', '--output=/tmp/outside', 'a', 'b'],
        ['npm', 'test', '--prefix', 'sub/evil'],
        ['npm', 'test', '--script-shell=/usr/bin/printf'],
      ]) {
        const runner = fakeRunner();
        const interaction = new ScriptedInteraction({ approvals: [{ approved: false }] });
        const ctx = makeToolContext({ workspace, interaction, commandRunner: runner, allowedCommands: rules(['git', 'log'], ['git', 'diff'], ['git', 'status'], ['npm', 'test']) });
        await assert.rejects(runCommandTool.run(ctx, { argv }, neverAborted), ApprovalRejectedError, JSON.stringify(argv));
        assert.equal(interaction.approvals().length, 1, JSON.stringify(argv));
        assert.equal(runner.specs.length, 0);
      }
    });

    it('G1: a rule ending in ... still asks for an argument that runs another program, saying why in the step output', async () => {
      const runner = fakeRunner();
      const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
      const output: string[] = [];
      const ctx = makeToolContext({ workspace, interaction, commandRunner: runner, allowedCommands: rules(['npm', 'test', '...']), output: (text) => output.push(text) });
      await runCommandTool.run(ctx, { argv: ['npm', 'test', '--script-shell=/usr/bin/printf'] }, neverAborted);
      assert.equal(interaction.approvals().length, 1);
      assert.deepEqual(output, ['Asks: the rule "npm test ..." does not cover --script-shell=/usr/bin/printf, which runs another package\'s script, another program or reads other configuration.\n']);
      assert.equal(runner.specs.length, 1, 'runs once the user approved it');
    });

    it('the question itself says why a command asks although a rule nearly allows it (an exact rule and one more word)', async () => {
      const interaction = new ScriptedInteraction({ approvals: [{ approved: false }] });
      const ctx = makeToolContext({ workspace, interaction, commandRunner: fakeRunner(), allowedCommands: rules(['git', 'status']) });
      await assert.rejects(runCommandTool.run(ctx, { argv: ['git', 'status', '--output=x'] }, neverAborted), ApprovalRejectedError);
      const [request] = interaction.approvals();
      assert.equal(
        request?.kind === 'command' ? request.notAllowedBecause : undefined,
        'the rule "git status" does not cover --output=x, which comes after the words the rule allows exactly (a rule ending in ... allows further arguments)',
      );
    });

    it('asks for a command that only looks like an allowed one, and runs nothing when refused', async () => {
      for (const argv of [['npm', 'test;rm', '-rf', '.'], ['npm', 'tеst'], ['npm', ' test'], ['NPM', 'test'], ['npm'], ['sh', '-c', 'npm test']]) {
        const runner = fakeRunner();
        const interaction = new ScriptedInteraction({ approvals: [{ approved: false }] });
        const ctx = makeToolContext({ workspace, interaction, commandRunner: runner, allowedCommands: rules(['npm', 'test']) });
        await assert.rejects(runCommandTool.run(ctx, { argv }, neverAborted), ApprovalRejectedError, JSON.stringify(argv));
        assert.equal(interaction.approvals().length, 1, JSON.stringify(argv));
        assert.equal(runner.specs.length, 0);
      }
    });

    it('reads the rules at every command: a rule removed asks again', async () => {
      const list: string[][] = [['npm', 'test']];
      const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
      const ctx = makeToolContext({ workspace, interaction, commandRunner: fakeRunner(), allowedCommands: { rules: () => list } });
      await runCommandTool.run(ctx, { argv: ['npm', 'test'] }, neverAborted);
      list.pop();
      await runCommandTool.run(ctx, { argv: ['npm', 'test'] }, neverAborted);
      assert.equal(interaction.approvals().length, 1);
    });

    it('ignores a blanket rule that reached it, and a relative program outside the workspace folder', async () => {
      const interaction = new ScriptedInteraction({ approvals: [{ approved: true }, { approved: true }] });
      const ctx = makeToolContext({ workspace, interaction, commandRunner: fakeRunner(), allowedCommands: rules([], ['bash'], ['./gradlew', 'test']) });
      await runCommandTool.run(ctx, { argv: ['bash', '-c', 'rm -rf .'] }, neverAborted);
      await runCommandTool.run(ctx, { argv: ['./gradlew', 'test'], cwd: 'pkg' }, neverAborted);
      assert.equal(interaction.approvals().length, 2);
    });

    it('G7: asks for an allowed command when this run changed a file that defines what it runs, naming the file and the step', async () => {
      const runner = fakeRunner();
      const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
      const output: string[] = [];
      const changed = [{ path: 'src/a.ts', stepIds: ['S0'] }, { path: './pkg/package.json', stepIds: ['S0', 'S1'] }];
      const ctx = makeToolContext({
        workspace,
        interaction,
        commandRunner: runner,
        allowedCommands: rules(['npm', 'test']),
        filesChangedInRun: () => changed,
        output: (text) => output.push(text),
      });
      await runCommandTool.run(ctx, { argv: ['npm', 'test'], cwd: 'pkg' }, neverAborted);
      assert.deepEqual(interaction.approvals(), [
        {
          kind: 'command',
          stepId: 'S1',
          title: 'Test step',
          argv: ['npm', 'test'],
          cwd: '/memory-workspace/pkg',
          shell: false,
          changedInRun: [{ path: './pkg/package.json', stepIds: ['S0', 'S1'] }],
        },
      ]);
      assert.deepEqual(output, ['Asks: this run changed ./pkg/package.json (by steps S0, S1), which the command reads to decide what it runs.\n']);
      assert.equal(runner.specs.length, 1, 'runs once the user approved it');
    });

    // An outside attack (2026-12-02): rules for `git checkout ...` and `npm test`; step 1 ran `git checkout other --
    // package.json` (a command: no step reports what it changes), step 2's `npm test` then ran the swapped-in script unasked.
    it('attack: asks for an allowed command whose defining file changed on disk since the run started, by a command or another program', async () => {
      const files = createMemoryWorkspace({ 'pkg/package.json': '{"scripts":{"test":"node evil.js"}}' });
      let mtimeMs = 1_000;
      const changedOnDisk: WorkspaceFs = { ...files, stat: async (path, signal) => { const found = await files.stat(path, signal); return found && { ...found, mtimeMs }; } };
      const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
      const output: string[] = [];
      const ctx = makeToolContext({
        workspace: changedOnDisk,
        interaction,
        commandRunner: fakeRunner(),
        allowedCommands: rules(['npm', 'test']),
        filesChangedInRun: () => [],
        runStartedAt: 5_000,
        output: (text) => output.push(text),
      });
      await runCommandTool.run(ctx, { argv: ['npm', 'test'], cwd: 'pkg' }, neverAborted);
      assert.deepEqual(interaction.approvals(), [], 'a file older than the run asked');
      mtimeMs = 5_001;
      await runCommandTool.run(ctx, { argv: ['npm', 'test'], cwd: 'pkg' }, neverAborted);
      assert.deepEqual(interaction.approvals().map((request) => request.kind === 'command' && request.changedInRun), [[{ path: 'pkg/package.json', stepIds: [] }]]);
      assert.equal(
        output.at(-1),
        'Asks: this run changed pkg/package.json (on disk, since the run started: by a command or another program), which the command reads to decide what it runs.\n',
      );
    });

    it("attack: a command a rule runs unseen gets the user's PATH alone; one the user approved runs in the workspace's environment", async () => {
      const runner = fakeRunner();
      const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
      const ctx = makeToolContext({ workspace, interaction, commandRunner: runner, allowedCommands: rules(['npm', 'ls']) });
      await runCommandTool.run(ctx, { argv: ['npm', 'ls'] }, neverAborted);
      await runCommandTool.run(ctx, { argv: ['npm', 'install'] }, neverAborted);
      assert.equal(interaction.approvals().length, 1);
      assert.deepEqual(runner.specs.map((spec) => [spec.argv.join(' '), spec.withoutProjectPrograms]), [['npm ls', true], ['npm install', undefined]]);
    });

    it('G7: an allowed command runs without asking when the run changed none of its defining files', async () => {
      const interaction = new ScriptedInteraction({ approvals: [] });
      const changed = [{ path: 'src/a.ts', stepIds: ['S0'] }, { path: 'other/package.json', stepIds: ['S0'] }];
      const ctx = makeToolContext({
        workspace,
        interaction,
        commandRunner: fakeRunner(),
        allowedCommands: rules(['npm', 'test']),
        filesChangedInRun: () => changed,
      });
      await runCommandTool.run(ctx, { argv: ['npm', 'test'], cwd: 'pkg' }, neverAborted);
      assert.deepEqual(interaction.approvals(), []);
    });

    it('G7: reads the run\'s changes at every command: a file changed after the first run asks at the next', async () => {
      const changed: { path: string; stepIds: string[] }[] = [];
      const interaction = new ScriptedInteraction({ approvals: [{ approved: false }] });
      const runner = fakeRunner();
      const ctx = makeToolContext({
        workspace,
        interaction,
        commandRunner: runner,
        allowedCommands: rules(['make', 'check']),
        filesChangedInRun: () => changed,
      });
      await runCommandTool.run(ctx, { argv: ['make', 'check'] }, neverAborted);
      changed.push({ path: 'Makefile', stepIds: ['S1'] });
      await assert.rejects(runCommandTool.run(ctx, { argv: ['make', 'check'] }, neverAborted), ApprovalRejectedError);
      assert.deepEqual([interaction.approvals().length, runner.specs.length], [1, 1]);
    });
  });
});
