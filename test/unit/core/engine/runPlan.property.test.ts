import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { foldRunEvents } from '../../../../src/core/engine/reduceRunEvent';
import { replayJournal } from '../../../../src/core/engine/replayJournal';
import { runPlan } from '../../../../src/core/engine/runPlan';
import { terminalStepStatuses, type RunEvent } from '../../../../src/core/engine/runEvents';
import { failurePolicies } from '../../../../src/shared/vocabulary';
import { ManualClock } from '../../../fakes/manualClock';
import { dagPlanArbitrary } from '../../../support/randomPlans';

const outcomeArbitrary = fc.record({
  durationMs: fc.integer({ min: 0, max: 20 }),
  failures: fc.integer({ min: 0, max: 3 }),
  onFailure: fc.constantFrom(...failurePolicies),
  critical: fc.boolean(),
  maxAttempts: fc.integer({ min: 1, max: 3 }),
});

describe('runPlan (property: random DAGs with random outcomes)', () => {
  it('respects dependencies and the concurrency limit, ends every step, and equals the fold of its journal', async () => {
    await fc.assert(
      fc.asyncProperty(
        dagPlanArbitrary.chain((plan) => fc.tuple(fc.constant(plan), fc.array(outcomeArbitrary, { minLength: plan.steps.length, maxLength: plan.steps.length }), fc.integer({ min: 1, max: 4 }))),
        async ([basePlan, outcomes, maxConcurrency]) => {
          const plan = {
            ...basePlan,
            steps: basePlan.steps.map((step, index) => {
              const outcome = outcomes[index]!;
              return { ...step, onFailure: outcome.onFailure, critical: outcome.critical, maxAttempts: outcome.maxAttempts };
            }),
          };
          const behaviour = new Map(plan.steps.map((step, index) => [step.id, outcomes[index]!]));
          const calls = new Map<string, number>();
          const clock = new ManualClock(0, { autoAdvance: true });
          const store = createMemoryRunStore();
          const events: RunEvent[] = [];
          const handle = runPlan(plan, {
            clock,
            store,
            maxConcurrency,
            idSource: () => 'prop',
            retryBaseDelayMs: 3,
            stepRunner: async (step, ctx) => {
              const outcome = behaviour.get(step.id)!;
              await clock.sleep(outcome.durationMs, ctx.signal);
              const call = (calls.get(step.id) ?? 0) + 1;
              calls.set(step.id, call);
              if (call <= outcome.failures) throw new Error(`planned failure ${call}`);
              return `${step.id}#${call}`;
            },
          });
          handle.events.subscribe((event) => events.push(event));
          const result = await handle.result;

          const completed = new Set<string>();
          const active = new Set<string>();
          const dependencies = new Map(plan.steps.map((step) => [step.id, step.dependsOn]));
          for (const event of events) {
            if (event.type === 'step_started') {
              for (const dependency of dependencies.get(event.stepId) ?? []) assert.ok(completed.has(dependency), `${event.stepId} started before ${dependency} completed`);
              active.add(event.stepId);
              assert.ok(active.size <= maxConcurrency, `more than ${maxConcurrency} steps ran at once`);
            }
            if (event.type === 'step_completed') {
              completed.add(event.stepId);
              active.delete(event.stepId);
            }
            if ((event.type === 'step_failed' && event.disposition !== 'retry') || event.type === 'step_skipped') active.delete(event.stepId);
          }
          for (const step of plan.steps) {
            const status = result.steps[step.id]?.status;
            assert.ok(status !== undefined && terminalStepStatuses.has(status), `${step.id} ended ${status}`);
          }
          assert.ok(result.status === 'completed' || result.status === 'partial' || result.status === 'failed');
          const journal = await store.load('prop');
          assert.ok(journal);
          const replayed: unknown = JSON.parse(JSON.stringify(foldRunEvents(journal.entries as unknown as RunEvent[])));
          assert.deepEqual(replayed, JSON.parse(JSON.stringify(handle.state())));
          assert.deepEqual(replayJournal('prop', journal), handle.state());
        },
      ),
      { numRuns: 150 },
    );
  });
});
