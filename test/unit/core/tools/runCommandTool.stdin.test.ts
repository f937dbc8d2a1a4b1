import assert from 'node:assert/strict';
import type { CommandResult, CommandRunner, CommandSpec } from '../../../../src/core/commandPorts';
import { runCommandTool } from '../../../../src/core/tools/runCommandTool';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

function fakeRunner(): CommandRunner & { specs: CommandSpec[] } {
  const specs: CommandSpec[] = [];
  return {
    specs,
    describeCwd: async (cwd) => `/ws${cwd ? `/${cwd}` : ''}`,
    run: async (spec): Promise<CommandResult> => {
      specs.push(spec);
      return { exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 1 };
    },
  };
}

describe('run_command given input on standard input', () => {
  const workspace = createMemoryWorkspace({ 'README.md': 'x\n', 'app.db': '' });
  const rules = (...list: string[][]) => ({ rules: () => list });

  it('attack: the question carries the input, so the user sees what "sh" is fed (it showed only "sh")', async () => {
    const runner = fakeRunner();
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
    const stdin = 'touch /tmp/STDIN_PWN; wc -l README.md\n';
    await runCommandTool.run(makeToolContext({ workspace, interaction, commandRunner: runner }), { argv: ['sh'], stdin }, neverAborted);
    assert.deepEqual(interaction.approvals(), [{ kind: 'command', stepId: 'S1', title: 'Test step', argv: ['sh'], cwd: '/ws', shell: false, stdin }]);
    assert.equal(runner.specs[0]?.stdin, stdin, 'what runs is fed what the question showed');
  });

  it('attack: an allowed "sqlite3 app.db" given commands on its input asks, saying why', async () => {
    const runner = fakeRunner();
    const interaction = new ScriptedInteraction({ approvals: [{ approved: false }] });
    const output: string[] = [];
    const ctx = makeToolContext({ workspace, interaction, commandRunner: runner, allowedCommands: rules(['sqlite3', 'app.db']), output: (text) => output.push(text) });
    await assert.rejects(runCommandTool.run(ctx, { argv: ['sqlite3', 'app.db'], stdin: '.shell touch /tmp/pwn\n' }, neverAborted));
    assert.equal(runner.specs.length, 0);
    const [request] = interaction.approvals();
    assert.equal(request?.kind === 'command' ? request.notAllowedBecause : undefined, 'it is given input, which an allow rule does not cover');
    assert.deepEqual(output, ['Asks: it is given input, which an allow rule does not cover.\n']);
  });

  it('a rule still allows the command without input, or with an empty one (nothing is fed either way)', async () => {
    for (const stdin of [undefined, '']) {
      const runner = fakeRunner();
      const interaction = new ScriptedInteraction({ approvals: [] });
      const ctx = makeToolContext({ workspace, interaction, commandRunner: runner, allowedCommands: rules(['sqlite3', 'app.db']) });
      await runCommandTool.run(ctx, { argv: ['sqlite3', 'app.db'], ...(stdin === undefined ? {} : { stdin }) }, neverAborted);
      assert.deepEqual(interaction.approvals(), []);
      assert.equal(runner.specs[0]?.stdin, stdin);
    }
  });
});
