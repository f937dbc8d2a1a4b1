// The verdicts of one `npm run bench`: every target a bench states is checked here, against a value
// measured in the same run, printed as "met" or "NOT met" and remembered, so runBench.ts can fail the run
// when one was missed.

/** One target's outcome. */
export interface TargetVerdict {
  /** Which bench and what it measures. */
  label: string;
  met: boolean;
}

const verdicts: TargetVerdict[] = [];

/**
 * Prints `label: measured (target) -> met | NOT met` and records the verdict. `measured` and `target` are text as
 * the reader should see them; `met` is the comparison itself, made by the caller against its same-run baseline.
 */
export function checkTarget(label: string, measured: string, target: string, met: boolean): void {
  verdicts.push({ label, met });
  console.log(`    ${label}: ${measured} (target ${target}) -> ${met ? 'met' : 'NOT met'}`);
}

/** Every verdict recorded so far, in the order they were checked. */
export function targetVerdicts(): readonly TargetVerdict[] {
  return verdicts;
}
