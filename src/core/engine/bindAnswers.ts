import type { ApprovalDecision, ManualStepOutcome } from '../interactionPorts';
import { boundedFeedback } from '../tools/approvalFeedback';
import type { ResumeOptions } from './runOptions';
import { showsWhatItAsks } from './stepInteraction';
import type { ManualAnswer, PendingRequest, RunState, SuppliedAnswer, SuppliedAnswers } from './runEvents';

/** Answers a resume gave, bound to the pending requests they answer, and what matched nothing. */
export interface BoundAnswers {
  supplied: SuppliedAnswers;
  /** One sentence per answer that was not used, saying why and what does wait. */
  warnings: string[];
}

type AnswerKind = SuppliedAnswer['kind'];

const waitsFor: Record<PendingRequest['kind'], string> = {
  approval: 'an approval',
  clarification: 'an answer',
  review: 'a review',
  budget: 'a higher budget',
  manual: 'you to do it (done or failed)',
};
const answerNoun: Record<AnswerKind, string> = { approval: 'approval', clarification: 'answer', review: 'review', manual: 'done or failed' };

/**
 * Binds the answers of `resumeRun` to the requests the run waits on in `state` (the
 * folded journal, before the resume). A key is a request id (`PendingRequest.id`) or a step
 * id, which then names only that step's pending request; the answer is bound to that
 * request's fingerprint, so it can answer nothing else. An answer whose key names no
 * pending request, a request of another kind, or one that does not show what it asks (`showsWhatItAsks`), is not used
 * and is reported.
 */
export function bindAnswers(state: RunState, options: Pick<ResumeOptions, 'approvals' | 'answers' | 'reviews' | 'manual'>): BoundAnswers {
  const pending = Object.values(state.steps).flatMap((step) => (step.pending ? [step.pending] : []));
  const byId = new Map(pending.map((request) => [request.id, request]));
  const byStep = new Map(pending.map((request) => [request.stepId, request]));
  const supplied: SuppliedAnswers = {};
  const warnings: string[] = [];
  const bind = (key: string, kind: AnswerKind, answer: (bound: { stepId: string; fingerprint: string }) => SuppliedAnswer): void => {
    const request = byId.get(key) ?? byStep.get(key);
    if (request === undefined) {
      const waiting = pending.map((item) => item.id).join(', ') || 'none';
      warnings.push(`The ${answerNoun[kind]} given for "${key}" matches no pending request and was not used (pending: ${waiting}).`);
      return;
    }
    if (!showsWhatItAsks(request)) {
      warnings.push(
        `The ${answerNoun[kind]} given for "${key}" was not used: the run's journal shows request ${request.id} otherwise than what it asks (the journal was changed outside Task Planner). Resume without it: the step asks again, showing what it does.`,
      );
      return;
    }
    if (request.kind !== kind) {
      warnings.push(`The ${answerNoun[kind]} given for "${key}" was not used: step ${request.stepId} waits for ${waitsFor[request.kind]} (${request.id}).`);
      return;
    }
    supplied[request.id] = answer({ stepId: request.stepId, fingerprint: request.fingerprint });
  };
  for (const [key, approval] of Object.entries(options.approvals ?? {})) {
    const decision = typeof approval === 'boolean' ? { approved: approval } : feedbackDecision(approval.feedback);
    bind(key, 'approval', (bound) => ({ ...bound, kind: 'approval', decision }));
  }
  for (const [key, text] of Object.entries(options.answers ?? {})) bind(key, 'clarification', (bound) => ({ ...bound, kind: 'clarification', answer: text }));
  for (const [key, decision] of Object.entries(options.reviews ?? {})) {
    bind(key, 'review', (bound) => ({ ...bound, kind: 'review', decision: { ...decision } }));
  }
  for (const [key, answer] of Object.entries(options.manual ?? {})) {
    bind(key, 'manual', (bound) => ({ ...bound, kind: 'manual', outcome: manualOutcome(answer) }));
  }
  return { supplied, warnings };
}

/** A rejection with `feedback`, bounded (a plain rejection when nothing but white space was given). */
function feedbackDecision(text: string): ApprovalDecision {
  const feedback = boundedFeedback(text);
  return feedback === undefined ? { approved: false } : { approved: false, feedback };
}

/** A manual answer given to `resumeRun` as the outcome the step acts on (the executor words a missing reason). */
function manualOutcome(answer: ManualAnswer): ManualStepOutcome {
  if (!answer.done) return { done: false, reason: answer.reason ?? '' };
  return answer.note === undefined ? { done: true } : { done: true, note: answer.note };
}
