import { changesText, noChangeHappened, type AgentChanges } from '../text/agentChanges';
import { checkOutput } from '../tools/outputSchema';
import { parseJsonLoose } from '../text/parseJsonLoose';
import type { Step } from '../plan/planSchema';
import { performedBy } from '../plan/stepKindTraits';
import { capText, textCaps } from '../text/capText';
import { feedbackInstruction } from '../tools/approvalFeedback';
import { StepOutcome } from './stepOutcome';

/**
 * What an attempt's work amounts to before checks and predicates: its result (with the
 * agent's file changes, if any); a step whose every change the user rejected (it ends
 * skipped, like a rejected approval); or a verification failure with its diagnosis.
 */
export type ShapedResult =
  | { kind: 'result'; result: unknown; changes?: AgentChanges }
  | { kind: 'rejected'; reason: string }
  | { kind: 'mismatch'; diagnosis: string }
  | { kind: 'feedback'; message: string; diagnosis: string };

/**
 * The first layer of verification (docs/architecture.md §4), pure: an agent that tried to
 * change files and changed none is not done on its word (a change rejected with feedback:
 * `feedback`, what happened for the person and the last feedback for the next attempt; else every change rejected by the user:
 * `rejected`, never retried; some failed: `mismatch` listing them, so the retry knows);
 * under an output schema the result must be JSON (a string result is parsed, at most
 * `textCaps.result` characters) that matches the schema (`checkOutput`'s diagnosis).
 */
export function shapeResult(step: Step, produced: unknown): ShapedResult {
  const outcome = produced instanceof StepOutcome ? produced : new StepOutcome(produced);
  const changes = outcome.changes;
  if (changes !== undefined && noChangeHappened(changes)) {
    const feedback = changes.rejected.filter((change) => change.feedback === true).at(-1)?.reason;
    if (feedback !== undefined) {
      const happened = `None of the step's file changes happened (${changesText(changes).replace(/\n/g, '; ')}).`;
      return {
        kind: 'feedback',
        // The person reads what happened; only the next attempt's model is told what to do about it.
        message: capText(`${happened} You rejected the change and said: ${JSON.stringify(feedback)}; the agent did not propose it again.`, textCaps.message),
        diagnosis: capText(`${happened} ${feedbackInstruction(feedback)}`, textCaps.message),
      };
    }
    if (changes.failed.length === 0) {
      return {
        kind: 'rejected',
        reason: capText(`Rejected by you: every change of the step was rejected (${changesText(changes).replace(/^rejected: /, '')})`, textCaps.message),
      };
    }
    return {
      kind: 'mismatch',
      diagnosis: capText(
        `None of the step's file changes happened, so the step is not done.\n${changesText(changes)}\nFix what failed; do not ask again for a change the user rejected.`,
        textCaps.message,
      ),
    };
  }
  if (outcome.unreadable !== undefined) return { kind: 'mismatch', diagnosis: capText(outcome.unreadable, textCaps.message) };
  const withChanges = changes === undefined ? {} : { changes };
  if (step.outputSchema === undefined || !performedBy(step.kind, 'model')) return { kind: 'result', result: outcome.result, ...withChanges };
  let value = outcome.result;
  if (typeof value === 'string') {
    if (value.length > textCaps.result) {
      return {
        kind: 'mismatch',
        diagnosis: `The step's result is ${value.length} characters long; at most ${textCaps.result} are read as JSON. Answer with a shorter JSON value.`,
      };
    }
    const parsed = parseJsonLoose(value);
    if (!parsed.ok) return { kind: 'mismatch', diagnosis: capText(`The step's result is not JSON: ${parsed.error}`, textCaps.message) };
    value = parsed.value;
  }
  const checked = checkOutput(step.outputSchema, value);
  if (!checked.ok) return { kind: 'mismatch', diagnosis: capText(checked.diagnosis, textCaps.message) };
  return { kind: 'result', result: value, ...withChanges };
}
