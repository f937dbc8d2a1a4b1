import type { ApprovalRequest, Interaction, ManualStepOutcome } from '../ports';
import type { RequestKind } from '../tools/deferral';
import { describeManualStep } from './manualStepText';
import { requestedEventOf, type ManualAnswer, type PendingRequest, type RunEventBody, type SuppliedAnswers } from './runEvents';

/** A step's view of the user, plus what happened through it during one attempt. */
export interface StepInteraction extends Interaction {
  /** Set when a request was answered `'defer'`: the attempt's failure is then a suspension. */
  readonly deferredKind: RequestKind | undefined;
}

/**
 * Wraps the run's `Interaction` for one attempt of one step: every request is journaled
 * (`*_requested`, then `request_answered`), an answer given to `resumeRun` for this step
 * answers the first request of its kind without asking, and a `'defer'` is remembered.
 * Nothing is emitted once `signal` is aborted.
 */
export function createStepInteraction(
  stepId: string,
  base: Interaction,
  supplied: () => SuppliedAnswers,
  emit: (body: RunEventBody) => void,
  signal: AbortSignal,
): StepInteraction {
  let deferredKind: RequestKind | undefined;
  const used = new Set<RequestKind>();
  const journal = (body: RunEventBody): void => {
    if (!signal.aborted) emit(body);
  };
  async function ask<Answer>(
    kind: Exclude<RequestKind, 'budget'>,
    pending: PendingRequest,
    given: Answer | undefined,
    request: () => Promise<Answer | 'defer'>,
  ): Promise<Answer | 'defer'> {
    journal({ type: requestedEventOf[kind], stepId, request: pending });
    let answer: Answer | 'defer';
    if (given !== undefined && !used.has(kind)) {
      used.add(kind);
      answer = given;
    } else {
      answer = await request();
    }
    if (answer === 'defer') {
      deferredKind = kind;
      journal({ type: 'step_deferred', stepId });
    } else {
      journal({ type: 'request_answered', stepId, kind });
    }
    return answer;
  }
  return {
    get deferredKind() {
      return deferredKind;
    },
    requestApproval(request, requestSignal) {
      const given = supplied().approvals[stepId];
      return ask('approval', { stepId, kind: 'approval', prompt: describeApproval(request), request }, given === undefined ? undefined : { approved: given }, () =>
        base.requestApproval(request, requestSignal),
      );
    },
    askClarification(request, requestSignal) {
      const given = supplied().answers[stepId];
      return ask('clarification', { stepId, kind: 'clarification', prompt: request.question, request }, given, () =>
        base.askClarification(request, requestSignal),
      );
    },
    requestReview(request, requestSignal) {
      return ask('review', { stepId, kind: 'review', prompt: request.prompt, request }, supplied().reviews[stepId], () =>
        base.requestReview(request, requestSignal),
      );
    },
    requestManualStep(request, requestSignal) {
      const given = supplied().manual?.[stepId];
      return ask('manual', { stepId, kind: 'manual', prompt: describeManualStep(request), request }, given === undefined ? undefined : manualOutcome(given), () =>
        base.requestManualStep(request, requestSignal),
      );
    },
  };
}

/** A manual answer given to `resumeRun` as the outcome the step acts on (the executor words a missing reason). */
function manualOutcome(answer: ManualAnswer): ManualStepOutcome {
  if (!answer.done) return { done: false, reason: answer.reason ?? '' };
  return answer.note === undefined ? { done: true } : { done: true, note: answer.note };
}

/** One line telling the user what an approval would allow. */
export function describeApproval(request: ApprovalRequest): string {
  if (request.kind === 'command') {
    return `Run \`${request.argv.join(' ')}\` in ${request.cwd || '.'}${request.shell ? ' (through a shell)' : ''}?`;
  }
  return `${request.operation === 'delete' ? 'Delete' : request.operation === 'edit' ? 'Edit' : 'Write'} ${request.proposal.path}?`;
}

/** The interaction of a run without a user: every request is deferred. */
export const deferAllInteraction: Interaction = {
  requestApproval: () => Promise.resolve('defer'),
  askClarification: () => Promise.resolve('defer'),
  requestReview: () => Promise.resolve('defer'),
  requestManualStep: () => Promise.resolve('defer'),
};
