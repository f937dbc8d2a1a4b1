/** The words that open the reason of a run a critical step stopped; its failure follows. */
const lead = (stepId: string): string => `Critical step ${stepId} failed`;

/** Why a run stopped when critical step `stepId` failed: "Critical step S1 failed: <its failure>". */
export function criticalHaltReason(stepId: string, detail: string | undefined): string {
  return `${lead(stepId)}${detail ? `: ${detail}` : ''}`;
}

/**
 * A run's `reason` without the failure it repeats, for a place that shows that failure already (a summary's Failures,
 * the step's own line): "Critical step S1 failed." when critical step `stepId` of `shownFailures` stopped the run;
 * the reason as it is otherwise.
 */
export function reasonBesideFailures(reason: string, shownFailures: ReadonlySet<string>): string {
  const halted = /^Critical step (\S+) failed(?::|$)/.exec(reason)?.[1];
  return halted !== undefined && shownFailures.has(halted) ? `${lead(halted)}.` : reason;
}
