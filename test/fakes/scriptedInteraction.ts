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

/** One answer of the script: a fixed value, or a function of the request. */
type Answer<Request, Decision> = Decision | 'defer' | ((request: Request) => Decision | 'defer');

/** What a `ScriptedInteraction` answers, in order per kind. */
export interface InteractionScript {
  approvals?: Answer<ApprovalRequest, ApprovalDecision>[];
  clarifications?: Answer<ClarificationRequest, string>[];
  reviews?: Answer<ReviewRequest, ReviewDecision>[];
  manual?: Answer<ManualStepRequest, ManualStepOutcome>[];
}

/** Every request received, in order. */
export type RecordedRequest =
  | { kind: 'approval'; request: ApprovalRequest }
  | { kind: 'clarification'; request: ClarificationRequest }
  | { kind: 'review'; request: ReviewRequest }
  | { kind: 'manual'; request: ManualStepRequest };

/**
 * An `Interaction` answering from a script and recording every request. A request with no
 * scripted answer left fails the test loudly instead of hanging.
 */
export class ScriptedInteraction implements Interaction {
  readonly requests: RecordedRequest[] = [];
  private readonly script: Required<InteractionScript>;

  constructor(script: InteractionScript = {}) {
    this.script = { approvals: [...(script.approvals ?? [])], clarifications: [...(script.clarifications ?? [])], reviews: [...(script.reviews ?? [])], manual: [...(script.manual ?? [])] };
  }

  /** A script that approves every approval request. */
  static approvingAll(): ScriptedInteraction {
    const interaction = new ScriptedInteraction();
    interaction.approveAll = true;
    return interaction;
  }

  private approveAll = false;

  /** The approval requests received, in order. */
  approvals(): ApprovalRequest[] {
    return this.requests.flatMap((entry) => (entry.kind === 'approval' ? [entry.request] : []));
  }

  /** The clarification requests received, in order. */
  clarifications(): ClarificationRequest[] {
    return this.requests.flatMap((entry) => (entry.kind === 'clarification' ? [entry.request] : []));
  }

  async requestApproval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision | 'defer'> {
    signal.throwIfAborted();
    this.requests.push({ kind: 'approval', request });
    if (this.approveAll) return { approved: true };
    return answer(this.script.approvals.shift(), request, 'approval');
  }

  // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- 'defer' named for the reader, as in the port
  async askClarification(request: ClarificationRequest, signal: AbortSignal): Promise<string | 'defer'> {
    signal.throwIfAborted();
    this.requests.push({ kind: 'clarification', request });
    return answer(this.script.clarifications.shift(), request, 'clarification');
  }

  async requestReview(request: ReviewRequest, signal: AbortSignal): Promise<ReviewDecision | 'defer'> {
    signal.throwIfAborted();
    this.requests.push({ kind: 'review', request });
    return answer(this.script.reviews.shift(), request, 'review');
  }

  async requestManualStep(request: ManualStepRequest, signal: AbortSignal): Promise<ManualStepOutcome | 'defer'> {
    signal.throwIfAborted();
    this.requests.push({ kind: 'manual', request });
    return answer(this.script.manual.shift(), request, 'manual step');
  }
}

function answer<Request, Decision>(next: Answer<Request, Decision> | undefined, request: Request, kind: string): Decision | 'defer' {
  if (next === undefined) throw new Error(`ScriptedInteraction: unexpected ${kind} request with no scripted answer: ${JSON.stringify(request)}`);
  return typeof next === 'function' ? (next as (request: Request) => Decision | 'defer')(request) : next;
}
