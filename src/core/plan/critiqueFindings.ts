import type { DiagnosticCode } from './planSchema';
import type { VerificationFinding } from './verificationFindings';

/** The critic's own checks; validation errors appear under their `validatePlan` code. */
export type CritiqueCheck =
  | 'parallel_explosion'
  | 'missing_gate'
  | 'optimism_bias'
  | 'disconnected_flow'
  | 'orphan_step'
  | 'destructive_without_approval'
  | 'words_as_command'
  | 'download_into_shell'
  | 'skipped_input'
  | 'refused_untrusted'
  | 'withheld_read'
  | 'restated_request'
  | 'unordered_changes'
  | VerificationFinding['check']
  | 'llm_review';

/** One finding of the static critic: `check` is the stable code for tools, `name` says it in plain words. */
export interface CritiqueIssue {
  check: string;
  name: string;
  severity: 'critical' | 'warning' | 'info';
  stepId?: string;
  message: string;
  recommendation?: string;
  /** Set on validation errors: the run refuses the plan while one stands. */
  blocking?: true;
}

const checkNames: Readonly<Record<CritiqueCheck | DiagnosticCode, string>> = {
  empty_plan: 'No steps',
  duplicate_id: 'Step id used twice',
  missing_dependency: 'Waits for a step that does not exist',
  cycle: 'Steps wait for each other',
  self_dependency: 'Step waits for itself',
  unknown_tool: 'Unknown tool',
  invalid_args: 'Wrong tool arguments',
  missing_agent: 'Unknown agent',
  invalid_predicate: 'Broken condition',
  invalid_step: 'Incomplete step',
  invalid_output_schema: 'Unusable output schema',
  unknown_skill: 'Unknown skill',
  unknown_model: 'Unknown model',
  unknown_reference: 'Uses the result of a step that does not exist',
  parallel_explosion: 'Too many steps at once',
  missing_gate: 'Parallel results never combined',
  optimism_bias: 'Critical step that can fail for outside reasons',
  disconnected_flow: 'Dependency result not used',
  orphan_step: 'Result never used',
  destructive_without_approval: 'Change without approval',
  words_as_command: 'Command line made of words',
  download_into_shell: 'Runs a download unseen',
  skipped_input: 'Needs a step that may not succeed',
  refused_untrusted: 'Refused in Restricted Mode',
  withheld_read: 'Reads a file tools never read',
  restated_request: 'Nothing planned',
  unordered_changes: 'One file changed in an order left to chance',
  unverified_change: 'Changes never checked',
  impossible_check: 'Check that cannot pass',
  check_without_retry: 'Failed check never retried',
  check_cannot_fail: 'Check that cannot fail',
  llm_review: 'Model review',
};

/** What one finding takes off the score by its severity, unless its check weighs otherwise (`checkWeights`). */
export const severityWeights: Readonly<Record<CritiqueIssue['severity'], number>> = { critical: 3, warning: 1, info: 0.5 };

/**
 * Findings that weigh more than their severity says, per check and severity (others weigh
 * as their severity): a command that cannot run, a step skipped exactly when it is needed,
 * a critical step Restricted Mode refuses leave a plan that cannot do what it was asked (one
 * such finding brings a plan to 5), and a plan that only restates the request or a check
 * that cannot fail promise more than they hold.
 */
const checkWeights: Readonly<Partial<Record<CritiqueCheck, Partial<Record<CritiqueIssue['severity'], number>>>>> = {
  words_as_command: { critical: 5 },
  skipped_input: { critical: 5 },
  refused_untrusted: { critical: 5 },
  withheld_read: { critical: 5 },
  restated_request: { warning: 4 },
  check_cannot_fail: { warning: 2 },
};

/** What `issue` takes off the score: its check's own weight at its severity, else its severity's. */
export function issueWeight(issue: Pick<CritiqueIssue, 'check' | 'severity'>): number {
  const own = Object.hasOwn(checkWeights, issue.check) ? checkWeights[issue.check as CritiqueCheck]?.[issue.severity] : undefined;
  return own ?? severityWeights[issue.severity];
}

/** The plain-words name of a check code (the code itself, spaced, when unknown). */
export function checkName(check: string): string {
  return Object.hasOwn(checkNames, check) ? checkNames[check as CritiqueCheck] : check.replace(/_/g, ' ');
}

/** A finding of `check`, named in plain words; `stepId` and `recommendation` only when given. */
export function critiqueIssue(
  check: CritiqueCheck | DiagnosticCode,
  severity: CritiqueIssue['severity'],
  stepId: string | undefined,
  message: string,
  recommendation?: string,
): CritiqueIssue {
  return {
    check,
    name: checkNames[check],
    severity,
    ...(stepId === undefined ? {} : { stepId }),
    message,
    ...(recommendation === undefined ? {} : { recommendation }),
  };
}
