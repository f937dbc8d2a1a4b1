import assert from 'node:assert/strict';
import type { CommandResult, CommandRunner, CommandSpec, ProjectProgram } from '../../../../src/core/commandPorts';
import { runCommandTool } from '../../../../src/core/tools/runCommandTool';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

/** A runner whose workspace has the programs of `projectPrograms` (by name) in its own folders, recording what it was asked to look up. */
function projectRunner(projectPrograms: Record<string, ProjectProgram>): CommandRunner & { specs: CommandSpec[]; looked: string[][] } {
  const specs: CommandSpec[] = [];
  const looked: string[][] = [];
  return {
    specs,
    looked,
    describeCwd: async (cwd) => `/ws${cwd ? `/${cwd}` : ''}`,
    describeProgram: async (program, cwd) => {
      looked.push([program, cwd]);
      return Object.hasOwn(projectPrograms, program) ? projectPrograms[program] : undefined;
    },
    run: async (spec): Promise<CommandResult> => {
      specs.push(spec);
      return { exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 1 };
    },
  };
}

const gitLfs: ProjectProgram = { path: '/ws/node_modules/.bin/git-lfs', shown: 'node_modules/.bin/git-lfs', from: 'nodeModules' };
const cargoFmt: ProjectProgram = { path: '/ws/.venv/bin/cargo-fmt', shown: '.venv/bin/cargo-fmt', from: 'virtualEnvironment' };

describe("run_command and the helper git or cargo runs for a subcommand", () => {
  const workspace = createMemoryWorkspace({ 'sub/a': '' });
  const rules = (...list: string[][]) => ({ rules: () => list });

  for (const [argv, planted, from] of [
    [['git', 'lfs', 'pull'], gitLfs, "the workspace's node_modules/.bin"],
    [['cargo', 'fmt', '--check'], cargoFmt, "the workspace's Python virtual environment"],
  ] as const) {
    it(`attack: an allowed "${argv.join(' ')}" whose ${argv[0]}-${argv[1]} is the workspace's own asks, showing the helper's file`, async () => {
      const name = `${argv[0]}-${argv[1]}`;
      const runner = projectRunner({ [name]: planted });
      const interaction = new ScriptedInteraction({ approvals: [{ approved: false }] });
      const output: string[] = [];
      const ctx = makeToolContext({ workspace, interaction, commandRunner: runner, allowedCommands: rules([...argv]), output: (text) => output.push(text) });
      await assert.rejects(runCommandTool.run(ctx, { argv: [...argv], cwd: 'sub' }, neverAborted));
      assert.equal(runner.specs.length, 0, 'nothing ran');
      assert.deepEqual(runner.looked, [[argv[0], 'sub'], [name, 'sub']], 'the helper is looked up like the program, in the same folder');
      const because = `the rule "${argv.join(' ')}" is for the ${name} on PATH; this ${name} comes from ${from} (${planted.shown})`;
      assert.deepEqual(interaction.approvals(), [
        { kind: 'command', stepId: 'S1', title: 'Test step', argv: [...argv], cwd: '/ws/sub', shell: false, helper: { ...planted, name }, notAllowedBecause: because },
      ]);
      assert.deepEqual(output, [`Runs ${name} (${planted.shown}), which ${argv[0]} runs for ${argv[1]}, from ${from}.\n`, `Asks: ${because}.\n`]);
    });
  }

  it('runs an allowed "git lfs pull" without asking when git-lfs is not the workspace\'s, and a command without a helper as before', async () => {
    const runner = projectRunner({});
    const interaction = new ScriptedInteraction({ approvals: [] });
    const ctx = makeToolContext({ workspace, interaction, commandRunner: runner, allowedCommands: rules(['git', 'lfs', 'pull'], ['npm', 'test']) });
    await runCommandTool.run(ctx, { argv: ['git', 'lfs', 'pull'] }, neverAborted);
    await runCommandTool.run(ctx, { argv: ['npm', 'test'] }, neverAborted);
    assert.deepEqual(interaction.approvals(), []);
    assert.deepEqual(runner.looked, [['git', ''], ['git-lfs', ''], ['npm', '']]);
  });

  it('attack: an allowed "git x/y" asks, since git runs the file git-x/y of its working folder', async () => {
    const runner = projectRunner({});
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
    const ctx = makeToolContext({ workspace, interaction, commandRunner: runner, allowedCommands: rules(['git', 'x/y']) });
    await runCommandTool.run(ctx, { argv: ['git', 'x/y'] }, neverAborted);
    const [request] = interaction.approvals();
    assert.equal(
      request?.kind === 'command' ? request.notAllowedBecause : undefined,
      'git runs the file git-x/y in the working directory for it, which an allow rule does not cover',
    );
  });
});
