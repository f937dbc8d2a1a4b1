// The command line's cost in plan size: `task-planner run` on plans of 1k and 10k tool
// steps (a random DAG of list_files steps that ask nothing), in this process through the
// CLI's own entry point (so start-up time is not counted), journaled to a temporary
// workspace. Linear means 10k/1k ≈ 10 (less while fixed costs weigh on 1k); the target is
// at most 15. Before followRun read the state once, 1k took 6.7 s, 2k 38 s, 4k 163 s.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/cli';
import type { CliIo } from '../../src/cli/cliIo';
import { randomDagPlan } from '../support/randomPlans';
import { checkTarget } from './benchTargets';

const quietIo: CliIo = { out: () => undefined, err: () => undefined, interactive: false, ask: () => Promise.resolve('') };

async function runCliOn(size: number): Promise<number> {
  const workspace = mkdtempSync(join(tmpdir(), 'cli-bench-'));
  try {
    const plan = randomDagPlan(size, 3, 7);
    const steps = plan.steps.map((step) => ({ ...step, kind: 'tool', tool: 'list_files', args: { glob: 'nothing/*.txt' }, input: undefined }));
    const file = join(workspace, 'plan.json');
    writeFileSync(file, JSON.stringify({ ...plan, steps }));
    const started = performance.now();
    const code = await main(['run', file, '--workspace', workspace, '--concurrency', '8'], quietIo);
    const elapsed = performance.now() - started;
    if (code !== 0) throw new Error(`task-planner run on ${size} steps exited ${code}`);
    return elapsed;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

async function median(size: number, repeats: number): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < repeats; index++) times.push(await runCliOn(size));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

export async function runBench(): Promise<void> {
  await runCliOn(1_000); // warm-up: module loading and JIT
  const small = await median(1_000, 5);
  const large = await median(10_000, 3);
  console.log(`CLI run (medians), 1k steps: ${small.toFixed(0)} ms; 10k steps: ${large.toFixed(0)} ms (linear ≈ 10× or less with fixed costs, quadratic ≈ 100×)`);
  checkTarget('CLI run, 10k steps / 1k steps', `${(large / small).toFixed(1)}×`, '≤ 15×', large / small <= 15);
}
