// Context compaction on a scripted 100-step run (docs/architecture.md §5): every step's agent
// prompt is built with `buildStepPrompt` from the rolling summary (`compactContext`, here
// with its deterministic fallback so the run is reproducible) and its direct dependencies'
// results. Printed: the peak prompt tokens of any step against the configured budget, and
// the total prompt tokens against naive full-history accumulation (objective + every
// earlier result in full + input) measured in the same run. Target: peak ≤ budget, ≥ 5×.
import { compactContext } from '../../src/core/llm/contextCompactor';
import { buildStepPrompt, defaultStepPromptBudget } from '../../src/core/agent/stepPrompt';
import { countTokens } from '../../src/core/llm/tokenCount';
import type { Step } from '../../src/core/plan/planSchema';
import { makePlan, makeStep } from '../support/randomPlans';
import { checkTarget } from './benchTargets';

const stepCount = 100;
const summaryBudget = 1_000;
const headingAllowance = 60;

/** A deterministic result of 300–1,100 tokens, different per step. */
function resultOf(index: number): string {
  const sentences = 20 + ((index * 37) % 60);
  return Array.from({ length: sentences }, (_, n) => `In step ${index + 1} the agent inspected src/module${(index + n) % 23}/part${n}.ts and found ${n * 3 + index} references to helper${n % 7}.`).join(' ');
}

export async function runBench(): Promise<void> {
  const steps: Step[] = Array.from({ length: stepCount }, (_, index) => {
    const deps = [index - 1, index - 3, index - 7].filter((dep) => dep >= 0).map((dep) => `S${String(dep + 1).padStart(3, '0')}`);
    return makeStep(`S${String(index + 1).padStart(3, '0')}`, { title: `Analyse part ${index + 1}`, dependsOn: deps, input: `Analyse part ${index + 1} using {{results.${deps[0] ?? 'none'}}}` });
  });
  const plan = makePlan(steps, { objective: 'Audit every module of the code base and write a report of helper usage.' });
  const budget = { ...defaultStepPromptBudget, summary: summaryBudget };
  const configuredBudget = Object.values(budget).reduce((sum, value) => sum + value, 0) + headingAllowance;
  const signal = new AbortController().signal;

  const results: Record<string, string> = {};
  const statuses: Record<string, string> = {};
  let summary = '';
  let peak = 0;
  let peakStep = '';
  let compactedTotal = 0;
  let naiveTotal = 0;
  let historyTokens = 0;
  const fixedNaive = countTokens(plan.objective) + 8;
  const started = performance.now();
  for (const step of steps) {
    statuses[step.id] = 'running';
    const depends = Object.fromEntries(step.dependsOn.map((id) => [id, results[id]]));
    const prompt = buildStepPrompt({ objective: plan.objective, plan, statuses, summary, step, depends, input: step.input ?? '', budget });
    compactedTotal += prompt.tokens;
    if (prompt.tokens > peak) {
      peak = prompt.tokens;
      peakStep = step.id;
    }
    naiveTotal += fixedNaive + historyTokens + countTokens(step.input ?? '');

    const result = resultOf(steps.indexOf(step));
    results[step.id] = result;
    statuses[step.id] = 'completed';
    historyTokens += countTokens(`### ${step.id}\n${result}\n`);
    summary = (await compactContext(summary, { stepId: step.id, title: step.title, result }, { budgetTokens: summaryBudget, signal, objective: plan.objective })).summary;
  }
  const elapsed = performance.now() - started;
  const ratio = naiveTotal / compactedTotal;
  console.log(`steps: ${stepCount}, summary budget: ${summaryBudget} tokens, step prompt budget: ${configuredBudget} tokens`);
  checkTarget('peak step prompt / the configured budget', `${peak} tokens (${peakStep}), ${((peak / configuredBudget) * 100).toFixed(1)} %`, `≤ 100 % of ${configuredBudget}`, peak <= configuredBudget);
  checkTarget('total prompt tokens, naive full history / compacted', `${naiveTotal} / ${compactedTotal} = ${ratio.toFixed(1)}×`, '≥ 5×', ratio >= 5);
  console.log(`time: ${elapsed.toFixed(0)} ms for ${stepCount} prompts and summary updates`);
}
