// A run for the SIGKILL test: started in a child process (`node --import tsx crashingRun.ts
// <runsDir> <markerFile>`), killed mid-run (four steps finish, the next ones hang), then resumed
// by the test in its own process.
import { appendFileSync } from 'node:fs';
import { runPlan } from '../../src/node/nodeLibrary';
import type { StepRunner } from '../../src/core/engine/runOptions';
import { timerClock } from '../../src/node/timerClock';
import { createFileRunStore } from '../../src/node/fileRunStore';
import { makePlan, makeStep } from './randomPlans';

export const crashRunId = 'crash-run';

/** Two chains and a join: 7 steps, at most 2 at once, each taking `stepMs`. */
export const crashPlan = makePlan([
  makeStep('a1'),
  makeStep('a2', { dependsOn: ['a1'] }),
  makeStep('a3', { dependsOn: ['a2'] }),
  makeStep('b1'),
  makeStep('b2', { dependsOn: ['b1'] }),
  makeStep('b3', { dependsOn: ['b2'] }),
  makeStep('join', { dependsOn: ['a3', 'b3'], input: '{{results.a3}} + {{results.b3}}' }),
]);

/** Each step waits, records that it ran by appending its id to `markerFile`, and returns a result. */
export function markingStepRunner(markerFile: string, stepMs: number): StepRunner {
  return async (step, ctx) => {
    await timerClock.sleep(stepMs, ctx.signal);
    appendFileSync(markerFile, `${step.id}\n`);
    return step.id === 'join' ? ctx.input : `result-${step.id}`;
  };
}

if (require.main === module) {
  const [runsDir, markerFile] = process.argv.slice(2);
  if (!runsDir || !markerFile) throw new Error('usage: crashingRun.ts <runsDir> <markerFile>');
  const marking = markingStepRunner(markerFile, 150);
  // The chains' first two steps finish; the rest hang until the kill, so it always lands mid-run however slow the machine.
  const stepRunner: StepRunner = (step, ctx) => {
    if (['a1', 'a2', 'b1', 'b2'].includes(step.id)) return marking(step, ctx);
    setInterval(() => undefined, 60_000);
    return new Promise<never>(() => undefined);
  };
  void runPlan(crashPlan, { store: createFileRunStore(runsDir), idSource: () => crashRunId, maxConcurrency: 2, stepRunner }).result;
}
