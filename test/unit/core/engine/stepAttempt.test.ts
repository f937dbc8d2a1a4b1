import assert from 'node:assert/strict';
import { initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import { resolveRunOptions } from '../../../../src/core/engine/resolveRunOptions';
import { RunEventSink } from '../../../../src/core/engine/runEventSink';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import type { RunOptions } from '../../../../src/core/engine/runOptions';
import { PendingChanges } from '../../../../src/core/engine/pendingChanges';
import { RunStop } from '../../../../src/core/engine/runStop';
import { attemptStep, type StepSettlement } from '../../../../src/core/engine/stepAttempt';
import { BudgetExceededError } from '../../../../src/core/llm/budget';
import { LlmError } from '../../../../src/core/llm/llmError';
import type { Step } from '../../../../src/core/plan/planSchema';
import type { Tool } from '../../../../src/core/tools/tool';
import { ApprovalRejectedError } from '../../../../src/core/tools/approvals';
import { z } from 'zod';
import { DeferredError } from '../../../../src/core/tools/deferral';
import { StepFailure } from '../../../../src/core/tools/stepFailure';
import { answeringInteraction } from '../../../fakes/answeringInteraction';
import { flushAsync, ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

const usage = { requests: 3, promptTokens: 10, completionTokens: 5, totalTokens: 15, cachedTokens: 0, costUsd: 0, savedUsd: 0, unpricedRequests: 3 };

/**
 * Runs `step` alone (after steps whose `results` are given) through `attemptStep` under
 * `stop`, with the events it emits and every settlement it reports to the loop.
 */
function attempt(step: Step, options: Partial<RunOptions> = {}, results: Record<string, unknown> = {}, stop = new RunStop()) {
  const clock = (options.clock as ManualClock | undefined) ?? new ManualClock(0, { autoAdvance: true });
  const plan = makePlan([...Object.keys(results).map((id) => makeStep(id)), step]);
  const state = initialRunState('run-1');
  state.status = 'running';
  Object.assign(state.results, results);
  const events: RunEvent[] = [];
  const resolved = resolveRunOptions(plan, { ...options, clock });
  const sink = new RunEventSink('run-1', state, resolved, new Set([(event: RunEvent) => events.push(event)]));
  const settlements: StepSettlement[] = [];
  const done = attemptStep(step, {
    runId: 'run-1',
    options: resolved,
    state,
    emit: sink.emit,
    stop,
    pendingChanges: new PendingChanges(),
    flush: sink.flush,
    settle: (settlement) => settlements.push(settlement),
  });
  return { done, events, settlements, stop, state, clock };
}

const types = (events: RunEvent[]): string[] => events.map((event) => event.type);

describe('attemptStep', () => {
  it('starts the step with its resolved input and completes it with its result, releasing its dependents', async () => {
    const seen: unknown[] = [];
    const step = makeStep('b', { input: 'use {{results.a}}', dependsOn: ['a'] });
    const { done, events, settlements } = attempt(step, { stepRunner: async (_step, ctx) => (seen.push([ctx.input, ctx.depends]), 'made b') }, { a: 'A' });
    await done;
    assert.deepEqual(seen, [['use A', { a: 'A' }]]);
    assert.deepEqual(types(events), ['step_started', 'step_completed']);
    assert.deepEqual(events[1], { type: 'step_completed', stepId: 'b', result: 'made b', runId: 'run-1', seq: 2, time: 0 });
    assert.deepEqual(settlements, [{ kind: 'completed' }]);
  });

  it('retries after the backoff on the clock, giving the next attempt the failed verification\'s diagnosis', async () => {
    const inputs: string[] = [];
    const step = makeStep('a', { maxAttempts: 2, onVerificationFailure: 'retry', verification: 'result === "good"' });
    const { done, events, settlements, clock } = attempt(step, {
      retryBaseDelayMs: 40,
      stepRunner: async (_step, ctx) => (inputs.push(ctx.input), ctx.attempt === 1 ? 'bad' : 'good'),
    });
    await done;
    assert.deepEqual(types(events), ['step_started', 'verification_failed', 'step_failed', 'step_started', 'step_completed']);
    assert.match(inputs[1] ?? '', /previous attempt failed verification/);
    assert.deepEqual(clock.sleeps, [40]);
    assert.equal(events.find((event) => event.type === 'step_started' && event.attempt === 2)?.time, 40);
    assert.deepEqual(settlements, [{ kind: 'completed' }]);
  });

  it('retries a step that threw with its input as it was, and says in the failure when the next attempt comes', async () => {
    const inputs: string[] = [];
    const { done, events, settlements } = attempt(makeStep('a', { maxAttempts: 3 }), {
      retryBaseDelayMs: 40,
      stepRunner: async (_step, ctx) => {
        inputs.push(ctx.input);
        if (ctx.attempt < 3) throw new Error(`flaky ${ctx.attempt}`);
        return undefined;
      },
    });
    await done;
    assert.deepEqual(inputs, ['do a', 'do a', 'do a']);
    const failures = events.flatMap((event) => (event.type === 'step_failed' ? [{ error: event.error, disposition: event.disposition, retryInMs: event.retryInMs }] : []));
    assert.deepEqual(failures, [
      { error: 'flaky 1', disposition: 'retry', retryInMs: 40 },
      { error: 'flaky 2', disposition: 'retry', retryInMs: 80 },
    ]);
    assert.deepEqual(events.at(-1), { type: 'step_completed', stepId: 'a', result: null, runId: 'run-1', seq: 6, time: 120 }, 'a step that returns nothing completes with null');
    assert.deepEqual(settlements, [{ kind: 'completed' }]);
  });

  it('does not retry what another attempt cannot fix: a StepFailure that says so, a model error that is not transient', async () => {
    for (const error of [new StepFailure('The review was rejected.', false), new LlmError('The API key was refused.', 'auth', 401, 1)]) {
      const { done, events, settlements } = attempt(makeStep('a', { maxAttempts: 3, critical: false }), { stepRunner: async () => Promise.reject(error) });
      await done;
      assert.deepEqual(types(events), ['step_started', 'step_failed'], error.message);
      assert.deepEqual(settlements, [{ kind: 'dropped' }]);
    }
    const transient = attempt(makeStep('a', { maxAttempts: 2, critical: false }), { stepRunner: async () => Promise.reject(new LlmError('The server is busy.', 'rate_limited', 429, 3)) });
    await transient.done;
    assert.deepEqual(types(transient.events), ['step_started', 'step_failed', 'step_started', 'step_failed']);
  });

  it('marks a failure that asks for a repair plan, and cuts a long error message', async () => {
    const { done, events, settlements } = attempt(makeStep('a', { onFailure: 'replan' }), { stepRunner: async () => Promise.reject(new Error('x'.repeat(20_000))) });
    await done;
    const failed = events.find((event) => event.type === 'step_failed');
    assert.equal(failed?.type === 'step_failed' && failed.replan, true);
    assert.ok(failed?.type === 'step_failed' && failed.error.length < 10_000);
    assert.deepEqual(settlements, [{ kind: 'dropped' }], 'a repair plan is asked for, the run is not halted');
  });

  it('checks the condition and warns of unfilled placeholders once, not on every attempt', async () => {
    let calls = 0;
    const step = makeStep('b', { when: 'depends.a === "yes"', dependsOn: ['a'], input: 'use {{results.zz}}', maxAttempts: 2, critical: false });
    const { done, events } = attempt(step, { retryBaseDelayMs: 1, stepRunner: async () => Promise.reject(new Error(`flaky ${++calls}`)) }, { a: 'yes' });
    await done;
    assert.equal(calls, 2);
    assert.deepEqual(types(events), ['step_warning', 'step_started', 'step_failed', 'step_started', 'step_failed']);
  });

  it('fails a step whose condition broke under its error policy, not its verification policy', async () => {
    const step = makeStep('a', { when: 'nope(', onFailure: 'skip', onVerificationFailure: 'stop', critical: true });
    const { done, settlements } = attempt(step, { stepRunner: async () => 'x' });
    await done;
    assert.deepEqual(settlements, [{ kind: 'dropped' }], 'skipped, not halting the run');
  });

  it('emits nothing more when the run stops while the condition or the verification is evaluated', async () => {
    const checking = attempt(makeStep('a', { when: 'true' }), { stepRunner: async () => 'x' });
    checking.stop.stop(new Error('Stop.'));
    await checking.done;
    assert.deepEqual(checking.events, []);
    assert.deepEqual(checking.settlements, []);

    const running = new RunStop();
    // The verification reads the result, and reading it stops the run: a stop while it is evaluated.
    const stopsWhenRead = { get value() {
      running.stop(new Error('Stop.'));
      return 1;
    } };
    const verifying = attempt(makeStep('a', { verification: 'result.value === 1' }), { stepRunner: async () => stopsWhenRead }, {}, running);
    await verifying.done;
    assert.deepEqual(types(verifying.events), ['step_started']);
    assert.deepEqual(verifying.settlements, []);
  });

  it('does not run a step with a timeoutMs once the run has stopped, nor hang when the attempt stops the run as it starts', async () => {
    let ran = 0;
    const stop = new RunStop();
    stop.stop(new Error('Stop.'));
    const stopped = attempt(makeStep('a', { timeoutMs: 50 }), { stepRunner: async () => (ran++, 'x') }, {}, stop);
    await stopped.done;
    assert.equal(ran, 0);
    assert.deepEqual(stopped.settlements, []);

    const running = new RunStop();
    const selfStopping = attempt(
      makeStep('a', { timeoutMs: 50 }),
      {
        clock: new ManualClock(0),
        stepRunner: () => {
          running.stop(new Error('Stop.'));
          return new Promise<never>(() => undefined);
        },
      },
      {},
      running,
    );
    await selfStopping.done;
    assert.deepEqual(types(selfStopping.events), ['step_started']);
  });

  it('journals no file change a tool reports after the run stopped', async () => {
    let finish: () => void = () => undefined;
    const slowWrite: Tool<{ path: string }> = {
      name: 'slow_write',
      description: 'records a change late',
      inputSchema: z.object({ path: z.string() }),
      effects: 'read',
      run: async (ctx, input) => {
        await new Promise<void>((resolve) => (finish = resolve));
        await ctx.checkpoints?.record({ runId: ctx.runId, stepId: ctx.stepId, path: input.path, operation: 'write', before: { exists: false }, afterSha256: 'abc' });
        return 'written';
      },
    };
    const step = makeStep('a', { kind: 'tool', tool: 'slow_write', args: { path: 'a.txt' } });
    const { done, events, stop } = attempt(step, { tools: [slowWrite] });
    await flushAsync();
    stop.stop(new Error('Stop.'));
    await done;
    finish();
    await flushAsync();
    assert.deepEqual(types(events), ['step_started']);
  });

  it('settles a critical step that failed for good as dropped with a halt naming the error', async () => {
    const { done, events, settlements } = attempt(makeStep('a'), { stepRunner: async () => Promise.reject(new Error('disk full')) });
    await done;
    assert.deepEqual(events[1], { type: 'step_failed', stepId: 'a', attempt: 1, error: 'disk full', disposition: 'fail', runId: 'run-1', seq: 2, time: 0 }, 'no retry delay, no repair plan');
    assert.deepEqual(settlements, [{ kind: 'dropped', halt: { detail: 'disk full' } }]);
  });

  it('settles a non-critical failure as dropped without halting the run', async () => {
    const { done, settlements } = attempt(makeStep('a', { critical: false }), { stepRunner: async () => Promise.reject(new Error('disk full')) });
    await done;
    assert.deepEqual(settlements, [{ kind: 'dropped' }]);
  });

  it('skips a step the user rejected (its dependents are skipped, your reason kept on it alone) and never halts the run, critical or not', async () => {
    const rejected = async () => Promise.reject(new ApprovalRejectedError('the write of a.txt', 'not now'));
    const critical = attempt(makeStep('a'), { stepRunner: rejected });
    await critical.done;
    assert.deepEqual(critical.events.at(-1), { type: 'step_skipped', stepId: 'a', reason: 'Rejected by you: not now', cause: 'rejected', runId: 'run-1', seq: 2, time: 0 });
    assert.deepEqual(critical.settlements, [{ kind: 'dropped' }]);
    const silent = attempt(makeStep('a', { critical: false }), { stepRunner: async () => Promise.reject(new ApprovalRejectedError('the write of a.txt', undefined)) });
    await silent.done;
    assert.deepEqual(silent.settlements, [{ kind: 'dropped' }]);
    const optional = attempt(makeStep('a', { critical: false, maxAttempts: 3 }), { stepRunner: rejected });
    await optional.done;
    assert.deepEqual(types(optional.events), ['step_started', 'step_skipped'], 'a rejection is never retried');
    assert.deepEqual(optional.settlements, [{ kind: 'dropped' }]);
  });

  it('skips a step whose condition is not met without starting it', async () => {
    let ran = false;
    const { done, events, settlements } = attempt(makeStep('b', { when: 'depends.a === "yes"', dependsOn: ['a'] }), { stepRunner: async () => (ran = true) }, { a: 'no' });
    await done;
    assert.equal(ran, false);
    assert.deepEqual(events.map((event) => (event.type === 'step_skipped' ? event.reason : event.type)), ['its condition `depends.a === "yes"` is not met']);
    assert.deepEqual(settlements, [{ kind: 'dropped' }]);
  });

  it('skips a step whose condition says in its own words why it is not needed, with those words as the reason', async () => {
    let ran = false;
    const when = 'depends.a.exitCode !== 0 || "`pytest` passed, nothing to fix"';
    const { done, events } = attempt(makeStep('b', { when, dependsOn: ['a'] }), { stepRunner: async () => (ran = true) }, { a: { exitCode: 0 } });
    await done;
    assert.equal(ran, false);
    assert.deepEqual(
      events.map((event) => (event.type === 'step_skipped' ? [event.reason, event.cause] : event.type)),
      [['`pytest` passed, nothing to fix', 'condition']],
    );
    const red = attempt(makeStep('b', { when, dependsOn: ['a'] }), { stepRunner: async () => 'fixed' }, { a: { exitCode: 1 } });
    await red.done;
    assert.deepEqual(types(red.events), ['step_started', 'step_completed']);
  });

  it('fails a step whose condition cannot be evaluated, without retrying it', async () => {
    const { done, events, settlements } = attempt(makeStep('a', { when: 'nope(', maxAttempts: 3, critical: false }), { stepRunner: async () => 'x' });
    await done;
    const failed = events.find((event) => event.type === 'step_failed');
    assert.match(failed?.type === 'step_failed' ? failed.error : '', /^The step's condition could not be evaluated: /);
    assert.deepEqual(types(events), ['step_failed']);
    assert.deepEqual(settlements, [{ kind: 'dropped' }]);
  });

  it('leaves a step that deferred its request waiting on it, without settling it', async () => {
    const { done, events, settlements, state } = attempt(makeStep('a', { kind: 'clarification', input: 'Which colour?' }), { interaction: answeringInteraction({}) });
    await done;
    assert.deepEqual(types(events), ['step_started', 'clarification_requested', 'step_deferred']);
    assert.equal(state.steps.a?.pending?.prompt, 'Which colour?');
    assert.deepEqual(settlements, []);
  });

  it('journals the request of a step that deferred by throwing, with its message as the prompt', async () => {
    const { done, events, settlements, state } = attempt(makeStep('a'), { stepRunner: async () => Promise.reject(new DeferredError('review', 'a')) });
    await done;
    assert.deepEqual(types(events), ['step_started', 'review_requested', 'step_deferred']);
    assert.equal(state.steps.a?.pending?.kind, 'review');
    assert.equal(state.steps.a?.pending?.prompt, 'Step a waits for a review; resume the run to give it.');
    assert.deepEqual(settlements, []);
  });

  it('fails a step that defers a request no step can ask (a budget deferral from another copy of the engine) instead of waiting on an approval never asked', async () => {
    // A budget pause is a BudgetExceededError; a DeferredError of kind budget cannot be made here (see deferral.test.ts), only arrive from another bundle.
    const foreign = Object.assign(new Error('Step a waits for a higher LLM budget; resume the run to give it.'), { name: 'DeferredError', kind: 'budget', stepId: 'a' });
    const { done, events, settlements, state } = attempt(makeStep('a'), { stepRunner: async () => Promise.reject(foreign) });
    await done;
    assert.deepEqual(types(events), ['step_started', 'step_failed']);
    assert.equal(state.steps.a?.pending, undefined);
    assert.equal(state.steps.a?.error, 'Step a waits for a higher LLM budget; resume the run to give it.');
    assert.deepEqual(settlements, [{ kind: 'dropped', halt: { detail: 'Step a waits for a higher LLM budget; resume the run to give it.' } }]);
  });

  it('pauses a step whose model budget ran out, recording the usage, until the budget is raised', async () => {
    const exhaustion = { limit: 'requests' as const, used: 3, max: 3, message: 'The run used its 3 model requests.' };
    const { done, events, settlements, state } = attempt(makeStep('a'), { stepRunner: async () => Promise.reject(new BudgetExceededError(exhaustion, usage)) });
    await done;
    assert.deepEqual(types(events), ['step_started', 'budget_exhausted', 'step_deferred']);
    assert.deepEqual(state.budgetUsage, usage);
    assert.equal(state.steps.a?.pending?.kind, 'budget');
    assert.equal(state.steps.a?.status, 'awaiting_budget');
    assert.deepEqual(settlements, []);
  });

  it('ends at once when the run stops, even if the attempt ignores its signal, and emits nothing more', async () => {
    let late: (() => void) | undefined;
    const { done, events, settlements, stop } = attempt(makeStep('a'), {
      stepRunner: (_step, ctx) => {
        late = () => ctx.output('late output');
        return new Promise<never>(() => undefined);
      },
    });
    await flushAsync();
    assert.deepEqual(types(events), ['step_started']);
    stop.stop(new Error('cancelled'));
    await done;
    late?.();
    assert.deepEqual(types(events), ['step_started']);
    assert.deepEqual(settlements, []);
  });

  it('fails an attempt that outlives the step\'s timeoutMs, as a retryable failure', async () => {
    const clock = new ManualClock(0);
    const step = makeStep('a', { timeoutMs: 50, maxAttempts: 2, critical: false });
    const { done, events, settlements } = attempt(step, { clock, retryBaseDelayMs: 10, stepRunner: () => new Promise<never>(() => undefined) });
    await flushAsync();
    await clock.advance(50);
    await clock.advance(10);
    await clock.advance(50);
    await done;
    const errors = events.flatMap((event) => (event.type === 'step_failed' ? [[event.error, event.disposition]] : []));
    assert.deepEqual(errors, [
      ['Step a timed out after 50 ms; raise its timeoutMs or make it faster.', 'retry'],
      ['Step a timed out after 50 ms; raise its timeoutMs or make it faster.', 'skip'],
    ]);
    assert.deepEqual(settlements, [{ kind: 'dropped' }]);
  });

  it('leaves no timer behind once an attempt with a timeoutMs ends, and ends such an attempt at once when the run stops', async () => {
    const clock = new ManualClock(0);
    const quick = attempt(makeStep('a', { timeoutMs: 50 }), { clock, stepRunner: async () => 'fast' });
    await quick.done;
    assert.deepEqual(quick.settlements, [{ kind: 'completed' }]);
    assert.equal(clock.pendingCount, 0, 'the timeout timer is cleared (a real one would keep the process alive)');

    let seen: AbortSignal | undefined;
    const hung = attempt(makeStep('b', { timeoutMs: 50 }), {
      clock,
      stepRunner: (_step, ctx) => {
        seen = ctx.signal;
        return new Promise<never>(() => undefined);
      },
    });
    await flushAsync();
    hung.stop.stop(new Error('cancelled'));
    await hung.done;
    assert.equal((seen?.reason as Error | undefined)?.message, 'cancelled', 'the attempt is told why it stopped');
    assert.deepEqual(types(hung.events), ['step_started']);
    assert.equal(clock.pendingCount, 0);
  });

  it('keeps an attempt\'s output whole up to the cap, then says it was cut', async () => {
    const { done, events } = attempt(makeStep('a'), {
      stepRunner: async (_step, ctx) => {
        ctx.output('x'.repeat(999_999));
        ctx.output('y');
        ctx.output('z');
        return 'ok';
      },
    });
    await done;
    const outputs = events.flatMap((event) => (event.type === 'step_output' ? [event.text] : []));
    assert.equal(outputs.length, 3);
    assert.equal(outputs[0]?.length, 999_999);
    assert.equal(outputs[1], 'y');
    assert.equal(outputs[2], '\n… (output cut: more than 1000000 characters in this attempt)\n');
  });

  it('cuts an attempt\'s output after the cap and drops the rest of it', async () => {
    const { done, events } = attempt(makeStep('a'), {
      stepRunner: async (_step, ctx) => {
        ctx.output('x'.repeat(1_000_100));
        ctx.output('more');
        return 'ok';
      },
    });
    await done;
    const outputs = events.flatMap((event) => (event.type === 'step_output' ? [event.text] : []));
    assert.equal(outputs.length, 1);
    assert.match(outputs[0] ?? '', /… \(output cut: more than \d+ characters in this attempt\)\n$/);
    assert.ok((outputs[0]?.length ?? 0) < 1_000_100);
  });
});
