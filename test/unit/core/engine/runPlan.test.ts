import assert from 'node:assert/strict';
import { z } from 'zod';
import { runPlan } from '../../../../src/core/engine/runPlan';
import { replayJournal } from '../../../../src/core/engine/replayJournal';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import { runInterruption } from '../../../../src/core/engine/runInterruption';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import type { RunOptions, StepRunner } from '../../../../src/core/engine/runOptions';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import type { Plan, Step } from '../../../../src/core/plan/planSchema';
import { DeferredError } from '../../../../src/core/tools/deferral';
import type { Tool } from '../../../../src/core/tools/tool';
import { answeringInteraction } from '../../../fakes/answeringInteraction';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

/** Runs `plan` on a simulated clock; every agent step sleeps `durations[id] ?? 0` ms then returns `id` or what `behave` says. */
async function run(plan: Plan, options: Partial<RunOptions> & { behave?: StepRunner; durations?: Record<string, number> } = {}) {
  const clock = (options.clock as ManualClock | undefined) ?? new ManualClock(0, { autoAdvance: true });
  const events: RunEvent[] = [];
  const stepRunner: StepRunner = async (step, ctx) => {
    await clock.sleep(options.durations?.[step.id] ?? 0, ctx.signal);
    return options.behave ? options.behave(step, ctx) : step.id;
  };
  const handle = runPlan(plan, { idSource: () => 'run-1', stepRunner, ...options, clock });
  handle.events.subscribe((event) => events.push(event));
  const result = await handle.result;
  return { result, events, clock, handle };
}

const started = (events: RunEvent[]): string[] => events.flatMap((event) => (event.type === 'step_started' ? [event.stepId] : []));
const at = (events: RunEvent[], type: RunEvent['type'], stepId: string): number =>
  events.find((event) => event.type === type && 'stepId' in event && event.stepId === stepId)?.time ?? Number.NaN;

describe('runPlan', () => {
  describe('scheduling', () => {
    it('starts a step as soon as its own dependencies complete, not when its level does', async () => {
      const plan = makePlan([makeStep('a'), makeStep('slow'), makeStep('b', { dependsOn: ['a'] })]);
      const { result, events } = await run(plan, { durations: { a: 10, slow: 100, b: 10 } });
      assert.equal(result.status, 'completed');
      assert.equal(at(events, 'step_started', 'b'), 10);
      assert.equal(at(events, 'step_completed', 'slow'), 100);
    });

    it('never runs more than maxConcurrency steps and prefers the longest remaining path', async () => {
      const plan = makePlan([makeStep('x'), makeStep('y'), makeStep('chain1'), makeStep('chain2', { dependsOn: ['chain1'] }), makeStep('chain3', { dependsOn: ['chain2'] })]);
      let running = 0;
      let peak = 0;
      const { events } = await run(plan, {
        maxConcurrency: 1,
        durations: { x: 1, y: 1, chain1: 1, chain2: 1, chain3: 1 },
        behave: async (step) => step.id,
      });
      for (const event of events) {
        if (event.type === 'step_started') peak = Math.max(peak, ++running);
        if (event.type === 'step_completed') running--;
      }
      assert.equal(peak, 1);
      assert.deepEqual(started(events), ['chain1', 'chain2', 'x', 'y', 'chain3']);
    });

    it('passes dependency results and resolves templates and whole-value "$id" args when a step starts', async () => {
      const echo: Tool<{ value: unknown; text: string }> = {
        name: 'echo',
        description: 'returns its args',
        inputSchema: z.object({ value: z.unknown(), text: z.string() }),
        effects: 'read',
        run: async (_ctx, input) => input,
      };
      const plan = makePlan([
        makeStep('a'),
        makeStep('b', { kind: 'tool', tool: 'echo', args: { value: '$a', text: 'got {{results.a.n}} and {{results.zz}}' }, dependsOn: ['a'] }),
        makeStep('c', { input: 'saw {{results.b.text}}', dependsOn: ['b'] }),
      ]);
      const seen: unknown[] = [];
      const { result, events } = await run(plan, {
        tools: [echo],
        behave: async (step, ctx) => {
          seen.push({ input: ctx.input, depends: ctx.depends });
          return step.id === 'a' ? { n: 7 } : ctx.input;
        },
      });
      assert.deepEqual(result.results['b'], { value: { n: 7 }, text: 'got 7 and {{results.zz}}' });
      assert.equal(result.results['c'], 'saw got 7 and {{results.zz}}');
      assert.deepEqual(seen[1], { input: 'saw got 7 and {{results.zz}}', depends: { b: result.results['b'] } });
      assert.ok(events.some((event) => event.type === 'step_warning' && event.stepId === 'b' && event.message.includes('{{results.zz}}')));
    });

    it('counts initialResults as completed and does not run them', async () => {
      const plan = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] })]);
      const { result, events } = await run(plan, { initialResults: { a: 'done before' } });
      assert.deepEqual(started(events), ['b']);
      assert.equal(result.results['a'], 'done before');
    });

    it('fails an invalid plan before running anything, listing its errors, and journals nothing', async () => {
      const plan = makePlan([makeStep('a', { dependsOn: ['b'] }), makeStep('b', { dependsOn: ['a'] })]);
      const store = createMemoryRunStore();
      const { result, events } = await run(plan, { store });
      assert.equal(result.status, 'failed');
      assert.match(result.metadata.reason ?? '', /cycle/i);
      assert.deepEqual(started(events), []);
      assert.deepEqual(await store.list(), []);
    });
  });

  describe('failure table (onFailure × critical)', () => {
    const failing: StepRunner = async (step) => {
      if (step.id === 'bad') throw new Error('boom');
      return step.id;
    };
    const plan = (patch: Partial<Step>) =>
      makePlan([makeStep('bad', patch), makeStep('after', { dependsOn: ['bad'] }), makeStep('after2', { dependsOn: ['after'] }), makeStep('free')]);

    it('skip → skipped, dependents skipped with the reason, independent branches run', async () => {
      const { result } = await run(plan({ onFailure: 'skip' }), { behave: failing });
      assert.equal(result.status, 'partial');
      assert.equal(result.metadata.reason, 'Step bad failed; steps after, after2 were skipped.');
      assert.equal(result.steps['bad']?.status, 'skipped');
      assert.equal(result.steps['after']?.reason, 'dependency bad failed');
      assert.equal(result.steps['after2']?.reason, 'dependency after was skipped');
      assert.equal(result.steps['free']?.status, 'completed');
    });

    it('stop + critical → the run halts and fails', async () => {
      const { result } = await run(plan({ onFailure: 'stop', critical: true }), { behave: failing, maxConcurrency: 1 });
      assert.equal(result.status, 'failed');
      assert.equal(result.steps['bad']?.status, 'failed');
      assert.equal(result.steps['bad']?.error, 'boom');
      assert.match(result.metadata.reason ?? '', /Critical step bad failed: boom/);
      assert.equal(result.steps['free']?.status, 'skipped');
      assert.match(result.steps['free']?.reason ?? '', /run halted/);
    });

    it('stop + non-critical → skipped, the run goes on', async () => {
      const { result } = await run(plan({ onFailure: 'stop', critical: false }), { behave: failing });
      assert.equal(result.status, 'partial');
      assert.equal(result.steps['bad']?.status, 'skipped');
      assert.equal(result.steps['after']?.status, 'skipped');
      assert.equal(result.steps['free']?.status, 'completed');
    });

    it('retry → retried up to maxAttempts with exponential backoff, then as stop', async () => {
      const { result, clock, events } = await run(plan({ onFailure: 'retry', maxAttempts: 4, critical: false }), { behave: failing, retryBaseDelayMs: 100 });
      assert.equal(result.steps['bad']?.attempts, 4);
      assert.equal(result.steps['bad']?.status, 'skipped');
      assert.deepEqual(clock.sleeps.filter((ms) => ms > 0), [100, 200, 400]);
      assert.deepEqual(
        events.filter((event) => event.type === 'step_started' && event.stepId === 'bad').map((event) => event.time),
        [0, 100, 300, 700],
      );
    });

    it('retry + critical → halts after the last attempt; backoff is capped', async () => {
      const { result, clock } = await run(plan({ onFailure: 'retry', maxAttempts: 3, critical: true }), { behave: failing, retryBaseDelayMs: 100, retryMaxDelayMs: 150 });
      assert.equal(result.status, 'failed');
      assert.equal(result.steps['bad']?.attempts, 3);
      assert.deepEqual(clock.sleeps.filter((ms) => ms > 0), [100, 150]);
    });

    it('a retry that succeeds completes the step', async () => {
      let calls = 0;
      const { result } = await run(plan({ onFailure: 'retry', maxAttempts: 3 }), {
        behave: async (step) => {
          if (step.id === 'bad' && ++calls < 2) throw new Error('flaky');
          return step.id;
        },
      });
      assert.equal(result.status, 'completed');
      assert.equal(result.steps['bad']?.attempts, 2);
    });

    it('replan → failed with a repair request, dependents skipped, others run', async () => {
      const { result } = await run(plan({ onFailure: 'replan' }), { behave: failing });
      assert.equal(result.status, 'failed');
      assert.equal(result.steps['bad']?.status, 'failed');
      assert.deepEqual(result.metadata.replanRequests, ['bad']);
      assert.equal(result.steps['after']?.reason, 'dependency bad failed');
      assert.equal(result.steps['free']?.status, 'completed');
    });

    it('a critical halt aborts running steps through their AbortSignal', async () => {
      let abortedWith: unknown;
      const halting = makePlan([makeStep('bad'), makeStep('long')]);
      const { result } = await run(halting, {
        durations: { bad: 10 },
        behave: async (step) => {
          if (step.id === 'bad') throw new Error('boom');
          return step.id;
        },
        stepRunner: undefined,
      });
      assert.equal(result.status, 'failed');
      const clock = new ManualClock(0, { autoAdvance: true });
      const handle = runPlan(halting, {
        clock,
        stepRunner: async (step, ctx) => {
          if (step.id === 'bad') {
            await clock.sleep(10, ctx.signal);
            throw new Error('boom');
          }
          ctx.signal.addEventListener('abort', () => {
            abortedWith = ctx.signal.reason;
          });
          await new Promise(() => undefined);
        },
      });
      const halted = await handle.result;
      assert.equal(halted.steps['long']?.status, 'skipped');
      assert.match(String(abortedWith), /Critical step bad failed/);
    });

    it('a step timeout is a step error', async () => {
      const { result } = await run(makePlan([makeStep('slow', { timeoutMs: 50, critical: false })]), { durations: { slow: 1000 } });
      assert.equal(result.steps['slow']?.status, 'skipped');
      assert.match(result.steps['slow']?.error ?? '', /timed out after 50 ms/);
    });

    it('an agent step without a model fails with words for the user, naming no API', async () => {
      const handle = runPlan(makePlan([makeStep('a')]), { clock: new ManualClock() });
      const result = await handle.result;
      const error = result.steps['a']?.error ?? '';
      assert.match(error, /^Step a needs a language model and none is set up\. Set up a model, or change the step to one you do yourself\.$/);
      assert.doesNotMatch(error, /RunOptions|stepRunner|step runner|create[A-Z]/);
    });

    it("the host's words say how to set up a model (noModelHint)", async () => {
      const handle = runPlan(makePlan([makeStep('a', { kind: 'synthesis_gate' })]), { clock: new ManualClock(), noModelHint: "Run 'Task Planner: Set up a model'." });
      const result = await handle.result;
      assert.equal(result.steps['a']?.error, "Step a needs a language model and none is set up. Run 'Task Planner: Set up a model'.");
    });
  });

  describe('verification', () => {
    const verified = (verification: string, patch: Partial<Step> = {}) => makePlan([makeStep('v', { verification, ...patch }), makeStep('next', { dependsOn: ['v'] })]);

    it('true passes', async () => {
      const { result } = await run(verified('result === "v" && input === "do v"'));
      assert.equal(result.status, 'completed');
    });

    it('false fails with a diagnosis quoting the predicate and the result', async () => {
      const { result, events } = await run(verified('result.length > 5', { critical: false }));
      assert.equal(result.steps['v']?.status, 'skipped');
      const failed = events.find((event) => event.type === 'verification_failed');
      assert.ok(failed?.type === 'verification_failed');
      assert.match(failed.diagnosis, /`result.length > 5` was false for result "v"/);
    });

    it('a string fails with that string as the diagnosis', async () => {
      const { result } = await run(verified('"too short"', { critical: false }));
      assert.equal(result.steps['v']?.diagnosis, 'too short');
    });

    it('another value fails as unexpected', async () => {
      const { result } = await run(verified('42', { critical: false }));
      assert.match(result.steps['v']?.diagnosis ?? '', /unexpected value 42/);
    });

    it('an exception is a step error handled by onFailure (retried)', async () => {
      const { result } = await run(verified('null.x', { onFailure: 'retry', maxAttempts: 2, critical: false }), { retryBaseDelayMs: 1 });
      assert.equal(result.steps['v']?.attempts, 2);
      assert.match(result.steps['v']?.error ?? '', /TypeError/);
      assert.equal(result.steps['v']?.status, 'skipped');
    });

    it('a predicate that loops forever is stopped by the time limit', async () => {
      const { result } = await run(verified('(() => { while (true) {} })()', { critical: false }), { predicateTimeoutMs: 100 });
      assert.match(result.steps['v']?.error ?? '', /timed out after 100 ms/);
    });

    it('retry re-runs the step with the diagnosis appended to its input', async () => {
      const inputs: string[] = [];
      const { result } = await run(verified('result === "good" || "result must be good"', { onVerificationFailure: 'retry', maxAttempts: 3 }), {
        behave: async (step, ctx) => {
          if (step.id !== 'v') return step.id;
          inputs.push(ctx.input);
          return ctx.attempt === 1 ? 'bad' : 'good';
        },
      });
      assert.equal(result.status, 'completed');
      // The retry text ends with what to do about the diagnosis (issue 29: it said only what failed).
      assert.deepEqual(inputs, ['do v', 'do v\n\nYour previous attempt failed verification: result must be good\n\nAdjust your approach to satisfy this requirement.']);
    });

    it('onVerificationFailure skip and stop follow the table; replan asks for repair', async () => {
      assert.equal((await run(verified('false', { onVerificationFailure: 'skip' }))).result.status, 'partial');
      assert.equal((await run(verified('false', { onVerificationFailure: 'stop' }))).result.status, 'failed');
      assert.deepEqual((await run(verified('false', { onVerificationFailure: 'replan' }))).result.metadata.replanRequests, ['v']);
    });

    it('when: false skips the step and its dependents; true runs it', async () => {
      const plan = makePlan([
        makeStep('a'),
        makeStep('maybe', { dependsOn: ['a'], when: 'depends.a === "nope"' }),
        makeStep('sure', { dependsOn: ['a'], when: 'depends.a === "a"' }),
        makeStep('after', { dependsOn: ['maybe'] }),
      ]);
      const { result } = await run(plan);
      assert.equal(result.steps['maybe']?.status, 'skipped');
      assert.match(result.steps['maybe']?.reason ?? '', /condition/);
      assert.equal(result.steps['after']?.status, 'skipped');
      assert.equal(result.steps['sure']?.status, 'completed');
    });
  });

  describe('gates and user requests', () => {
    it('a failed synthesis gate stops everything downstream while other branches finish', async () => {
      const plan = makePlan([
        makeStep('a'),
        makeStep('gate', { kind: 'synthesis_gate', dependsOn: ['a'], critical: false, input: undefined }),
        makeStep('down1', { dependsOn: ['gate'] }),
        makeStep('down2', { dependsOn: ['down1'] }),
        makeStep('other'),
      ]);
      const { result } = await run(plan, {
        behave: async (step, ctx) => {
          if (step.kind === 'synthesis_gate') {
            assert.deepEqual(ctx.depends, { a: 'a' });
            assert.match(ctx.input, /Condense the results of a/);
            throw new Error('cannot condense');
          }
          return step.id;
        },
      });
      assert.equal(result.steps['down1']?.reason, 'dependency gate failed');
      assert.equal(result.steps['down2']?.status, 'skipped');
      assert.equal(result.steps['other']?.status, 'completed');
    });

    it('human_review: approval is the result; rejection fails the step (critical halts, else dependents skipped)', async () => {
      const plan = (critical: boolean) => makePlan([makeStep('a'), makeStep('review', { kind: 'human_review', input: 'Check {{results.a}}', dependsOn: ['a'], critical }), makeStep('after', { dependsOn: ['review'] })]);
      const approving = answeringInteraction({ review: (request) => (assert.equal(request.prompt, 'Check a'), { approved: true, notes: 'fine' }) });
      assert.deepEqual((await run(plan(true), { interaction: approving })).result.results['review'], { approved: true, notes: 'fine' });
      const rejecting = answeringInteraction({ review: () => ({ approved: false, notes: 'wrong file' }) });
      const halted = await run(plan(true), { interaction: rejecting });
      assert.equal(halted.result.status, 'failed');
      assert.match(halted.result.steps['review']?.error ?? '', /Rejected in review: wrong file/);
      const skipped = await run(plan(false), { interaction: rejecting });
      assert.equal(skipped.result.steps['after']?.status, 'skipped');
      assert.equal(skipped.result.steps['review']?.attempts, 1);
    });

    it('clarification: the answer is the result; only that branch waits for it', async () => {
      let answer: (text: string) => void = () => undefined;
      const interaction = answeringInteraction({ clarification: () => new Promise<string>((resolve) => (answer = resolve)) });
      const plan = makePlan([makeStep('ask', { kind: 'clarification', input: 'Which name?' }), makeStep('use', { dependsOn: ['ask'], input: 'use {{results.ask}}' }), makeStep('other')]);
      const clock = new ManualClock();
      const handle = runPlan(plan, { clock, interaction, stepRunner: async (_step, ctx) => ctx.input });
      await clock.advance(0);
      assert.equal(handle.state().steps['ask']?.status, 'awaiting_clarification');
      assert.equal(handle.state().steps['other']?.status, 'completed');
      answer('Ada');
      const result = await handle.result;
      assert.equal(result.results['ask'], 'Ada');
      assert.equal(result.results['use'], 'use Ada');
    });

    it('a tool that throws DeferredError (approval deferred) suspends its step; the run ends waiting', async () => {
      const writer: Tool = {
        name: 'write',
        description: 'asks first',
        inputSchema: z.object({}),
        effects: 'write',
        async run(ctx) {
          const decision = await ctx.interaction.requestApproval(
            { kind: 'file', stepId: ctx.stepId, title: ctx.stepTitle, operation: 'write', proposal: { path: 'a.txt', currentText: undefined, proposedText: 'x', diff: '+x' } },
            new AbortController().signal,
          );
          if (decision === 'defer') throw new DeferredError('approval', ctx.stepId);
          return decision.approved ? 'written' : 'refused';
        },
      };
      const plan = makePlan([makeStep('w', { kind: 'tool', tool: 'write', args: {} }), makeStep('after', { dependsOn: ['w'] }), makeStep('free')]);
      const { result } = await run(plan, { tools: [writer] });
      assert.equal(result.status, 'waiting');
      assert.deepEqual(result.pending?.map(({ stepId, kind, prompt }) => ({ stepId, kind, prompt })), [{ stepId: 'w', kind: 'approval', prompt: 'Write a.txt?' }]);
      assert.equal(result.steps['w']?.status, 'awaiting_approval');
      assert.equal(result.steps['after']?.status, 'blocked');
      assert.equal(result.steps['free']?.status, 'completed');
    });
  });

  describe('cancellation', () => {
    it('cancel() stops new steps and aborts running ones at once; the run ends cancelled and resumable', async () => {
      const clock = new ManualClock();
      const store = createMemoryRunStore();
      const plan = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] })]);
      const handle = runPlan(plan, { clock, store, idSource: () => 'c1', stepRunner: (_step, ctx) => new Promise(() => ctx.signal.throwIfAborted()) });
      await clock.advance(0);
      handle.cancel('Stop, please.');
      const result = await handle.result;
      assert.equal(result.status, 'cancelled');
      assert.equal(result.metadata.reason, 'Stop, please.');
      assert.equal(result.steps['a']?.status, 'pending');
      assert.ok((await store.load('c1'))?.entries.some((entry) => entry.type === 'run_cancelled'));
    });

    it('a run stopped because its host went away (window reload) ends interrupted, not cancelled, and resumes', async () => {
      const clock = new ManualClock();
      const store = createMemoryRunStore();
      const controller = new AbortController();
      const plan = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] })]);
      const hanging: StepRunner = (_step, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error)));
      const handle = runPlan(plan, { clock, store, idSource: () => 'i1', signal: controller.signal, stepRunner: hanging });
      await clock.advance(0);
      controller.abort(runInterruption('The window was reloaded.'));
      const result = await handle.result;
      assert.equal(result.status, 'interrupted');
      assert.equal(result.metadata.reason, 'The window was reloaded.');
      const journal = await store.load('i1');
      assert.equal(replayJournal('i1', journal!).status, 'interrupted');
      const resumed = await resumeRun('i1', { clock, store, stepRunner: async (step) => `done ${step.id}` }).result;
      assert.equal(resumed.status, 'completed');
    });

    it('an aborted RunOptions.signal cancels too, also during a backoff', async () => {
      const controller = new AbortController();
      const clock = new ManualClock();
      const handle = runPlan(makePlan([makeStep('a', { onFailure: 'retry', maxAttempts: 5 })]), {
        clock,
        signal: controller.signal,
        stepRunner: async () => {
          throw new Error('again');
        },
      });
      await clock.advance(0);
      assert.equal(clock.pendingCount, 1);
      controller.abort(new Error('shutting down'));
      const result = await handle.result;
      assert.equal(result.status, 'cancelled');
    });
  });
});
