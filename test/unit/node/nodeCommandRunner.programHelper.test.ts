import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCommandTool } from '../../../src/core/tools/runCommandTool';
import { createNodeCommandRunner } from '../../../src/node/nodeCommandRunner';
import { createMemoryWorkspace } from '../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../fakes/toolContext';
import { makeVirtualEnvironment, plantProgram } from '../../support/projectPrograms';
import { temporaryDirectory } from '../../support/temporaryDirectory';

describe("run_command with the node runner: a helper git or cargo would run from the workspace's folders", function () {
  this.timeout(10_000);
  const temp = temporaryDirectory('tp-cmd-helper-');
  const root = (): string => path.join(temp.path, 'ws');
  const marker = (): string => path.join(temp.path, 'PWNED');
  beforeEach(() => fs.mkdirSync(root()));

  it('attack (ws23): allowed "git lfs pull" and "cargo fmt --check" ask, naming node_modules/.bin/git-lfs and .venv/bin/cargo-fmt; neither ran', async () => {
    plantProgram(path.join(root(), 'node_modules', '.bin', 'git-lfs'), `touch ${JSON.stringify(marker())}`);
    makeVirtualEnvironment(path.join(root(), '.venv'));
    plantProgram(path.join(root(), '.venv', 'bin', 'cargo-fmt'), `touch ${JSON.stringify(marker())}`);
    const runner = createNodeCommandRunner(root(), { env: { PATH: '/usr/bin:/bin' }, projectEnvironment: {}, pidNamespace: false });
    const interaction = new ScriptedInteraction({ approvals: ['defer', 'defer'] });
    const allowedCommands = { rules: () => [['git', 'lfs', 'pull'], ['cargo', 'fmt', '--check']] };
    const ctx = makeToolContext({ workspace: createMemoryWorkspace({ 'README.md': '' }), interaction, commandRunner: runner, allowedCommands });
    await assert.rejects(runCommandTool.run(ctx, { argv: ['git', 'lfs', 'pull'] }, neverAborted));
    await assert.rejects(runCommandTool.run(ctx, { argv: ['cargo', 'fmt', '--check'] }, neverAborted));
    assert.deepEqual(
      interaction.approvals().map((request) => (request.kind === 'command' ? [request.helper?.name, request.helper?.shown, request.helper?.from] : [])),
      [
        ['git-lfs', 'node_modules/.bin/git-lfs', 'nodeModules'],
        ['cargo-fmt', '.venv/bin/cargo-fmt', 'virtualEnvironment'],
      ],
    );
    assert.equal(fs.existsSync(marker()), false, 'no helper of the workspace ran');
  });
});
