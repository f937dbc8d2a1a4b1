import type { ApprovalDecision, ApprovalRequest, Interaction, RetryNote } from '../interactionPorts';
import { boundedFeedback } from '../tools/approvalFeedback';
import type { RequestKind } from '../tools/deferral';
import {
  describeChangedInRun,
  describeCommandInputLine,
  describeProgramHelper,
  describeProjectProgram,
  projectProgramOrigin,
  shownCommand,
  shownRepositoryPrograms,
} from '../tools/commandApprovalText';
import { visibleControls } from '../../shared/visibleCharacters';
import { toolCallTarget } from '../tools/toolCallApprovalText';
import { fingerprintPrompt, fingerprintRequest, requestIdOf, type AskedRequest } from './requestFingerprint';
import { describeManualStep } from './manualStepText';
import { requestedEventOf, type PendingRequest, type RunEventBody, type SuppliedAnswer, type SuppliedAnswers } from './runEvents';

/** A step's view of the user, plus what happened through it during one attempt. */
export interface StepInteraction extends Interaction {
  /** Set when a request was answered `'defer'`: the attempt's failure is then a suspension. */
  readonly deferredKind: RequestKind | undefined;
}

/**
 * Wraps the run's `Interaction` for one attempt of one step: every request gets its id and
 * fingerprint and is journaled (`*_requested`, then `request_answered`). An answer given to
 * `resumeRun` answers a request only when it was bound to a request of this step with the
 * same fingerprint (what the user saw); every other request goes to `base`. An approval
 * the user refused during the attempt refuses the identical request again without asking.
 * A rejection's feedback is journaled with its answer (bounded). With `retry` (the attempt
 * is a retry), every approval request carries it, outside its fingerprint; with `feedbackHeard`
 * (a model does the step's work) every approval request says so (`ApprovalRequest.feedbackHeard`). A `'defer'` is
 * remembered. Nothing is emitted once `signal` is aborted.
 */
export function createStepInteraction(
  stepId: string,
  base: Interaction,
  supplied: () => SuppliedAnswers,
  emit: (body: RunEventBody) => void,
  signal: AbortSignal,
  retry?: RetryNote,
  feedbackHeard = false,
): StepInteraction {
  let deferredKind: RequestKind | undefined;
  // A change the user refused is refused again, without asking, if the step repeats it.
  const refused = new Map<string, SuppliedAnswer>();
  const journal = (body: RunEventBody): void => {
    if (!signal.aborted) emit(body);
  };
  async function ask<Asked extends AskedRequest, Answer>(
    asked: Asked,
    prompt: string,
    given: (answer: Extract<SuppliedAnswer, { kind: Asked['kind'] }>) => Answer,
    request: (identified: Asked['request']) => Promise<Answer | 'defer'>,
  ): Promise<Answer | 'defer'> {
    const fingerprint = fingerprintRequest(asked);
    const id = requestIdOf(stepId, fingerprint);
    // Outside the fingerprint, like `retry`: who hears feedback does not change what is asked.
    const identified = { ...asked.request, requestId: id, ...(feedbackHeard && asked.kind === 'approval' ? { feedbackHeard: true as const } : {}) };
    const pending: PendingRequest = { id, fingerprint, stepId, kind: asked.kind, prompt, request: identified };
    journal({ type: requestedEventOf[asked.kind], stepId, request: pending });
    const bound = supplied()[id] ?? refused.get(id);
    const matches = bound !== undefined && bound.kind === asked.kind && bound.stepId === stepId && bound.fingerprint === fingerprint;
    const answer = matches ? given(bound as Extract<SuppliedAnswer, { kind: Asked['kind'] }>) : await request(identified);
    if (asked.kind === 'approval' && answer !== 'defer' && !(answer as ApprovalDecision).approved) {
      refused.set(id, { kind: 'approval', stepId, fingerprint, decision: answer as ApprovalDecision });
    }
    if (answer === 'defer') {
      deferredKind = asked.kind;
      journal({ type: 'step_deferred', stepId });
    } else {
      const feedback = asked.kind === 'approval' ? boundedFeedback((answer as ApprovalDecision).feedback) : undefined;
      journal({
        type: 'request_answered',
        stepId,
        kind: asked.kind,
        requestId: id,
        ...(matches ? { given: true } : {}),
        ...(feedback === undefined ? {} : { feedback }),
      });
    }
    return answer;
  }
  return {
    get deferredKind() {
      return deferredKind;
    },
    requestApproval(request, requestSignal) {
      return ask(
        { kind: 'approval', request },
        promptOf.approval(request),
        (bound) => bound.decision,
        (identified) => base.requestApproval(retry === undefined ? identified : { ...identified, retry }, requestSignal),
      );
    },
    askClarification(request, requestSignal) {
      return ask(
        { kind: 'clarification', request },
        promptOf.clarification(request),
        (bound) => bound.answer,
        (identified) => base.askClarification(identified, requestSignal),
      );
    },
    requestReview(request, requestSignal) {
      return ask(
        { kind: 'review', request },
        promptOf.review(request),
        (bound) => bound.decision,
        (identified) => base.requestReview(identified, requestSignal),
      );
    },
    requestManualStep(request, requestSignal) {
      return ask(
        { kind: 'manual', request },
        promptOf.manual(request),
        (bound) => bound.outcome,
        (identified) => base.requestManualStep(identified, requestSignal),
      );
    },
  };
}

const approvalVerb: Record<Extract<ApprovalRequest, { kind: 'file' }>['operation'], string> = { write: 'Write', edit: 'Edit', delete: 'Delete' };

/** One line telling the user what an approval would allow. */
export function describeApproval(request: ApprovalRequest): string {
  switch (request.kind) {
    case 'command':
      // One line, yet everything an Approve from it answers: the helper and the repository's programs that would run, and the input the command is given.
      // Each word as the question shows it (quoted when it holds a space or a character a shell reads): joined by spaces,
      // `sh -c "echo ran >> ran.log; sleep 30"` read as a different command. A shell's script is one word, shown as written.
      return `Run \`${request.shell ? visibleControls(request.argv.join(' ')) : shownCommand(request.argv)}\` in ${request.cwd || '.'}${request.shell ? ' (through a shell)' : ''}${
        request.program ? ` with ${describeProjectProgram(request.argv[0] ?? '', request.program)} from ${projectProgramOrigin(request.program)}` : ''
      }${request.helper ? `, running ${describeProgramHelper(request.argv, request.helper)} from ${projectProgramOrigin(request.helper)}` : ''}${
        request.repositoryPrograms ? `, running what this repository's own git configuration names: ${shownRepositoryPrograms(request.repositoryPrograms)}` : ''
      }${
        request.stdin ? `, given input (${describeCommandInputLine(request.stdin)})` : ''
      }${
        request.changedInRun?.length ? ` (this run changed ${describeChangedInRun(request.changedInRun)}, which it reads to decide what it runs)` : ''
      }?`;
    case 'directory':
      return `Create the directory ${request.path}?`;
    case 'file':
      return `${approvalVerb[request.operation]} ${request.proposal.path}?`;
    case 'tool':
      return `Call ${toolCallTarget(request)}?`;
  }
}

/** The interaction of a run without a user: every request is deferred. */
export const deferAllInteraction: Interaction = {
  requestApproval: () => Promise.resolve('defer'),
  askClarification: () => Promise.resolve('defer'),
  requestReview: () => Promise.resolve('defer'),
  requestManualStep: () => Promise.resolve('defer'),
};

/** The one line each kind of request is shown with, as `ask` journals it (its `prompt`). */
const promptOf: { [Kind in AskedRequest['kind']]: (request: Extract<AskedRequest, { kind: Kind }>['request']) => string } = {
  approval: (request) => describeApproval(request),
  clarification: (request) => request.question,
  review: (request) => request.prompt,
  manual: (request) => describeManualStep(request),
};

/**
 * Whether a pending request read from a journal shows what an answer to it would answer: its id, fingerprint and prompt are
 * those of the request it carries (of its prompt alone, for one without a request). A journal changed by hand or by another
 * program can pair a harmless request shown with the id and fingerprint of another change; an answer given to that id would
 * approve what was never shown (an outside attack).
 */
export function showsWhatItAsks(pending: PendingRequest): boolean {
  try {
    const asked = pending.request === undefined ? undefined : ({ kind: pending.kind, request: pending.request } as AskedRequest);
    const fingerprint = asked === undefined ? fingerprintPrompt(pending.kind, pending.prompt) : fingerprintRequest(asked);
    const prompt = asked === undefined ? pending.prompt : (promptOf[asked.kind] as (request: AskedRequest['request']) => string)(asked.request);
    return fingerprint === pending.fingerprint && prompt === pending.prompt && pending.id === requestIdOf(pending.stepId, fingerprint);
  } catch {
    // A request of another kind's shape (a forged one) has no fingerprint to compare.
    return false;
  }
}
