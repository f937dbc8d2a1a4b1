import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeVirtualEnvironment, plantProgram } from '../../support/projectPrograms';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

describe("task-planner run: commands in the workspace's environment", function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('cli-env-');

  const planFile = (argv: string[], checks: unknown[] = []): string => {
    const file = join(workspace.path, 'typecheck.plan.json');
    const step = { id: 'S1', title: 'Type-check', kind: 'tool', tool: 'run_command', args: { argv }, dependsOn: [], checks };
    writeFileSync(file, JSON.stringify({ objective: 'Type-check the package', steps: [step] }));
    return file;
  };

  it("runs a .venv/bin program that PATH does not have, naming it in the question at Start and in the summary", async () => {
    makeVirtualEnvironment(join(workspace.path, '.venv'));
    plantProgram(join(workspace.path, '.venv', 'bin', 'mypy'), 'echo "Success: no issues found in $# source files (VIRTUAL_ENV=$VIRTUAL_ENV)"');
    const file = planFile(['mypy', 'pkg'], [{ kind: 'command', argv: ['mypy', '--version'] }]);
    // The CLI's own PATH has node's folder only: no mypy anywhere on it.
    const { code, stdout, stderr } = await runCli(['run', file, '--workspace', workspace.path, '--yes'], { PATH: '/nonexistent-bin' });
    assert.equal(code, 0, stderr + stdout);
    assert.match(stderr, /mypy \(\.venv\/bin\/mypy\) --version \(in the workspace folder\)/, 'the check command at Start names the program');
    assert.match(stdout, /S1 Type-check: ran \.venv\/bin\/mypy: exit code 0, last output: Success: no issues found in 1 source files \(VIRTUAL_ENV=.*\.venv\)/);
  });

  it('says where it looked for a missing program and how to get it', async () => {
    const file = planFile(['mypy', 'pkg']);
    const { code, stdout } = await runCli(['run', file, '--workspace', workspace.path, '--yes'], { PATH: '/nonexistent-bin' });
    assert.notEqual(code, 0);
    assert.match(
      stdout,
      /Cannot start "mypy": no such program on PATH \(\/nonexistent-bin\)\. Create the virtual environment with `python3 -m venv \.venv` and install mypy into it/,
    );
  });
});
