// Engine benchmarks (issue 3): (a) scheduling overhead per step on large random DAGs with
// instant steps; (b) makespan quality on random DAGs with random durations under a
// simulated clock, against the lower bound and against level-by-level execution.
import { createMemoryRunStore } from '../../src/core/engine/memoryRunStore';
import { runPlan } from '../../src/node/nodeLibrary';
import { planLevels } from '../../src/core/plan/planLevels';
import type { Plan } from '../../src/core/plan/planSchema';
import { ManualClock } from '../fakes/manualClock';
import { randomDagPlan, seededRandom } from '../support/randomPlans';

async function runInstant(plan: Plan): Promise<number> {
  const started = performance.now();
  const result = await runPlan(plan, { store: createMemoryRunStore(), stepRunner: async (step) => step.id, idSource: () => 'bench' }).result;
  const elapsed = performance.now() - started;
  if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}: ${result.metadata.reason ?? ''}`);
  return elapsed;
}

async function overheadPerStep(size: number, repeats: number): Promise<number> {
  const plan = randomDagPlan(size, 3, 42);
  const times: number[] = [];
  for (let index = 0; index < repeats; index++) times.push(await runInstant(plan));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

function seededDurations(plan: Plan, seed: number): Map<string, number> {
  const random = seededRandom(seed);
  return new Map(plan.steps.map((step) => [step.id, 1 + Math.floor(random() * 100)]));
}

async function simulatedMakespan(plan: Plan, durations: Map<string, number>, useEstimates: boolean): Promise<number> {
  const clock = new ManualClock(0, { autoAdvance: true });
  const result = await runPlan(plan, {
    clock,
    maxConcurrency: 4,
    ...(useEstimates ? { stepCost: (step: Plan['steps'][number]) => durations.get(step.id) ?? 1 } : {}),
    stepRunner: async (step, ctx) => {
      await clock.sleep(durations.get(step.id) ?? 0, ctx.signal);
      return step.id;
    },
  }).result;
  if (result.status !== 'completed') throw new Error(`simulated run ended ${result.status}`);
  return clock.now();
}

function lowerBound(plan: Plan, durations: Map<string, number>): number {
  const finish = new Map<string, number>();
  const levels = planLevels(plan);
  if (!levels.ok) throw new Error('random plan has a cycle');
  for (const level of levels.levels) {
    for (const id of level) {
      const step = plan.steps.find((candidate) => candidate.id === id)!;
      finish.set(id, Math.max(0, ...step.dependsOn.map((dependency) => finish.get(dependency) ?? 0)) + (durations.get(id) ?? 0));
    }
  }
  const criticalPath = Math.max(...finish.values());
  const totalWork = [...durations.values()].reduce((sum, duration) => sum + duration, 0);
  return Math.max(criticalPath, totalWork / 4);
}

/** The seeds' strategy: each level runs to completion (greedy on 4 workers) before the next starts. */
function levelByLevelMakespan(plan: Plan, durations: Map<string, number>): number {
  const levels = planLevels(plan);
  if (!levels.ok) throw new Error('random plan has a cycle');
  let time = 0;
  for (const level of levels.levels) {
    const workers = [0, 0, 0, 0];
    for (const id of level) {
      workers.sort((a, b) => a - b);
      workers[0] = (workers[0] as number) + (durations.get(id) ?? 0);
    }
    time += Math.max(...workers);
  }
  return time;
}

export async function runBench(): Promise<void> {
  await overheadPerStep(1000, 3);
  const small = await overheadPerStep(1000, 7);
  const large = await overheadPerStep(10_000, 3);
  console.log(`(a) engine overhead, instant steps, memory journal:`);
  console.log(`    1k steps: ${small.toFixed(1)} ms = ${((small * 1000) / 1000).toFixed(1)} µs/step`);
  console.log(`    10k steps: ${large.toFixed(1)} ms = ${((large * 1000) / 10_000).toFixed(1)} µs/step (target ≤ 50)`);
  console.log(`    10k/1k time ratio: ${(large / small).toFixed(2)} (target ≤ 12)`);

  let oursToBound = 0;
  let oursWithEstimatesToBound = 0;
  let levelToOurs = 0;
  const runs = 200;
  for (let seed = 1; seed <= runs; seed++) {
    const plan = randomDagPlan(50, 3, seed);
    const durations = seededDurations(plan, seed * 7919);
    const ours = await simulatedMakespan(plan, durations, false);
    const withEstimates = await simulatedMakespan(plan, durations, true);
    oursToBound += ours / lowerBound(plan, durations);
    oursWithEstimatesToBound += withEstimates / lowerBound(plan, durations);
    levelToOurs += levelByLevelMakespan(plan, durations) / ours;
  }
  console.log(`(b) ${runs} random DAGs × 50 steps, durations 1–100 ms, concurrency 4, simulated clock:`);
  console.log(`    mean makespan / lower bound: ${(oursToBound / runs).toFixed(3)} (target ≤ 1.10; priority = remaining steps)`);
  console.log(`    same with duration estimates as step costs: ${(oursWithEstimatesToBound / runs).toFixed(3)}`);
  console.log(`    mean level-by-level makespan / ours: ${(levelToOurs / runs).toFixed(3)} (target ≥ 1.25)`);
}
