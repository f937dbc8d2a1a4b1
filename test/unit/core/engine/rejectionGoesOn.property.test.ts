import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { runPlan } from '../../../../src/core/engine/runPlan';
import { ApprovalRejectedError } from '../../../../src/core/tools/approvals';
import { ManualClock } from '../../../fakes/manualClock';
import { dagPlanArbitrary } from '../../../support/randomPlans';

describe('a rejection is no Cancel (property: random DAGs of critical steps, some rejected, in parallel)', () => {
  it('every step that does not depend on a rejected one completes; the rejected ones and their dependents are skipped; the run is partly done', async () => {
    await fc.assert(
      fc.asyncProperty(
        dagPlanArbitrary.chain((plan) =>
          fc.tuple(
            fc.constant(plan),
            fc.array(fc.record({ rejected: fc.boolean(), durationMs: fc.integer({ min: 0, max: 20 }) }), {
              minLength: plan.steps.length,
              maxLength: plan.steps.length,
            }),
            fc.integer({ min: 1, max: 4 }),
          ),
        ),
        async ([basePlan, outcomes, maxConcurrency]) => {
          // Critical, stop on failure: the defaults a plan file gives, which a rejection used to turn into a halt.
          const plan = { ...basePlan, steps: basePlan.steps.map((step) => ({ ...step, critical: true, onFailure: 'stop' as const })) };
          const behaviour = new Map(plan.steps.map((step, index) => [step.id, outcomes[index]!]));
          const clock = new ManualClock(0, { autoAdvance: true });
          const handle = runPlan(plan, {
            clock,
            store: createMemoryRunStore(),
            maxConcurrency,
            idSource: () => 'rejections',
            stepRunner: async (step, ctx) => {
              const outcome = behaviour.get(step.id)!;
              await clock.sleep(outcome.durationMs, ctx.signal);
              if (outcome.rejected) throw new ApprovalRejectedError(`the change of ${step.id}`, 'not this one');
              return `${step.id} done`;
            },
          });
          const result = await handle.result;
          // What a rejection reaches: the rejected steps and everything downstream of them.
          const reached = new Set(plan.steps.filter((step) => behaviour.get(step.id)!.rejected).map((step) => step.id));
          // Steps are listed in any order: grow the set until nothing more depends on it.
          for (let size = -1; size !== reached.size; ) {
            size = reached.size;
            for (const step of plan.steps) if (step.dependsOn.some((dependency) => reached.has(dependency))) reached.add(step.id);
          }
          for (const step of plan.steps) {
            const state = result.steps[step.id];
            if (!reached.has(step.id)) assert.equal(state?.status, 'completed', `${step.id} did not complete: ${JSON.stringify(state)}`);
            else assert.equal(state?.status, 'skipped', `${step.id} was not skipped: ${JSON.stringify(state)}`);
            // A rejected step that ran (nothing before it was reached) is skipped as rejected; one after it never asked.
            const ran = !step.dependsOn.some((dependency) => reached.has(dependency));
            if (ran && behaviour.get(step.id)!.rejected) assert.equal(state?.skipCause, 'rejected', step.id);
          }
          assert.equal(result.status, reached.size === 0 ? 'completed' : 'partial', result.metadata.reason);
          assert.doesNotMatch(result.metadata.reason ?? '', /halt/i);
        },
      ),
      { numRuns: 150 },
    );
  });
});
