import assert from 'node:assert/strict';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { CommandRunner } from '../../../../src/core/commandPorts';
import { commandApprovalText } from '../../../../src/core/tools/commandApprovalText';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction, type InteractionScript } from '../../../fakes/scriptedInteraction';
import { makePlan, makeStep } from '../../../support/randomPlans';

/** A runner whose command fails every time, as a flaky upload does. */
const failingRunner: CommandRunner = {
  describeCwd: async (cwd) => `/ws/${cwd}`,
  run: async () => ({ exitCode: 1, signal: null, stdout: '', stderr: 'upload failed: connection refused (assert 1 == 2)', timedOut: false, truncated: false, durationMs: 1 }),
};

async function runTests(script: InteractionScript) {
  const plan = makePlan([
    makeStep('T', { kind: 'tool', agent: undefined, input: undefined, tool: 'run_command', args: { argv: ['./upload.sh'] }, onFailure: 'retry', maxAttempts: 3, critical: true }),
  ]);
  const interaction = new ScriptedInteraction(script);
  const result = await runPlan(plan, {
    idSource: () => 'r',
    workspace: createMemoryWorkspace({}),
    tools: builtinTools(),
    commandRunner: failingRunner,
    interaction,
    clock: new ManualClock(0, { autoAdvance: true }),
    retryBaseDelayMs: 0,
  }).result;
  return { result, interaction };
}

describe('a failing command under retry: which attempt asks, and why the one before failed', () => {
  it('the second approval says "attempt 2 of 3" and the last error; the first says neither', async () => {
    const { interaction } = await runTests({ approvals: [{ approved: true }, { approved: true }, { approved: true }] });
    const [first, second, third] = interaction.approvals();
    assert.equal(first?.retry, undefined);
    assert.equal(second?.retry?.attempt, 2);
    assert.equal(second?.retry?.of, 3);
    assert.match(second?.retry?.lastError ?? '', /assert 1 == 2/);
    assert.equal(third?.retry?.attempt, 3);
    assert.equal(first?.requestId, second?.requestId, 'the same command is the same request: an answer stays bound to what is shown');
    const text = second?.kind === 'command' ? commandApprovalText(second) : undefined;
    assert.match(text?.message ?? '', /wants to run a command again \(attempt 2 of 3\)\.$/);
    assert.match(text?.detail ?? '', /\nAttempt 2 of 3\. Attempt 1 failed: .*assert 1 == 2/);
  });

  it('a rejected retry keeps the real cause: the step failed because of it, then the retry was rejected', async () => {
    const { result } = await runTests({ approvals: [{ approved: true }, { approved: false, reason: 'rejected in the command dialog' }] });
    const step = result.steps['T'];
    assert.equal(step?.status, 'failed');
    assert.match(step?.error ?? '', /connection refused.*Its retry \(attempt 2 of 3\) was rejected by you/s);
    assert.match(result.metadata.reason ?? '', /^Critical step T failed: .*connection refused.*Its retry \(attempt 2 of 3\) was rejected by you/s);
  });

  it('a rejection of the first attempt keeps its meaning: skipped, rejected by the user', async () => {
    const { result } = await runTests({ approvals: [{ approved: false }] });
    assert.equal(result.steps['T']?.skipCause, 'rejected');
  });
});
