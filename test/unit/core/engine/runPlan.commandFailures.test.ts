import assert from 'node:assert/strict';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { CommandResult, CommandRunner } from '../../../../src/core/commandPorts';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

/** Runs one `run_command` step of `argv` under onFailure retry (3 attempts, allowed without asking); every run ends as `end` says. */
async function retried(argv: string[], end: Partial<CommandResult> | Error) {
  let runs = 0;
  const runner: CommandRunner = {
    describeCwd: async () => '/work/project',
    run: async (): Promise<CommandResult> => {
      runs++;
      if (end instanceof Error) throw end;
      return { exitCode: 1, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 1, ...end };
    },
  };
  const step = makeStep('T', {
    kind: 'tool',
    agent: undefined,
    input: undefined,
    tool: 'run_command',
    args: { argv },
    onFailure: 'retry',
    maxAttempts: 3,
    critical: false,
  });
  const result = await runPlan(makePlan([step]), {
    clock: new ManualClock(0, { autoAdvance: true }),
    tools: builtinTools(),
    workspace: createMemoryWorkspace({ 'README.md': '' }),
    commandRunner: runner,
    allowedCommands: { rules: () => [argv] },
  }).result;
  return { runs, step: result.steps['T'], status: result.status };
}

describe('command failures under onFailure retry: only time-outs, signals and network errors are tried again', () => {
  it('a usage error (pytest exit 4) fails at once, saying why it was not retried and what pytest said', async () => {
    const { runs, step, status } = await retried(['pytest', 'suite'], { exitCode: 4, stderr: 'ERROR: file or directory not found: suite\n' });
    assert.equal(runs, 1);
    assert.equal(step?.attempts, 1);
    assert.equal(status, 'partial');
    assert.equal(
      step?.error,
      'Command pytest suite exited with code 4: pytest did not accept its command line (a usage error): ERROR: file or directory not found: suite. Fix the arguments. Not retried: the same command line fails the same way.\nERROR: file or directory not found: suite',
    );
  });

  it('a missing program (exit 127, or no such program to start) and a red suite are not retried', async () => {
    assert.equal((await retried(['npx', 'mypy', 'src'], { exitCode: 127, stderr: 'sh: mypy: not found' })).runs, 1);
    const enoent = Object.assign(new Error('Cannot start "pytest": no such program on PATH (/usr/bin).'), { code: 'ENOENT' });
    const missing = await retried(['pytest'], enoent);
    assert.equal(missing.runs, 1);
    assert.equal(missing.step?.error, 'Cannot start "pytest": no such program on PATH (/usr/bin). Not retried: another attempt would not find it either.');
    const red = await retried(['python3', '-m', 'pytest', '-q'], { exitCode: 1, stdout: 'FAILED tests/test_a.py::test_x\n1 failed, 179 passed' });
    assert.equal(red.runs, 1);
    assert.match(red.step?.error ?? '', /^Command python3 -m pytest -q exited with code 1: the tests ran and some failed\. Fix what fails .* Not retried: the same tests on the same code fail again\.\nFAILED/);
    const other = await retried(['make', 'dist'], { exitCode: 2, stderr: 'make: *** [dist] Error 2' });
    assert.equal(other.runs, 1);
    assert.match(other.step?.error ?? '', /^Command make dist exited with code 2\. Not retried: the same command line on the same files ends the same way \(only a time-out, a signal or a network error is retried\)\.\nmake/);
  });

  it('says nothing of retrying when the step allowed one attempt', async () => {
    const step = makeStep('T', { kind: 'tool', agent: undefined, input: undefined, tool: 'run_command', args: { argv: ['pytest'] }, onFailure: 'stop', maxAttempts: 1, critical: false });
    const runner: CommandRunner = {
      describeCwd: async () => '/work/project',
      run: async () => ({ exitCode: 1, signal: null, stdout: '1 failed', stderr: '', timedOut: false, truncated: false, durationMs: 1 }),
    };
    const result = await runPlan(makePlan([step]), {
      clock: new ManualClock(0, { autoAdvance: true }),
      tools: builtinTools(),
      workspace: createMemoryWorkspace({ 'README.md': '' }),
      commandRunner: runner,
      allowedCommands: { rules: () => [['pytest']] },
    }).result;
    assert.doesNotMatch(result.steps['T']?.error ?? '', /Not retried/);
    assert.match(result.steps['T']?.error ?? '', /the tests ran and some failed/);
  });

  it('a time-out, a signal and a network error are retried up to the attempts allowed', async () => {
    assert.equal((await retried(['npm', 'install'], { exitCode: null, signal: 'SIGKILL', timedOut: true })).runs, 3);
    assert.equal((await retried(['npm', 'install'], { exitCode: null, signal: 'SIGTERM' })).runs, 3);
    const network = await retried(['npm', 'install'], {
      exitCode: 1,
      stderr: 'npm ERR! network request failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org',
    });
    assert.equal(network.runs, 3);
    assert.doesNotMatch(network.step?.error ?? '', /Not retried/);
  });
});
