import { noBudgetUsage, type BudgetUsage } from '../llm/budget';
import type { RunState } from './runEvents';

/**
 * What a journaled run has spent on the model, for a resumed run's budget to count before anything runs: its own
 * calls (`modelUsage`: every attempt, failed and retried ones too, and one a crash cut off as a request),
 * after what the runs and repair plans before it spent (a repair run's last `ReplanRecord.usage`), and never less than
 * its last budget pause counted. A field of the journal that is no count (a damaged line) counts as 0.
 */
export function journaledSpending(state: Pick<RunState, 'modelUsage' | 'budgetUsage' | 'replanHistory'>): BudgetUsage {
  const before = countsOf(state.replanHistory?.at(-1)?.usage);
  const own = countsOf(state.modelUsage);
  const paused = countsOf(state.budgetUsage);
  const total: BudgetUsage = { ...noBudgetUsage };
  for (const key of Object.keys(total) as (keyof BudgetUsage)[]) total[key] = Math.max(before[key] + own[key], paused[key]);
  return total;
}

/**
 * `usage` raised, count by count, to what `recorded` says was spent by then (a repair's `ReplanRecord.usage`: every run
 * and repair plan before it, the replanner's calls too, which no journal has as events). A field of `recorded` that is
 * no count counts as 0.
 */
export function usageAtLeast(usage: BudgetUsage | undefined, recorded: unknown): BudgetUsage {
  const own = countsOf(usage);
  const floor = countsOf(recorded);
  const total: BudgetUsage = { ...noBudgetUsage };
  for (const key of Object.keys(total) as (keyof BudgetUsage)[]) total[key] = Math.max(own[key], floor[key]);
  return total;
}

function countsOf(usage: unknown): BudgetUsage {
  const fields = typeof usage === 'object' && usage !== null ? (usage as Record<string, unknown>) : {};
  const counts: BudgetUsage = { ...noBudgetUsage };
  for (const key of Object.keys(counts) as (keyof BudgetUsage)[]) {
    const value = fields[key];
    counts[key] = typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
  }
  return counts;
}
