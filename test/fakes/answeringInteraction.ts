import type {
  ApprovalDecision,
  ApprovalRequest,
  ClarificationRequest,
  Interaction,
  ManualStepOutcome,
  ManualStepRequest,
  ReviewDecision,
  ReviewRequest,
} from '../../src/core/interactionPorts';

/** Scripted answers by request kind; each function may return `'defer'`. Default: defer. */
export interface Answers {
  approval?: (request: ApprovalRequest) => ApprovalDecision | 'defer' | Promise<ApprovalDecision | 'defer'>;
  // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- 'defer' named for the reader, as in the port
  clarification?: (request: ClarificationRequest) => string | 'defer' | Promise<string | 'defer'>;
  review?: (request: ReviewRequest) => ReviewDecision | 'defer' | Promise<ReviewDecision | 'defer'>;
  manual?: (request: ManualStepRequest, signal: AbortSignal) => ManualStepOutcome | 'defer' | Promise<ManualStepOutcome | 'defer'>;
}

/** An `Interaction` that answers from `answers` and records every request it got. */
export function answeringInteraction(answers: Answers): Interaction & { asked: { kind: string; stepId: string }[] } {
  const asked: { kind: string; stepId: string }[] = [];
  return {
    asked,
    async requestApproval(request) {
      asked.push({ kind: 'approval', stepId: request.stepId });
      return answers.approval ? answers.approval(request) : 'defer';
    },
    async askClarification(request) {
      asked.push({ kind: 'clarification', stepId: request.stepId });
      return answers.clarification ? answers.clarification(request) : 'defer';
    },
    async requestReview(request) {
      asked.push({ kind: 'review', stepId: request.stepId });
      return answers.review ? answers.review(request) : 'defer';
    },
    async requestManualStep(request, signal) {
      asked.push({ kind: 'manual', stepId: request.stepId });
      return answers.manual ? answers.manual(request, signal) : 'defer';
    },
  };
}
