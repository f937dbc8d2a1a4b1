import type { ToolRegistry } from '../tools/tool';
import { toolEffectOf } from '../tools/toolEffectOf';
import type { Plan, Step } from './planSchema';

/** A step that waits for steps that may end without success, which skips it too (or stops the run). */
export interface SkippedInput {
  stepId: string;
  /** The dependencies that may not succeed, in `dependsOn` order. */
  dependencies: string[];
  /**
   * `fix`: the step is to fix what a dependency finds failing (a command, checks), so it runs
   * only when there is nothing to fix; `skippable`: a dependency the run may skip.
   */
  kind: 'fix' | 'skippable';
  message: string;
  recommendation: string;
}

// A step that is there to repair what failed: "fix the failing tests", "repair the build".
const fixWords = /\b(?:fix|fixes|fixing|repair\w*|debug\w*|make (?:it|them|the \w+) pass)\b|\bfail(?:ed|ing|ures?|s)?\b/i;

const fixAdvice =
  'Let the step that finds the failures succeed with them: give its command "allowFailure": true (its result holds the exit code and output), ' +
  'give the fix "when": "results.<id>.exitCode !== 0" and {{results.<id>}} in its input, and check the fix by running the command again (a command check).';
const skippableAdvice =
  'Make the dependency critical with onFailure "stop" or "retry" when the step needs it, or drop the dependency when the step can do without it.';

/**
 * The steps of `plan` that consume a step that may not succeed (docs/architecture.md §3).
 * The engine skips every dependent of a skipped or failed step, so:
 * - `fix` (critical): a step whose text is about fixing failures waits for a step that finds
 *   them (a command that fails on a non-zero exit, or a step with checks or a predicate):
 *   when there is something to fix, the finder fails and the fix is skipped (or the run stops),
 *   the test-and-fix trap; a finder with `onFailure: replan` leaves it to the repair plan.
 * - `skippable` (warning): a dependency the run may skip: `onFailure: skip`, not critical
 *   (a failure skips it), or `onVerificationFailure: skip` with something to verify.
 * One finding per step. Linear in steps and edges.
 */
export function skippedInputFindings(plan: Pick<Plan, 'steps'>, registry: ToolRegistry | undefined): SkippedInput[] {
  const byId = new Map(plan.steps.map((step) => [step.id, step]));
  const found: SkippedInput[] = [];
  for (const step of plan.steps) {
    const deps = step.dependsOn.flatMap((id) => {
      const dep = id === step.id ? undefined : byId.get(id);
      return dep === undefined ? [] : [dep];
    });
    const fixing = fixWords.test(`${step.title} ${step.input ?? ''}`);
    const finders = fixing ? deps.filter((dep) => findsFailures(dep, registry) && dep.onFailure !== 'replan') : [];
    if (finders.length > 0) {
      const ids = finders.map((dep) => dep.id);
      const ends = finders.every((dep) => whySkipped(dep) !== undefined) ? `"${step.id}" is skipped` : `"${step.id}" is skipped or the run stops`;
      found.push({
        stepId: step.id,
        dependencies: ids,
        kind: 'fix',
        message: `Step "${step.id}" is to fix what ${quoted(ids)} finds failing, but it runs only when ${quoted(ids)} succeeds: when there is something to fix, ${ends}, exactly when it is needed.`,
        recommendation: fixAdvice,
      });
      continue;
    }
    const skippable = deps.flatMap((dep) => {
      const why = whySkipped(dep);
      return why === undefined ? [] : [{ id: dep.id, why }];
    });
    if (skippable.length === 0) continue;
    found.push({
      stepId: step.id,
      dependencies: skippable.map((dep) => dep.id),
      kind: 'skippable',
      message: `Step "${step.id}" needs ${skippable.map((dep) => `"${dep.id}" (${dep.why})`).join(', ')}: when it does not succeed, "${step.id}" is skipped too.`,
      recommendation: skippableAdvice,
    });
  }
  return found;
}

/** Why the run may skip `step` and go on, or `undefined` when a failure stops the run or asks for a repair. */
function whySkipped(step: Step): string | undefined {
  if (step.onFailure === 'skip') return 'skipped when it fails, onFailure: skip';
  if (!step.critical && step.onFailure !== 'replan') return 'not critical, so skipped when it fails';
  const verified = (step.checks ?? []).length > 0 || step.verification !== undefined || step.review === true;
  if (verified && step.onVerificationFailure === 'skip') return 'skipped when its checks fail, onVerificationFailure: skip';
  return undefined;
}

/** True when `step` fails when it finds failures: a command that fails on a non-zero exit, or a step with checks or a predicate. */
function findsFailures(step: Step, registry: ToolRegistry | undefined): boolean {
  if ((step.checks ?? []).length > 0 || step.verification !== undefined) return true;
  return step.kind === 'tool' && toolEffectOf(step.tool ?? '', registry) === 'command' && step.args?.['allowFailure'] !== true;
}

function quoted(ids: readonly string[]): string {
  return ids.map((id) => `"${id}"`).join(', ');
}
