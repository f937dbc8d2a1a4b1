import assert from 'node:assert/strict';
import type { CommandResult, CommandRunner, CommandSpec } from '../../../../src/core/commandPorts';
import { matchingAllowRule } from '../../../../src/core/tools/commandAllowRules';
import { runCommandTool } from '../../../../src/core/tools/runCommandTool';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

function fakeRunner(): CommandRunner & { specs: CommandSpec[] } {
  const specs: CommandSpec[] = [];
  return {
    specs,
    describeCwd: async (cwd) => `/memory-workspace${cwd ? `/${cwd}` : ''}`,
    run: async (spec): Promise<CommandResult> => {
      specs.push(spec);
      return { exitCode: 0, signal: null, stdout: 'ok\n', stderr: '', timedOut: false, truncated: false, durationMs: 5 };
    },
  };
}

// "Allow this command for this workspace" stores the command's exact words. A rule whose program is a relative path
// (`./run.sh`) allows it only in the workspace folder itself: offered for `./run.sh` asked in `tools/`, the rule never
// allowed that script, and ran the root's `./run.sh`, never shown, without asking.
describe('attack: "Allow this command" offered where its rule would allow another file', () => {
  const workspace = createMemoryWorkspace({ 'run.sh': 'rm -rf build\n', 'tools/run.sh': 'echo hello\n' });

  it('a relative program asked in another folder says no rule of its words can allow it there; in the root it does not', async () => {
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }, { approved: true }] });
    const ctx = makeToolContext({ workspace, interaction, commandRunner: fakeRunner() });
    await runCommandTool.run(ctx, { argv: ['./run.sh'], cwd: 'tools' }, neverAborted);
    await runCommandTool.run(ctx, { argv: ['./run.sh'] }, neverAborted);
    const [inTools, inRoot] = interaction.approvals();
    assert.ok(inTools?.kind === 'command' && inRoot?.kind === 'command');
    assert.equal(inTools.noRuleHere, true, 'a rule ["./run.sh"] made here would allow the root\'s run.sh, not this one');
    assert.equal(matchingAllowRule([['./run.sh']], { argv: ['./run.sh'], cwd: 'tools', shell: false }), undefined);
    assert.equal(inRoot.noRuleHere, undefined);
  });

  it('a program on PATH asked in another folder can still become a rule (a rule holds in every folder)', async () => {
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
    await runCommandTool.run(makeToolContext({ workspace, interaction, commandRunner: fakeRunner() }), { argv: ['make', 'lint'], cwd: 'tools' }, neverAborted);
    const [request] = interaction.approvals();
    assert.ok(request?.kind === 'command');
    assert.equal(request.noRuleHere, undefined);
  });
});
