import fc from 'fast-check';
import type { Plan, Step } from '../../src/core/plan/planSchema';

/** A step with defaults, for tests: only what the test cares about needs saying. */
export function makeStep(id: string, patch: Partial<Step> = {}): Step {
  return { id, title: `Step ${id}`, kind: 'agent', agent: 'default', input: `do ${id}`, dependsOn: [], onFailure: 'stop', maxAttempts: 1, critical: true, onVerificationFailure: 'stop', ...patch };
}

/** A plan around `steps`, for tests. */
export function makePlan(steps: Step[], patch: Partial<Plan> = {}): Plan {
  return { id: 'plan-test', version: 1, objective: 'test objective', createdAt: '2026-01-01T00:00:00.000Z', agents: {}, steps, ...patch };
}

/**
 * A random DAG plan of `size` steps: each step depends on up to `fanIn` random earlier
 * steps (about `fanIn` on average once the plan is large). Deterministic for a given seed.
 */
export function randomDagPlan(size: number, fanIn = 3, seed = 1): Plan {
  const random = seededRandom(seed);
  const steps: Step[] = [];
  for (let index = 0; index < size; index++) {
    const deps = new Set<string>();
    const wanted = Math.min(index, fanIn);
    while (deps.size < wanted) deps.add(`S${Math.floor(random() * index)}`);
    const dependsOn = [...deps];
    steps.push(makeStep(`S${index}`, { dependsOn, input: `combine ${dependsOn.map((dep) => `{{results.${dep}}}`).join(' ')}` }));
  }
  return makePlan(steps);
}

/** A deterministic generator of numbers in [0, 1) (xorshift32): fast, enough for test graphs and durations. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
}

/** fast-check arbitrary: a random DAG as a plan (dependencies only on earlier steps), plan order shuffled. */
export const dagPlanArbitrary = fc
  .integer({ min: 1, max: 25 })
  .chain((size) =>
    fc.tuple(
      fc.constant(size),
      fc.array(fc.array(fc.nat(), { maxLength: 4 }), { minLength: size, maxLength: size }),
      fc.shuffledSubarray([...Array(size).keys()], { minLength: size, maxLength: size }),
    ),
  )
  .map(([size, picks, order]) => {
    const steps = Array.from({ length: size }, (_, index) =>
      makeStep(`S${index}`, { dependsOn: index === 0 ? [] : [...new Set(picks[index]!.map((pick) => `S${pick % index}`))] }),
    );
    return makePlan(order.map((index) => steps[index]!));
  });
