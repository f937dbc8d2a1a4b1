import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { applyRunEvent, initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import { resolveRunOptions } from '../../../../src/core/engine/resolveRunOptions';
import { executeRun, type StepRunner } from '../../../../src/core/engine/runEngine';
import type { RunEvent, RunState } from '../../../../src/core/engine/runEvents';
import type { RunOptions } from '../../../../src/core/engine/runOptions';
import { runInterruption } from '../../../../src/core/engine/runInterruption';
import type { StepRun } from '../../../../src/core/engine/stepAttempt';
import type { Plan, Step } from '../../../../src/core/plan/planSchema';
import type { JournalSnapshot } from '../../../../src/core/runStorePorts';
import type { Logger } from '../../../../src/core/servicePorts';
import { flushAsync, ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

/** A stand-in for `attemptStep`: starts the step, then does what `end` says (completing it by default). */
function scripted(end: (step: Step, run: StepRun) => Promise<void> | void = complete): StepRunner & { started: string[] } {
  const started: string[] = [];
  const runner = async (step: Step, run: StepRun): Promise<void> => {
    started.push(step.id);
    run.emit({ type: 'step_started', stepId: step.id, attempt: 1 });
    await end(step, run);
  };
  return Object.assign(runner, { started });
}

function complete(step: Step, run: StepRun): void {
  run.emit({ type: 'step_completed', stepId: step.id, result: `${step.id} done` });
  run.settle({ kind: 'completed' });
}

function fail(step: Step, run: StepRun, halt: boolean): void {
  run.emit({ type: 'step_failed', stepId: step.id, attempt: 1, error: 'boom', disposition: halt ? 'fail' : 'skip' });
  run.settle({ kind: 'dropped', ...(halt ? { halt: { detail: 'boom' } } : {}) });
}

/** Runs `plan` through the loop alone, with `runner` for every step. */
function loop(plan: Plan, runner: StepRunner, options: Partial<RunOptions> & { cancel?: AbortSignal; initialResults?: Record<string, unknown>; state?: RunState } = {}) {
  const events: RunEvent[] = [];
  const listeners = new Set<(event: RunEvent) => void>([(event) => events.push(event)]);
  const result = executeRun(
    {
      runId: 'run-1',
      state: options.state ?? initialRunState('run-1'),
      options: resolveRunOptions(plan, { clock: new ManualClock(0, { autoAdvance: true }), ...options }),
      opening: options.state ? { type: 'run_resumed', supplied: {} } : { type: 'run_started', plan },
      ...(options.initialResults ? { initialResults: options.initialResults } : {}),
    },
    { listeners, signal: options.cancel ?? new AbortController().signal, exposeState: () => undefined },
    runner,
  );
  return { result, events };
}

const skips = (events: RunEvent[]): string[] => events.flatMap((event) => (event.type === 'step_skipped' ? [`${event.stepId}: ${event.reason}`] : []));
const last = (events: RunEvent[]): RunEvent | undefined => events.at(-1);

describe('executeRun (the loop, with a stand-in for the step)', () => {
  it('starts each step once its dependencies completed, best-ranked first, and completes the run', async () => {
    const plan = makePlan([makeStep('x'), makeStep('chain1'), makeStep('chain2', { dependsOn: ['chain1'] }), makeStep('y', { dependsOn: ['x', 'chain2'] })]);
    const runner = scripted();
    const { result, events } = loop(plan, runner, { maxConcurrency: 1 });
    const run = await result;
    assert.equal(run.status, 'completed');
    assert.deepEqual(runner.started, ['chain1', 'x', 'chain2', 'y'], 'the longest path first, then plan order');
    assert.deepEqual(run.results, { x: 'x done', chain1: 'chain1 done', chain2: 'chain2 done', y: 'y done' });
    assert.equal(last(events)?.type, 'run_completed');
    assert.deepEqual(events.map((event) => event.seq), events.map((_event, index) => index + 1), 'seq counts every event from 1');
  });

  it('never runs more than maxConcurrency steps at once', async () => {
    const plan = makePlan(['a', 'b', 'c', 'd', 'e'].map((id) => makeStep(id)));
    let running = 0;
    let peak = 0;
    const runner = scripted(async (step, run) => {
      peak = Math.max(peak, ++running);
      await flushAsync();
      running--;
      complete(step, run);
    });
    assert.equal((await loop(plan, runner, { maxConcurrency: 2 }).result).status, 'completed');
    assert.equal(peak, 2);
    assert.equal(runner.started.length, 5);
  });

  it('skips everything downstream of a dropped step, naming the step it waited on (your reason stays on the step you rejected), and ends failed or completed by what failed', async () => {
    const plan = makePlan([makeStep('a', { critical: false }), makeStep('b', { dependsOn: ['a'] }), makeStep('c', { dependsOn: ['b'] }), makeStep('d')]);
    const rejected = scripted((step, run) => {
      if (step.id !== 'a') return complete(step, run);
      run.emit({ type: 'step_skipped', stepId: 'a', reason: 'Rejected by you: no', cause: 'rejected' });
      run.settle({ kind: 'dropped' });
    });
    const { result, events } = loop(plan, rejected);
    const run = await result;
    assert.deepEqual(skips(events), ['a: Rejected by you: no', 'b: dependency a was rejected', 'c: dependency b was skipped']);
    assert.deepEqual(rejected.started, ['a', 'd']);
    assert.equal(run.status, 'partial', 'skipped steps do not fail a run, nor does it complete with their work undone');
    assert.equal(run.metadata.reason, 'Step a was rejected by you; steps b, c were skipped.');

    const replanning = scripted((step, run) => {
      if (step.id !== 'a') return complete(step, run);
      run.emit({ type: 'step_failed', stepId: 'a', attempt: 1, error: 'boom', disposition: 'fail', replan: true });
      run.settle({ kind: 'dropped' });
    });
    const failed = loop(makePlan([makeStep('a', { critical: false, onFailure: 'replan' }), makeStep('b', { dependsOn: ['a'] }), makeStep('c')]), replanning);
    const failedRun = await failed.result;
    assert.equal(failedRun.status, 'failed');
    assert.equal(failedRun.metadata.reason, 'Step a failed and asked for a repair plan.');
    assert.deepEqual(skips(failed.events), ['b: dependency a failed']);
    assert.equal(failedRun.steps.c?.status, 'completed');
  });

  it('says a dependency that failed and was skipped by its failure policy failed, not that it was skipped', async () => {
    const plan = makePlan([makeStep('a', { critical: false }), makeStep('b', { dependsOn: ['a'] })]);
    const { result, events } = loop(plan, scripted((step, run) => (step.id === 'a' ? fail(step, run, false) : complete(step, run))));
    await result;
    assert.deepEqual(skips(events), ['b: dependency a failed']);
  });

  it('halts the run after a critical step: running steps are stopped, nothing else starts, every unfinished step is skipped', async () => {
    const plan = makePlan([makeStep('a'), makeStep('slow'), makeStep('later', { dependsOn: ['slow'] }), makeStep('queued')]);
    let slowSignal: AbortSignal | undefined;
    const runner = scripted(async (step, run) => {
      if (step.id === 'slow') {
        slowSignal = run.stop.signal;
        await run.stop.race(() => new Promise<never>(() => undefined)).catch(() => undefined);
        return;
      }
      await flushAsync();
      fail(step, run, true);
    });
    const { result, events } = loop(plan, runner, { maxConcurrency: 2 });
    const run = await result;
    assert.equal(run.status, 'failed');
    assert.equal(run.metadata.reason, 'Critical step a failed: boom');
    assert.equal(slowSignal?.aborted, true);
    assert.deepEqual(runner.started, ['slow', 'a'], 'the longer path first');
    assert.deepEqual(skips(events).sort(), [
      'later: run halted because critical step a failed',
      'queued: run halted because critical step a failed',
      'slow: run halted because critical step a failed',
    ]);
  });

  it('cancels: stops running steps, starts no other, and ends cancelled (interrupted when the host went away)', async () => {
    for (const [reason, interrupted] of [[new Error('Stop it.'), undefined], [runInterruption('The window reloaded.'), true]] as const) {
      const cancel = new AbortController();
      const plan = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] })]);
      const runner = scripted(async (_step, run) => {
        cancel.abort(reason);
        await run.stop.race(() => new Promise<never>(() => undefined)).catch(() => undefined);
      });
      const { result, events } = loop(plan, runner, { cancel: cancel.signal });
      const run = await result;
      assert.equal(run.status, interrupted ? 'interrupted' : 'cancelled');
      assert.deepEqual(runner.started, ['a']);
      assert.deepEqual(last(events), { type: 'run_cancelled', reason: reason.message, ...(interrupted ? { interrupted } : {}), runId: 'run-1', seq: events.length, time: 0 });
    }
  });

  it('fails a step whose runner throws, as an internal error, and skips its dependents', async () => {
    const plan = makePlan([makeStep('a', { critical: false }), makeStep('b', { dependsOn: ['a'] })]);
    const { result, events } = loop(plan, async () => Promise.reject(new Error('bug')));
    const run = await result;
    assert.equal(run.steps.a?.status, 'failed');
    assert.equal(run.steps.a?.error, 'Internal error: bug');
    assert.deepEqual(skips(events), ['b: dependency a failed']);
    assert.equal(run.metadata.reason, 'Step a failed.');
  });

  it('ends waiting on the requests of steps left waiting, and failed when steps never became ready', async () => {
    const plan = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] })]);
    const waiting = loop(plan, (step, run) => {
      run.emit({ type: 'step_started', stepId: step.id, attempt: 1 });
      run.emit({ type: 'approval_requested', stepId: step.id, request: { id: 'a@1', fingerprint: 'f', stepId: step.id, kind: 'approval', prompt: 'May I?' } });
      run.emit({ type: 'step_deferred', stepId: step.id });
      return Promise.resolve();
    });
    const run = await waiting.result;
    assert.equal(run.status, 'waiting');
    assert.deepEqual(run.pending?.map((request) => request.prompt), ['May I?']);

    const forgotten = await loop(plan, async () => undefined).result;
    assert.equal(forgotten.status, 'failed');
    assert.equal(forgotten.metadata.reason, 'Steps a, b could not start.');
  });

  it('counts given results as completed and skips what the plan skips or what follows it, before starting anything', async () => {
    const plan = makePlan([makeStep('given'), makeStep('off', { skipped: true }), makeStep('after', { dependsOn: ['off'] }), makeStep('next', { dependsOn: ['given'] })]);
    const runner = scripted();
    const { result, events } = loop(plan, runner, { initialResults: { given: 42, unknown: 1 } });
    const run = await result;
    assert.deepEqual(runner.started, ['next']);
    assert.equal(run.results.given, 42);
    assert.equal('unknown' in run.results, false, 'results of steps not in the plan are ignored');
    assert.deepEqual(skips(events), ['off: skipped in the plan', 'after: dependency off was skipped']);
  });

  it('says a task ticked in its task file is done there, not skipped in the plan (a newcomer\'s trial)', async () => {
    const ticked = 'Write the notes\n\nFrom TODO.md, line 3:\n- Section: Docs\n- Done in the source file: yes';
    const forged = '- Done in the source file: yes';
    const plan = makePlan([makeStep('done', { skipped: true, input: ticked }), makeStep('off', { skipped: true, input: forged })]);
    const { result, events } = loop(plan, scripted());
    await result;
    assert.deepEqual(skips(events), ['done: done in the source file', 'off: skipped in the plan']);
    assert.deepEqual(events.flatMap((event) => (event.type === 'step_skipped' ? [event.cause] : [])), ['source', 'plan']);
  });

  it('fails at once with the preflight error and runs nothing', async () => {
    const plan = makePlan([makeStep('a')]);
    const runner = scripted();
    const events: RunEvent[] = [];
    const run = await executeRun(
      { runId: 'run-1', state: initialRunState('run-1'), options: resolveRunOptions(plan, { clock: new ManualClock() }), opening: { type: 'run_started', plan }, preflightError: 'The plan is invalid: a: bad.' },
      { listeners: new Set([(event: RunEvent) => events.push(event)]), signal: new AbortController().signal, exposeState: () => undefined },
      runner,
    );
    assert.equal(run.status, 'failed');
    assert.equal(run.metadata.reason, 'The plan is invalid: a: bad.');
    assert.deepEqual(runner.started, []);
    assert.deepEqual(events.map((event) => event.type), ['run_started', 'run_failed']);
  });

  it('starts the costliest path first when steps have costs', async () => {
    const plan = makePlan([makeStep('cheap'), makeStep('costly')]);
    const runner = scripted();
    await loop(plan, runner, { maxConcurrency: 1, stepCost: (step) => (step.id === 'costly' ? 10 : 1) }).result;
    assert.deepEqual(runner.started, ['costly', 'cheap']);
  });

  it('journals given results as restored, not run', async () => {
    const plan = makePlan([makeStep('given'), makeStep('next', { dependsOn: ['given'] })]);
    const { result, events } = loop(plan, scripted(), { initialResults: { given: 42 } });
    await result;
    assert.deepEqual(events.find((event) => event.type === 'step_completed'), { type: 'step_completed', stepId: 'given', result: 42, restored: true, runId: 'run-1', seq: 2, time: 0 });
  });

  it('on resume, skips the steps after a failed or skipped one with the reason, and runs the rest', async () => {
    const plan = makePlan([
      makeStep('failed', { critical: false }),
      makeStep('dropped', { critical: false }),
      makeStep('afterFailed', { dependsOn: ['failed'] }),
      makeStep('afterDropped', { dependsOn: ['dropped'] }),
      makeStep('free'),
    ]);
    const state = initialRunState('run-1');
    let seq = 0;
    const fold = (body: Parameters<StepRun['emit']>[0]) => applyRunEvent(state, Object.assign(body, { runId: 'run-1', seq: ++seq, time: 0 }));
    fold({ type: 'run_started', plan });
    fold({ type: 'step_started', stepId: 'failed', attempt: 1 });
    fold({ type: 'step_failed', stepId: 'failed', attempt: 1, error: 'boom', disposition: 'fail' });
    fold({ type: 'step_skipped', stepId: 'dropped', reason: 'its condition is not met' });
    fold({ type: 'run_cancelled', reason: 'Stop.' });
    const runner = scripted();
    const { result, events } = loop(plan, runner, { state });
    await result;
    assert.deepEqual(skips(events), ['afterFailed: dependency failed failed', 'afterDropped: dependency dropped was skipped']);
    assert.deepEqual(runner.started, ['free']);
  });

  it('names a critical step\'s halt without a detail when there is none', async () => {
    const plan = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] })]);
    const { result, events } = loop(plan, (step, run) => {
      run.emit({ type: 'step_failed', stepId: step.id, attempt: 1, error: '', disposition: 'fail' });
      run.settle({ kind: 'dropped', halt: { detail: undefined } });
      return Promise.resolve();
    });
    const run = await result;
    assert.equal(run.metadata.reason, 'Critical step a failed');
    assert.deepEqual(skips(events), ['b: dependency a failed']);
  });

  it('starts no queued step once cancelled', async () => {
    const cancel = new AbortController();
    const plan = makePlan([makeStep('a'), makeStep('b')]);
    const runner = scripted(async (step, run) => {
      cancel.abort(new Error('Stop.'));
      await flushAsync();
      complete(step, run);
    });
    const run = await loop(plan, runner, { maxConcurrency: 1, cancel: cancel.signal }).result;
    assert.deepEqual(runner.started, ['a']);
    assert.equal(run.status, 'cancelled');
    assert.equal(run.steps.a?.status, 'completed', 'a step that finished anyway keeps its result');
  });

  it('counts an error from a step that has ended, or after the run stopped, as nothing', async () => {
    const plan = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] })]);
    const ended = await loop(plan, async (step, run) => {
      complete(step, run);
      throw new Error('late bug');
    }).result;
    assert.equal(ended.status, 'completed');

    const cancel = new AbortController();
    const { result, events } = loop(makePlan([makeStep('a')]), async () => {
      cancel.abort(new Error('Stop.'));
      throw new Error('stopped bug');
    }, { cancel: cancel.signal });
    const run = await result;
    assert.equal(run.status, 'cancelled');
    assert.equal(events.some((event) => event.type === 'step_failed'), false);
  });

  it('reports an internal error at the attempt it happened in, as a failure that is not retried', async () => {
    const { result, events } = loop(makePlan([makeStep('a', { critical: false, maxAttempts: 3 })]), async (step, run) => {
      run.emit({ type: 'step_started', stepId: step.id, attempt: 2 });
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the case under test: a thrown value that is not an Error
      throw 'not an Error';
    });
    await result;
    const failed = events.find((event) => event.type === 'step_failed');
    assert.deepEqual(failed, { type: 'step_failed', stepId: 'a', attempt: 2, error: 'Internal error: not an Error', disposition: 'fail', runId: 'run-1', seq: 4, time: 0 });
  });

  it('attack: starts no step before the run\'s opening is stored (a crash then left changes of a run with no plan to resume)', async () => {
    const store = createMemoryRunStore();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const stored: string[] = [];
    const slow = {
      ...store,
      append: async (runId: string, entries: Parameters<typeof store.append>[1]) => {
        await gate;
        stored.push(...entries.map((entry) => String(entry['type'])));
        return store.append(runId, entries);
      },
    };
    const runner = scripted();
    const { result } = loop(makePlan([makeStep('a'), makeStep('b')]), runner, { store: slow });
    await flushAsync();
    assert.deepEqual(runner.started, [], 'a step started while the opening was not stored');
    release();
    assert.equal((await result).status, 'completed');
    assert.equal(stored[0], 'run_started');
    assert.deepEqual([...runner.started].sort(), ['a', 'b']);
  });

  it('a step still running when a critical step halts the run ends once, as it ends: failed here, never skipped and then failed', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const runner = scripted(async (step, run) => {
      if (step.id === 'a') {
        await flushAsync();
        return fail(step, run, true);
      }
      await gate;
      // It was classifying its own failure as the halt came (found by a newcomer: "[3/2] ✘ R2 … (skipped)").
      run.emit({ type: 'step_failed', stepId: step.id, attempt: 1, error: 'late', disposition: 'skip' });
      run.settle({ kind: 'dropped' });
    });
    const { result, events } = loop(makePlan([makeStep('a'), makeStep('b', { critical: false })]), runner, { maxConcurrency: 2 });
    await flushAsync();
    await flushAsync();
    release();
    const run = await result;
    assert.equal(run.status, 'failed');
    const ofB = events.filter((event) => 'stepId' in event && event.stepId === 'b').map((event) => event.type);
    assert.deepEqual(ofB, ['step_ready', 'step_started', 'step_failed']);
    assert.equal(run.steps['b']?.status, 'skipped', 'failed under its policy "skip"');
  });

  it('a step still running when the run halts and that the stop ends without a word is skipped once it settled', async () => {
    const runner = scripted(async (step, run) => {
      if (step.id === 'a') {
        await flushAsync();
        return fail(step, run, true);
      }
      // Stopped: it ends without an event and without settling, as attemptStep does once the stop aborted it.
      await new Promise<void>((resolve) => run.stop.signal.addEventListener('abort', () => resolve()));
    });
    const { result, events } = loop(makePlan([makeStep('a'), makeStep('b'), makeStep('c', { dependsOn: ['b'] })]), runner, { maxConcurrency: 2 });
    const run = await result;
    assert.equal(run.status, 'failed');
    assert.deepEqual(skips(events), ['c: run halted because critical step a failed', 'b: run halted because critical step a failed']);
    assert.equal(events.filter((event) => event.type === 'step_skipped' && event.stepId === 'b').length, 1);
  });

  it('stores snapshots of the folded state as it goes', async () => {
    const store = createMemoryRunStore();
    const snapshots: JournalSnapshot[] = [];
    const recording = { ...store, writeSnapshot: (runId: string, snapshot: JournalSnapshot) => (snapshots.push(snapshot), store.writeSnapshot(runId, snapshot)) };
    const plan = makePlan(['a', 'b', 'c', 'd'].map((id) => makeStep(id)));
    await loop(plan, scripted(), { store: recording, snapshotEvery: 3 }).result;
    assert.ok(snapshots.length >= 2, 'periodic snapshots and the final one');
    for (const snapshot of snapshots) assert.equal((snapshot.state as RunState).runId, 'run-1');
    assert.equal((snapshots.at(-1)?.state as RunState).status, 'completed');
  });

  it('logs a listener that throws and goes on', async () => {
    const logged: string[] = [];
    const logger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (message, data) => logged.push(`${message} ${String(data?.['error'])}`) };
    const plan = makePlan([makeStep('a')]);
    const events: RunEvent[] = [];
    const run = await executeRun(
      { runId: 'run-1', state: initialRunState('run-1'), options: resolveRunOptions(plan, { logger, clock: new ManualClock() }), opening: { type: 'run_started', plan } },
      {
        listeners: new Set([
          (event: RunEvent) => {
            if (event.type === 'step_started') throw new Error('listener bug');
          },
          (event: RunEvent) => events.push(event),
        ]),
        signal: new AbortController().signal,
        exposeState: () => undefined,
      },
      scripted(),
    );
    assert.equal(run.status, 'completed');
    assert.ok(events.some((event) => event.type === 'step_completed'));
    assert.deepEqual(logged, ['A run event listener threw; the run goes on. listener bug']);
  });
});
