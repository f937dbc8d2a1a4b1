// Engine benchmarks (issue 3): (a) scheduling overhead per step on large random DAGs with
// instant steps; (b) makespan quality on random DAGs with random durations under a
// simulated clock, against the lower bound and against level-by-level execution; (c) the
// same DAGs on real timers, against the lower bound of the durations asked for and of the
// durations the steps really took (a timer fires late: that is the host's, not the loop's);
// (d) the same DAGs with write scopes, disjoint and shared, against no writers.
import { createMemoryRunStore } from '../../src/core/engine/memoryRunStore';
import { runPlan } from '../../src/node/nodeLibrary';
import { planLevels } from '../../src/core/plan/planLevels';
import type { Plan } from '../../src/core/plan/planSchema';
import { builtinTools } from '../../src/core/tools/builtinTools';
import type { Tool } from '../../src/core/tools/tool';
import { timerClock } from '../../src/node/timerClock';
import { ManualClock } from '../fakes/manualClock';
import { randomDagPlan, seededRandom } from '../support/randomPlans';
import { checkTarget } from './benchTargets';

async function runInstant(plan: Plan, tools?: Tool[]): Promise<number> {
  const started = performance.now();
  const result = await runPlan(plan, { store: createMemoryRunStore(), stepRunner: async (step) => step.id, idSource: () => 'bench', ...(tools ? { tools } : {}) }).result;
  const elapsed = performance.now() - started;
  if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}: ${result.metadata.reason ?? ''}`);
  return elapsed;
}

async function overheadPerStep(size: number, repeats: number, scoped?: (plan: Plan) => Plan): Promise<number> {
  const plan = scoped ? scoped(randomDagPlan(size, 3, 42)) : randomDagPlan(size, 3, 42);
  const times: number[] = [];
  for (let index = 0; index < repeats; index++) times.push(await runInstant(plan, scoped ? builtinTools() : undefined));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

function seededDurations(plan: Plan, seed: number): Map<string, number> {
  const random = seededRandom(seed);
  return new Map(plan.steps.map((step) => [step.id, 1 + Math.floor(random() * 100)]));
}

async function simulatedMakespan(plan: Plan, durations: Map<string, number>, useEstimates: boolean, tools?: Tool[]): Promise<number> {
  const clock = new ManualClock(0, { autoAdvance: true });
  const result = await runPlan(plan, {
    clock,
    maxConcurrency: 4,
    ...(tools ? { tools } : {}),
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

interface RealRun {
  /** Makespan over the lower bound of the durations asked for. */
  nominal: number;
  /** Makespan over the lower bound of the durations measured inside the steps. */
  measured: number;
  /** Mean time a step's sleep took beyond what it asked for, in ms. */
  lateness: number[];
  /** Time from a step's end to the next step's start in the same run, when that came within 20 ms, in ms. */
  dispatch: number[];
  /** Time from the call of runPlan to the first step's start, in ms. */
  head: number;
}

async function realMakespan(plan: Plan, durations: Map<string, number>): Promise<RealRun> {
  const measured = new Map<string, number>();
  const starts: number[] = [];
  const ends: number[] = [];
  const lateness: number[] = [];
  const started = performance.now();
  const result = await runPlan(plan, {
    store: createMemoryRunStore(),
    maxConcurrency: 4,
    clock: timerClock,
    stepRunner: async (step, ctx) => {
      const begin = performance.now();
      starts.push(begin);
      await timerClock.sleep(durations.get(step.id) ?? 0, ctx.signal);
      const end = performance.now();
      ends.push(end);
      measured.set(step.id, end - begin);
      lateness.push(end - begin - (durations.get(step.id) ?? 0));
      return step.id;
    },
  }).result;
  const makespan = performance.now() - started;
  if (result.status !== 'completed') throw new Error(`real-timer run ended ${result.status}`);
  const dispatch: number[] = [];
  for (const end of ends) {
    const next = starts.find((start) => start >= end);
    if (next !== undefined && next - end < 20) dispatch.push(next - end);
  }
  return {
    nominal: makespan / lowerBound(plan, durations),
    measured: makespan / lowerBound(plan, measured),
    lateness,
    dispatch,
    head: Math.min(...starts) - started,
  };
}

function meanOf(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

export async function runBench(): Promise<void> {
  await overheadPerStep(1000, 3);
  const small = await overheadPerStep(1000, 7);
  const large = await overheadPerStep(10_000, 3);
  console.log(`(a) engine overhead, instant steps, memory journal:`);
  console.log(`    1k steps: ${small.toFixed(1)} ms = ${((small * 1000) / 1000).toFixed(1)} µs/step`);
  console.log(`    10k steps: ${large.toFixed(1)} ms = ${((large * 1000) / 10_000).toFixed(1)} µs/step`);
  checkTarget('engine overhead, 10k instant steps / 1k', `${(large / small).toFixed(2)}×`, '≤ 12×', large / small <= 12);

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
  checkTarget('mean makespan / lower bound (priority = remaining steps)', (oursToBound / runs).toFixed(3), '≤ 1.10', oursToBound / runs <= 1.1);
  console.log(`    same with duration estimates as step costs: ${(oursWithEstimatesToBound / runs).toFixed(3)}`);
  checkTarget('mean level-by-level makespan / ours', (levelToOurs / runs).toFixed(3), '≥ 1.25', levelToOurs / runs >= 1.25);

  // Write scopes (issue 26): the same DAGs whose agents may write (the built-in tools registered), each step
  // declaring a file of its own, against the same DAGs with agents that cannot write (no scope to honour).
  let scopedToFree = 0;
  let sharedToFree = 0;
  for (let seed = 1; seed <= runs; seed++) {
    const plan = randomDagPlan(50, 3, seed);
    const durations = seededDurations(plan, seed * 7919);
    const free = await simulatedMakespan(plan, durations, false);
    const disjoint = { ...plan, steps: plan.steps.map((step) => ({ ...step, writes: [`out/${step.id}.txt`] })) };
    scopedToFree += (await simulatedMakespan(disjoint, durations, false, builtinTools())) / free;
    const shared = { ...plan, steps: plan.steps.map((step, index) => ({ ...step, writes: [`out/${index % 8}.txt`] })) };
    sharedToFree += (await simulatedMakespan(shared, durations, false, builtinTools())) / free;
  }
  const scoped = scopedToFree / runs;
  console.log(`(d) write scopes, the same ${runs} DAGs, simulated clock:`);
  checkTarget('mean makespan, every step its own file / no writers', scoped.toFixed(4), '≤ 1.02', scoped <= 1.02);
  console.log(`    mean makespan, 8 files shared by 50 steps / no writers: ${(sharedToFree / runs).toFixed(3)} (steps on one file wait for each other)`);
  const scopedOverhead = await overheadPerStep(10_000, 3, (plan) => ({ ...plan, steps: plan.steps.map((step) => ({ ...step, writes: [`out/${step.id}.txt`] })) }));
  console.log(`    engine overhead, 10k instant steps each with its own file, built-in tools: ${((scopedOverhead * 1000) / 10_000).toFixed(1)} µs/step (no scopes: ${((large * 1000) / 10_000).toFixed(1)})`);

  // The same DAGs on real timers, `together` runs at a time, started 5 ms apart (each sleeps
  // most of the time; one after another would take over three minutes).
  const together = 10;
  const real: RealRun[] = [];
  await realMakespan(randomDagPlan(50, 3, 1), seededDurations(randomDagPlan(50, 3, 1), 7919));
  for (let first = 1; first <= runs; first += together) {
    const seeds = Array.from({ length: Math.min(together, runs - first + 1) }, (_, index) => first + index);
    const batch: Promise<RealRun>[] = [];
    for (const seed of seeds) {
      const plan = randomDagPlan(50, 3, seed);
      batch.push(realMakespan(plan, seededDurations(plan, seed * 7919)));
      // Staggered a little, so each run's start is not counted against the ones started with it.
      await timerClock.sleep(5);
    }
    real.push(...(await Promise.all(batch)));
  }
  const simulated = oursToBound / runs;
  const measured = meanOf(real.map((run) => run.measured));
  const dispatch = real.flatMap((run) => run.dispatch).sort((a, b) => a - b);
  console.log(`(c) the same ${runs} DAGs on real timers (${together} runs at a time):`);
  console.log(`    mean makespan / lower bound, simulated clock: ${simulated.toFixed(3)}`);
  console.log(`    mean makespan / lower bound of the durations asked for, real timers: ${meanOf(real.map((run) => run.nominal)).toFixed(3)}`);
  checkTarget('mean makespan / lower bound of the durations the steps took, real timers', measured.toFixed(3), '≤ 1.10', measured <= 1.1);
  console.log(
    `    where the time goes: timers fire ${meanOf(real.flatMap((run) => run.lateness)).toFixed(2)} ms late per step on average; the loop starts the next step ` +
      `${(dispatch[dispatch.length >> 1] ?? 0).toFixed(2)} ms (median) after a step ends, and the first one ${meanOf(real.map((run) => run.head)).toFixed(2)} ms after runPlan`,
  );
}
