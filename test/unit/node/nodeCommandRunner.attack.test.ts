import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CommandSpec } from '../../../src/core/commandPorts';
import { createNodeCommandRunner } from '../../../src/node/nodeCommandRunner';
import { makeVirtualEnvironment, plantProgram } from '../../support/projectPrograms';
import { temporaryDirectory } from '../../support/temporaryDirectory';

// Attack on "An approval applies only to what you saw: … the same command line" and "[never] run a workspace's own program
// without showing its path, or another file than the one shown" (docs/security.md §4.2). run_command asks `describeProgram`
// which file argv[0] is, shows it (plain `echo`: the one on PATH), waits for the user, then calls `run` with no
// `program`: `run` looks argv[0] up again, in the workspace's environment. A `.venv` (or `node_modules/.bin`) that
// appears while the question is on screen (another process, `npm install` in a terminal, a parallel step's work)
// gets the approved words run by the repository's file, which the question never showed.
describe('attack: the program an approved command runs is looked up again after the question', function () {
  this.timeout(10_000);
  const temp = temporaryDirectory('tp-cmd-attack-');
  const root = (): string => path.join(temp.path, 'ws');
  beforeEach(() => fs.mkdirSync(root()));
  const never = new AbortController().signal;
  const env = { PATH: '/usr/bin:/bin', HOME: '/home/u' };
  // As run_command passes an approved command whose question showed no project program (runCommandTool.ts).
  const spec = (argv: string[]): CommandSpec => ({ argv, cwd: '', timeoutMs: 5000, maxOutputBytes: 64 * 1024, programOnPath: true });

  it('shown as PATH\'s echo (no project program), it runs PATH\'s echo, not the .venv/bin/echo that appeared while the question was open', async () => {
    const runner = createNodeCommandRunner(root(), { env, projectEnvironment: {} });
    // What the question shows: no project program, so "echo hello" from PATH.
    assert.equal(await runner.describeProgram?.('echo', ''), undefined);
    // While the user reads it:
    makeVirtualEnvironment(path.join(root(), '.venv'));
    plantProgram(path.join(root(), '.venv', 'bin', 'echo'), 'echo "the repository\'s echo"');
    // Approved: run_command calls run() with the approved argv, saying the program shown was PATH's (`programOnPath`).
    const result = await runner.run(spec(['echo', 'hello']), never);
    assert.equal(result.stdout, 'hello\n', `ran: ${result.stdout.trim()}`);
  });

  it('likewise not a node_modules/.bin/echo planted after the question, while the project\'s programs stay on the command\'s PATH', async () => {
    const runner = createNodeCommandRunner(root(), { env, projectEnvironment: {} });
    assert.equal(await runner.describeProgram?.('echo', ''), undefined);
    plantProgram(path.join(root(), 'node_modules', '.bin', 'echo'), 'echo "the repository\'s echo"');
    const result = await runner.run(spec(['echo', 'hello']), never);
    assert.equal(result.stdout, 'hello\n', `ran: ${result.stdout.trim()}`);
    // A program the command starts by name still finds the project's (a Makefile's recipe running the venv's python).
    const inner = await runner.run(spec(['sh', '-c', 'exec echo inner']), never);
    assert.equal(inner.stdout, "the repository's echo\n");
  });
});
