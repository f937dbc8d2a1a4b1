// Compaction's own requests over a scripted 2,000-step run (docs/architecture.md §5): each step makes one
// agent request with the rolling summary (test/support/compactionRun.ts). Baseline, measured in the same run:
// the run without compaction requests (no model for compaction: the deterministic condensation only).
// Printed: requests with a model that condenses as asked, and with one whose summaries are unusable, as a ratio
// to the baseline. Targets: ≤ 1.2× the baseline, every paid summary used, every dropped one explained.
import { countCompactionRun } from '../support/compactionRun';
import { checkTarget } from './benchTargets';

const steps = 2_000;
const budget = 1_000;

export async function runBench(): Promise<void> {
  const started = performance.now();
  const baseline = await countCompactionRun(steps, budget, 'none');
  const baselineRequests = baseline.agentRequests + baseline.compactionRequests;
  console.log(
    `steps: ${steps}, summary budget: ${budget} tokens, baseline (no compaction requests): ${baselineRequests} requests, ${baseline.fallbacks} condensations`,
  );
  for (const model of ['honest', 'rambling'] as const) {
    const run = await countCompactionRun(steps, budget, model);
    const requests = run.agentRequests + run.compactionRequests;
    const ratio = requests / baselineRequests;
    checkTarget(
      `requests with a ${model} compaction model / without compaction`,
      `${requests} / ${baselineRequests} = ${ratio.toFixed(3)}×`,
      '≤ 1.2×',
      ratio <= 1.2,
    );
    const accounted = run.usedSummaries + run.droppedWithReason;
    checkTarget(
      `${model} model: compaction requests whose summary was used, or dropped saying why`,
      `${run.usedSummaries} used + ${run.droppedWithReason} dropped with a reason of ${run.compactionRequests}`,
      model === 'honest' ? 'all used' : 'all accounted for',
      accounted === run.compactionRequests && (model !== 'honest' || run.usedSummaries === run.compactionRequests),
    );
    checkTarget(
      `${model} model: largest summary after a compaction`,
      `${run.largestCompactedTokens} tokens`,
      `≤ ${budget / 2} (half the budget)`,
      run.largestCompactedTokens <= budget / 2,
    );
  }
  console.log(`time: ${(performance.now() - started).toFixed(0)} ms for three runs of ${steps} steps`);
}
