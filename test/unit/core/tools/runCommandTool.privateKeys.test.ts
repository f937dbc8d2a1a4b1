import assert from 'node:assert/strict';
import type { CommandResult, CommandRunner } from '../../../../src/core/commandPorts';
import { runCommandTool } from '../../../../src/core/tools/runCommandTool';
import { withheldPrivateKey } from '../../../../src/core/workspace/credentialFiles';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

// Attack on "a private key never reaches the model": read_file refuses a file that holds one, but an allowed `rg '' .` went
// through a `server.key` (not hidden, not ignored) and printed it, a line at a time after the file's name.
const keyBody = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7';
const searchOutput = [
  'README.md:# Service',
  'server.key:-----BEGIN PRIVATE KEY-----',
  `server.key:${keyBody}`,
  'server.key:-----END PRIVATE KEY-----',
  'src/main.ts:export const port = 8443;',
  '',
].join('\n');

function runnerPrinting(result: Partial<CommandResult>): CommandRunner & { ran: number } {
  const runner = {
    ran: 0,
    describeCwd: async (cwd: string) => `/memory-workspace${cwd ? `/${cwd}` : ''}`,
    run: async (): Promise<CommandResult> => {
      runner.ran++;
      return { exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 1, ...result };
    },
  };
  return runner;
}

function allowedSearch(runner: CommandRunner) {
  const workspace = createMemoryWorkspace({ 'README.md': '# Service\n', 'server.key': '-', 'src/main.ts': 'export const port = 8443;\n' });
  return makeToolContext({ workspace, interaction: new ScriptedInteraction({ approvals: [] }), commandRunner: runner, allowedCommands: { rules: () => [['rg', '...']] } });
}

describe('attack: a command prints a private key, which would reach the model', () => {
  it("holds: an allowed rg '' . runs unasked, and what it returns names the key withheld and keeps every other line", async () => {
    const runner = runnerPrinting({ stdout: searchOutput });
    const result = await runCommandTool.run(allowedSearch(runner), { argv: ['rg', '', '.'] }, neverAborted);
    assert.equal(runner.ran, 1);
    assert.equal(result.stdout.includes(keyBody), false);
    assert.equal(result.stdout, `README.md:# Service\nserver.key:${withheldPrivateKey}\nsrc/main.ts:export const port = 8443;\n`);
  });

  it('holds: a failing command names no key in its failure, whichever stream printed it', async () => {
    for (const printed of [{ stderr: searchOutput }, { stdout: searchOutput }]) {
      const runner = runnerPrinting({ exitCode: 2, ...printed });
      await assert.rejects(runCommandTool.run(allowedSearch(runner), { argv: ['rg', '', '.'] }, neverAborted), (error: Error) => {
        assert.match(error.message, /exited with code 2/);
        assert.equal(error.message.includes(keyBody), false, error.message);
        assert.match(error.message, /kept from the model/);
        return true;
      });
    }
  });

  it('holds: with allowFailure, neither stream returns the key', async () => {
    const runner = runnerPrinting({ exitCode: 1, stdout: `{"private_key": "-----BEGIN RSA PRIVATE KEY-----\\n${keyBody}\\n-----END RSA PRIVATE KEY-----\\n"}`, stderr: searchOutput });
    const result = await runCommandTool.run(allowedSearch(runner), { argv: ['rg', '', '.'], allowFailure: true }, neverAborted);
    assert.equal(`${result.stdout}${result.stderr}`.includes(keyBody), false);
    assert.equal(result.stdout, `{"private_key": "${withheldPrivateKey}\\n"}`);
  });
});
