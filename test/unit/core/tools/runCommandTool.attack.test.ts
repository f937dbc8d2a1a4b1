import assert from 'node:assert/strict';
import type { CommandResult, CommandRunner, CommandSpec } from '../../../../src/core/commandPorts';
import { runCommandTool } from '../../../../src/core/tools/runCommandTool';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

// Attack on "No tool reads a file named as a credentials file … so none of it reaches a model" through a rule-allowed
// command: the rule's path check (argumentPaths.ts) finds `.env` as a word, after `=` or `,`, or after `@`; git names a
// file of a revision as `REV:path`, and `-L` as `-L<range>:path`.
function fakeRunner(): CommandRunner & { specs: CommandSpec[] } {
  const specs: CommandSpec[] = [];
  return {
    specs,
    describeCwd: async (cwd) => `/memory-workspace${cwd ? `/${cwd}` : ''}`,
    run: async (spec): Promise<CommandResult> => {
      specs.push(spec);
      return { exitCode: 0, signal: null, stdout: 'API_KEY=sk-…\n', stderr: '', timedOut: false, truncated: false, durationMs: 1 };
    },
  };
}

describe('attack: a rule-allowed git command prints a credentials file to the model', () => {
  const workspace = createMemoryWorkspace({ '.env': 'API_KEY=sk-live-1234\n', '.npmrc': '//registry.npmjs.org/:_authToken=npm_x\n', id_rsa: 'k', '.netrc': 'n', 'credentials.json': '{}', 'README.md': 'r' });

  it('`git show HEAD:README.md` under "git show ..." runs unasked (the control)', async () => {
    const runner = fakeRunner();
    const ctx = makeToolContext({ workspace, interaction: new ScriptedInteraction({ approvals: [] }), commandRunner: runner, allowedCommands: { rules: () => [['git', 'show', '...']] } });
    await runCommandTool.run(ctx, { argv: ['git', 'show', 'HEAD:README.md'] }, neverAborted);
    assert.equal(runner.specs.length, 1);
  });

  it('holds: `git log -p -- .env` under "git log ..." asks, naming .env', async () => {
    const runner = fakeRunner();
    const interaction = new ScriptedInteraction({ approvals: [{ approved: false }] });
    const ctx = makeToolContext({ workspace, interaction, commandRunner: runner, allowedCommands: { rules: () => [['git', 'log', '...']] } });
    await assert.rejects(runCommandTool.run(ctx, { argv: ['git', 'log', '-p', '--', '.env'] }, neverAborted));
    assert.equal(runner.specs.length, 0);
  });

  it('holds: `git show HEAD:.env`, `git log -L1,5:.env` under their rules ask (a name ending in .env is kept whatever comes before)', async () => {
    for (const argv of [['git', 'show', 'HEAD:.env'], ['git', 'log', '-L1,5:.env']]) {
      const runner = fakeRunner();
      const ctx = makeToolContext({ workspace, interaction: new ScriptedInteraction({ approvals: [{ approved: false }] }), commandRunner: runner, allowedCommands: { rules: () => [[argv[0] ?? '', argv[1] ?? '', '...']] } });
      await runCommandTool.run(ctx, { argv }, neverAborted).catch(() => undefined);
      assert.equal(runner.specs.length, 0, argv.join(' '));
    }
  });

  // A name kept only as a whole name (.npmrc, .netrc, id_rsa, credentials.json) was missed once `REV:` or `:` came before it.
  for (const argv of [
    ['git', 'show', 'HEAD:.npmrc'],
    ['git', 'show', ':.npmrc'],
    ['git', 'show', 'HEAD:id_rsa'],
    ['git', 'show', 'HEAD:.netrc'],
    ['git', 'show', 'HEAD:credentials.json'],
    ['git', 'log', '-L1,5:id_rsa'],
  ]) {
    it(`\`${argv.join(' ')}\` under a rule "${argv.slice(0, 2).join(' ')} ..." asks: its output (the file) would reach the model`, async () => {
      const runner = fakeRunner();
      const interaction = new ScriptedInteraction({ approvals: [{ approved: false }] });
      const rules = [[argv[0] ?? '', argv[1] ?? '', '...']];
      const ctx = makeToolContext({ workspace, interaction, commandRunner: runner, allowedCommands: { rules: () => rules } });
      await runCommandTool.run(ctx, { argv }, neverAborted).catch(() => undefined);
      assert.equal(runner.specs.length, 0, 'ran unasked');
      const [asked] = interaction.approvals();
      assert.match(asked?.kind === 'command' ? (asked.notAllowedBecause ?? '') : '', /is a file tools keep from the model/);
    });
  }
});
