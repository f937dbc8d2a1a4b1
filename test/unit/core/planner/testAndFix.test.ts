import assert from 'node:assert/strict';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { CommandResult, CommandRunner } from '../../../../src/core/commandPorts';
import type { ManualStepOutcome } from '../../../../src/core/interactionPorts';
import { heuristicPlan } from '../../../../src/core/planner/heuristicPlan';
import { fixesCommandOutput, fixStep, withTestRuns } from '../../../../src/core/planner/testAndFix';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeStep } from '../../../support/randomPlans';

const red: CommandResult = {
  exitCode: 1,
  signal: null,
  stdout: 'FAILED tests/test_slug.py::test_unicode - AssertionError\n1 failed, 179 passed',
  stderr: '',
  timedOut: false,
  truncated: false,
  durationMs: 5,
};
const green: CommandResult = { ...red, exitCode: 0, stdout: '180 passed' };

/** Runs `request` planned without a model (the project tests with `pytest`); pytest answers `results` in turn, the person marks the fix done. */
async function runTestAndFix(
  request: string,
  results: CommandResult[],
  interaction = ScriptedInteraction.approvingAll(),
  answer: () => ManualStepOutcome = () => ({ done: true, note: 'fixed the slug' }),
) {
  const ran: string[][] = [];
  const runner: CommandRunner = {
    describeCwd: async () => '/work/project',
    run: async (spec) => {
      ran.push(spec.argv);
      return results.shift() ?? green;
    },
  };
  const manual: string[] = [];
  interaction.requestManualStep = async (request) => {
    manual.push(request.instructions);
    return answer();
  };
  const plan = heuristicPlan(request, { testCommand: ['pytest'] });
  const { result } = runPlan(plan, {
    clock: new ManualClock(0, { autoAdvance: true }),
    tools: builtinTools(),
    workspace: createMemoryWorkspace({ 'pytest.ini': '[pytest]\n' }),
    commandRunner: runner,
    interaction,
  });
  const outcome = await result;
  return { outcome, ran, manual };
}

describe('testAndFix: run the tests and fix what fails, without a model (issue 29, item 3)', () => {
  it('knows a fix of what the command before reported', () => {
    for (const text of [
      'Fix the failures',
      'fix what it reports',
      'Resolve any type errors',
      'make them pass',
      'If any fail, fix them',
      'fix whatever fails',
    ]) {
      assert.equal(fixesCommandOutput(text), true, text);
    }
    for (const text of ['Fix the login bug in src/auth.ts', 'Update the docs', 'Make the logo bigger']) assert.equal(fixesCommandOutput(text), false, text);
  });

  it('runs the tests before a request for green tests, when the test command is known and nothing ran them yet', () => {
    assert.deepEqual(
      withTestRuns(['Make the tests pass'], [false], ['pytest'], () => false),
      { parts: ['Run the tests', 'Make the tests pass'], follows: [false, true] },
    );
    assert.deepEqual(withTestRuns(['Make the tests pass'], [false], undefined, () => false), { parts: ['Make the tests pass'], follows: [false] });
    assert.deepEqual(withTestRuns(['Run pytest', 'Make the tests pass'], [false, true], ['pytest'], (index) => index === 0).parts, [
      'Run pytest',
      'Make the tests pass',
    ]);
  });

  it('makes the fix wait for the command, read its output and run it again as its check', () => {
    const command = { id: 'S001', call: { tool: 'run_command' as const, args: { argv: ['npm', 'test'], cwd: 'web' } } };
    const fix = fixStep(makeStep('S002', { kind: 'manual', agent: undefined, title: 'Fix the failures', input: 'Fix the failures' }), command, false);
    assert.deepEqual(fix.dependsOn, ['S001']);
    assert.equal(
      fix.input,
      'Fix the failures\n\nWhat `npm test` printed (exit code {{results.S001.exitCode}}):\n{{results.S001.stdout}}\n{{results.S001.stderr}}',
    );
    assert.deepEqual(fix.checks, [{ kind: 'command', argv: ['npm', 'test'], cwd: 'web' }]);
    assert.equal(fix.when, 'depends["S001"].exitCode !== 0 || depends["S001"].timedOut === true || "`npm test` passed, nothing to fix"');
    assert.deepEqual([fix.kind, fix.agent, fix.onFailure, fix.maxAttempts, fix.onVerificationFailure], ['manual', undefined, 'stop', 1, 'stop']);
    const byAgent = fixStep(makeStep('S002', { agent: 'tester' }), command, true);
    assert.deepEqual([byAgent.kind, byAgent.agent, byAgent.maxAttempts, byAgent.onVerificationFailure], ['agent', 'tester', 3, 'retry']);
    assert.equal(fixStep(makeStep('S002', { agent: 'researcher' }), command, true).agent, 'coder');
  });

  it('plans the test step to return its output and the fix to check the tests again', () => {
    const [test, fix] = heuristicPlan('run the tests and fix the failure', { testCommand: ['pytest'] }).steps;
    assert.deepEqual([test?.tool, test?.args, test?.onFailure, test?.maxAttempts], ['run_command', { argv: ['pytest'], allowFailure: true }, 'stop', 1]);
    assert.deepEqual([fix?.kind, fix?.dependsOn, fix?.checks], ['manual', ['S001'], [{ kind: 'command', argv: ['pytest'] }]]);
    assert.match(fix?.input ?? '', /\{\{results\.S001\.stdout\}\}/);
  });

  it('a red suite does not skip the fix: the person sees the failure, fixes it, and the tests pass again', async () => {
    const { outcome, ran, manual } = await runTestAndFix('run the tests and fix the failure', [red, green]);
    assert.deepEqual(ran, [['pytest'], ['pytest']], 'the tests, then the fix check');
    assert.equal(manual.length, 1);
    assert.match(manual[0]!, /exit code 1[\s\S]*test_unicode - AssertionError[\s\S]*1 failed, 179 passed/);
    assert.equal(outcome.status, 'completed');
    assert.equal(outcome.steps['S002']?.status, 'completed');
  });

  it('a fix after which the tests still fail does not end as completed: the person is asked again, saying so, until they give up', async () => {
    const interaction = ScriptedInteraction.approvingAll();
    const answers = [{ done: true as const }, { done: false as const, reason: 'still red' }];
    const { outcome, ran, manual } = await runTestAndFix('Make the tests pass', [red, red, red], interaction, () => answers.shift() ?? { done: true });
    assert.deepEqual(ran, [['pytest'], ['pytest']], 'the check ran after the Done, not after "not done"');
    assert.equal(manual.length, 2);
    assert.match(manual[1] ?? '', /^Not done yet: /);
    assert.equal(outcome.steps['S001']?.status, 'completed', 'the test run returned its output');
    assert.equal(outcome.steps['S002']?.status, 'failed');
    assert.notEqual(outcome.status, 'completed');
  });

  it('tests green at the first try: the fix is neither asked nor run, it is not needed, and the run completes (issue 29)', async () => {
    const { outcome, ran, manual } = await runTestAndFix('run the tests and fix the failure', [green]);
    assert.deepEqual(ran, [['pytest']], 'the fix\'s check does not run either');
    assert.deepEqual(manual, [], 'the person is not asked to fix a green suite');
    assert.deepEqual(
      [outcome.steps['S002']?.status, outcome.steps['S002']?.skipCause, outcome.steps['S002']?.reason],
      ['skipped', 'condition', '`pytest` passed, nothing to fix'],
    );
    assert.equal(outcome.status, 'completed');
  });

  it('a test run that times out or is killed still asks for the fix', async () => {
    const { manual } = await runTestAndFix('run the tests and fix the failure', [{ ...green, timedOut: true }, green]);
    assert.equal(manual.length, 1);
    const killed = await runTestAndFix('run the tests and fix the failure', [{ ...green, exitCode: null, signal: 'SIGKILL' }, green]);
    assert.equal(killed.manual.length, 1);
  });

  it('a test run the user rejects is not a pass: the fix that depends on it is skipped, never asked, and the run is not completed', async () => {
    const rejecting = new ScriptedInteraction({ approvals: [{ approved: false, reason: 'not now' }] });
    const { outcome, ran, manual } = await runTestAndFix('run the tests and fix the failure', [green], rejecting);
    assert.deepEqual([ran, manual], [[], []]);
    assert.equal(outcome.steps['S002']?.status, 'skipped');
    assert.notEqual(outcome.steps['S002']?.skipCause, 'condition', 'it is not "not needed": nobody knows whether the tests pass');
    assert.notEqual(outcome.status, 'completed');
  });
});
