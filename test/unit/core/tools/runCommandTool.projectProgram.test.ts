import assert from 'node:assert/strict';
import type { CommandResult, CommandRunner, CommandSpec, ProjectProgram } from '../../../../src/core/commandPorts';
import { matchingAllowRule } from '../../../../src/core/tools/commandAllowRules';
import { runCommandTool } from '../../../../src/core/tools/runCommandTool';
import { fingerprintRequest } from '../../../../src/core/engine/requestFingerprint';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

/** A runner whose workspace has the programs of `projectPrograms` (by name) in its own folders. */
function projectRunner(projectPrograms: Record<string, ProjectProgram>, result: Partial<CommandResult> = {}): CommandRunner & { specs: CommandSpec[] } {
  const specs: CommandSpec[] = [];
  return {
    specs,
    describeCwd: async (cwd) => `/ws${cwd ? `/${cwd}` : ''}`,
    describeProgram: async (program) => (Object.hasOwn(projectPrograms, program) ? projectPrograms[program] : undefined),
    run: async (spec) => {
      specs.push(spec);
      return { exitCode: 0, signal: null, stdout: 'ok\n', stderr: '', timedOut: false, truncated: false, durationMs: 5, ...result };
    },
  };
}

const plantedGit: ProjectProgram = { path: '/ws/.venv/bin/git', shown: '.venv/bin/git', from: 'virtualEnvironment' };
const plantedNpm: ProjectProgram = { path: '/ws/node_modules/.bin/npm', shown: 'node_modules/.bin/npm', from: 'nodeModules' };
const mypy: ProjectProgram = { path: '/ws/.venv/bin/mypy', shown: '.venv/bin/mypy', from: 'virtualEnvironment' };

describe("run_command with the project's own programs", () => {
  const workspace = createMemoryWorkspace({ 'src/a.py': '', 'pkg/package.json': '{}' });
  const rules = (...list: string[][]) => ({ rules: () => list });

  for (const [argv, planted, cwd] of [
    [['git', 'status'], plantedGit, ''],
    [['npm', 'test'], plantedNpm, 'pkg'],
  ] as const) {
    it(`asks for a repository's own ${argv[0]} although the user allowed "${argv.join(' ')}", saying the program comes from the workspace`, async () => {
      const runner = projectRunner({ [argv[0]]: planted });
      const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
      const output: string[] = [];
      const ctx = makeToolContext({ workspace, interaction, commandRunner: runner, allowedCommands: rules([...argv]), output: (text) => output.push(text) });
      await runCommandTool.run(ctx, { argv: [...argv], cwd }, neverAborted);
      assert.deepEqual(interaction.approvals(), [
        { kind: 'command', stepId: 'S1', title: 'Test step', argv: [...argv], cwd: `/ws${cwd ? `/${cwd}` : ''}`, shell: false, program: planted },
      ]);
      const from = planted.from === 'nodeModules' ? "the workspace's node_modules/.bin" : "the workspace's Python virtual environment";
      assert.deepEqual(output.slice(0, 2), [
        `Runs ${argv[0]} (${planted.shown}), from ${from}.\n`,
        `Asks: the rule "${argv.join(' ')}" is for the ${argv[0]} on PATH; this ${argv[0]} comes from ${from} (${planted.shown}).\n`,
      ]);
      assert.equal(runner.specs[0]?.program, planted.path, 'the runner starts the file the question showed');
      assert.equal(runner.specs[0]?.programOnPath, undefined);
    });
  }

  it('runs without asking when a rule names the program by its path, in any folder, and reports the program in its result', async () => {
    const runner = projectRunner({ mypy });
    const interaction = new ScriptedInteraction({ approvals: [] });
    const ctx = makeToolContext({ workspace, interaction, commandRunner: runner, allowedCommands: rules(['.venv/bin/mypy', '...']) });
    const result = await runCommandTool.run(ctx, { argv: ['mypy', '--strict', 'a.py'], cwd: 'src' }, neverAborted);
    assert.deepEqual(interaction.approvals(), []);
    assert.equal(result.program, '.venv/bin/mypy');
  });

  it('a rule naming the path allows neither the program on PATH nor another folder\'s', () => {
    const rule = [['.venv/bin/mypy', 'src']];
    assert.equal(matchingAllowRule(rule, { argv: ['mypy', 'src'], cwd: '', shell: false }), undefined);
    assert.equal(matchingAllowRule(rule, { argv: ['mypy', 'src'], cwd: '', shell: false, program: 'node_modules/.bin/mypy' }), undefined);
    assert.deepEqual(matchingAllowRule(rule, { argv: ['mypy', 'src'], cwd: 'sub', shell: false, program: '.venv/bin/mypy' }), rule[0]);
    assert.equal(matchingAllowRule([['mypy', 'src']], { argv: ['mypy', 'src'], cwd: '', shell: false, program: '.venv/bin/mypy' }), undefined);
  });

  it('names the program in a failure, and a PATH program stays as it was (no program in the request, spec or result)', async () => {
    const failing = makeToolContext({ workspace, commandRunner: projectRunner({ mypy }, { exitCode: 1, stdout: 'error: x' }) });
    await assert.rejects(runCommandTool.run(failing, { argv: ['mypy', 'src'] }, neverAborted), {
      message: 'Command mypy (.venv/bin/mypy) src exited with code 1.\nerror: x',
    });
    const runner = projectRunner({});
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
    const result = await runCommandTool.run(makeToolContext({ workspace, interaction, commandRunner: runner }), { argv: ['git', 'status'] }, neverAborted);
    assert.equal('program' in (interaction.approvals()[0] ?? {}), false);
    assert.equal(runner.specs[0]?.program, undefined);
    // Shown as PATH's: the runner looks on PATH only (an outside attack planted a .venv/bin/git while the question was open).
    assert.equal(runner.specs[0]?.programOnPath, true);
    assert.equal(result.program, undefined);
  });

  it('an answer to a command binds to the program it showed', () => {
    const request = { kind: 'command' as const, stepId: 'S1', title: 't', argv: ['git', 'status'], cwd: '/ws', shell: false };
    const onPath = fingerprintRequest({ kind: 'approval', request });
    assert.notEqual(fingerprintRequest({ kind: 'approval', request: { ...request, program: plantedGit } }), onPath);
  });
});
