import { createHash } from 'node:crypto';
import type { ApprovalRequest, ClarificationRequest, ManualStepRequest, ReviewRequest } from '../interactionPorts';
import { describeManualStep } from './manualStepText';
import type { RequestKind } from '../tools/deferral';

/** A request as a step makes it, tagged with its kind. */
export type AskedRequest =
  | { kind: 'approval'; request: ApprovalRequest }
  | { kind: 'clarification'; request: ClarificationRequest }
  | { kind: 'review'; request: ReviewRequest }
  | { kind: 'manual'; request: ManualStepRequest };

/** What the user is shown for each kind of approval: the fields a fingerprint covers. */
const shownApproval: { [Kind in ApprovalRequest['kind']]: (request: Extract<ApprovalRequest, { kind: Kind }>) => unknown[] } = {
  file: (request) => [
    request.operation,
    request.proposal.path,
    request.proposal.resolvedPath ?? null,
    textHash(request.proposal.currentText),
    textHash(request.proposal.proposedText),
  ],
  // The program's file only when it is a project's own, likewise its helper's file and its input (tagged, so neither
  // passes for the other): fingerprints of other commands stay as they were.
  command: (request) => [
    request.argv,
    request.cwd,
    request.shell,
    ...(request.program ? [request.program.path] : []),
    ...(request.helper ? [{ helper: request.helper.path }] : []),
    ...(request.repositoryPrograms ? [{ repositoryPrograms: request.repositoryPrograms }] : []),
    ...(request.stdin === undefined ? [] : [{ stdin: textHash(request.stdin) }]),
    // Asked again after a crash, it says the command may already have run: an approval given before the crash (journaled,
    // or given to a resume) answered it unasked, and the command ran twice (an outside attack).
    ...(request.mayHaveRun ? [{ mayHaveRun: true }] : []),
  ],
  directory: (request) => [request.path],
  tool: (request) => [request.tool, request.source, request.input ?? null],
};

const shown: { [Kind in AskedRequest['kind']]: (request: Extract<AskedRequest, { kind: Kind }>['request']) => unknown[] } = {
  approval: (request) => [request.kind, ...(shownApproval[request.kind] as (request: ApprovalRequest) => unknown[])(request)],
  clarification: (request) => [request.question, request.suggestions ?? []],
  review: (request) => [request.prompt],
  manual: (request) => [describeManualStep(request)],
};

/**
 * The fingerprint of what a request shows the user (hex sha256): operation, path (and where
 * a link on the way leads) and the hashes of the current and proposed content of a file change; argv, working directory,
 * shell, (a project's own) program file, (a project's own) helper file, what the repository's git configuration runs,
 * the hash of the standard input of a command and
 * whether it says the command may already have run;
 * the path of a new directory; a question with its suggestions; a
 * review's prompt; a manual step's text (title, instructions, attachments and the results
 * before it, as `describeManualStep` shows them). Two requests of one kind with the same fingerprint show the same thing,
 * so an answer given to one may answer the other; any difference gives another fingerprint.
 */
export function fingerprintRequest(asked: AskedRequest): string {
  return digest([asked.kind, ...(shown[asked.kind] as (request: AskedRequest['request']) => unknown[])(asked.request)]);
}

/** The fingerprint of a request known only by its kind and prompt (a deferral without a request, a budget pause). */
export function fingerprintPrompt(kind: RequestKind, prompt: string): string {
  return digest([kind, prompt]);
}

/**
 * The id of a pending request, `<stepId>@<12 hex digits of its fingerprint>`: stable for the
 * same request, short enough to type, free of characters shells treat specially. An id
 * only finds a request; answers are matched on the full fingerprint.
 */
export function requestIdOf(stepId: string, fingerprint: string): string {
  return `${stepId}@${fingerprint.slice(0, 12)}`;
}

function textHash(text: string | undefined): string | null {
  return text === undefined ? null : createHash('sha256').update(text, 'utf8').digest('hex');
}

function digest(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts), 'utf8').digest('hex');
}
