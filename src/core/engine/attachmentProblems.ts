import { attachmentTarget, shownRef } from '../plan/attachmentTarget';
import type { Attachment, Plan } from '../plan/planSchema';
import type { WorkspaceFs } from '../workspacePorts';
import { checkFetchUrl } from '../web/fetchUrlTarget';
import { PathRefusedError } from '../workspace/resolveInRoot';
import { errorMessage } from '../../shared/errorMessage';

/** Why an attachment cannot be given to its step: a file's (`missing` … `unreadable`), or an address its step cannot read (`bad_url`). */
export type AttachmentProblemReason = 'missing' | 'outside' | 'not_a_file' | 'unreadable' | 'bad_url';

/** A file or image attachment of a step that the run could not give to it; `message` is for the user. */
export interface AttachmentProblem {
  stepId: string;
  attachment: Attachment;
  reason: AttachmentProblemReason;
  message: string;
}

/**
 * Every attachment of `plan`'s steps that its step cannot be given, checked before a run
 * starts so none is dropped on the way: a file or image that is not a readable file of
 * `workspace` (a path that does not exist, one that leads outside the workspace (`..`, an
 * absolute path, a link out of it, a name with control characters: whatever the workspace
 * refuses), a directory, or one the workspace cannot look at), and a link or image address
 * that `fetch_url` would refuse as written (not a URL, not http or https, with a user name
 * or password, a link-local, multicast or reserved address; `checkFetchUrl`). Nothing is
 * fetched: an address that is well formed but does not answer is the step's to find out.
 * `data:` images and a selection that kept its text are not checked.
 * Skipped steps are left out. In plan order; each message names the step and the file or address.
 */
export async function findAttachmentProblems(plan: Plan, workspace: WorkspaceFs, signal?: AbortSignal): Promise<AttachmentProblem[]> {
  const problems: AttachmentProblem[] = [];
  for (const step of plan.steps) {
    if (step.skipped === true) continue;
    for (const attachment of step.attachments ?? []) {
      const target = attachmentTarget(attachment);
      if (target.kind === 'url') {
        const problem = urlProblem(target.url);
        if (problem !== undefined) {
          const what = `Step ${step.id} attaches the ${attachment.kind === 'image' ? 'image' : 'link'} "${shownRef(target.url)}"`;
          problems.push({ stepId: step.id, attachment, reason: 'bad_url', message: `${what}, which cannot be read: ${shownRef(problem)}` });
        }
        continue;
      }
      // A selection that kept its text needs its file no more.
      if (attachment.text !== undefined) continue;
      const problem = await problemOf(workspace, target.path, signal);
      if (problem === undefined) continue;
      const what = `Step ${step.id} attaches the ${attachment.kind === 'image' ? 'image' : 'file'} "${shownRef(target.path)}"`;
      problems.push({ stepId: step.id, attachment, reason: problem.reason, message: `${what}, which ${problem.detail}.` });
    }
  }
  return problems;
}

/** What is wrong with an attached address as written, in the user's words, or `undefined` (a `data:` URL carries its content). */
function urlProblem(url: string): string | undefined {
  if (/^data:/i.test(url.trim())) return undefined;
  try {
    checkFetchUrl(url.trim());
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}

async function problemOf(
  workspace: WorkspaceFs,
  path: string,
  signal: AbortSignal | undefined,
): Promise<{ reason: AttachmentProblemReason; detail: string } | undefined> {
  try {
    // `locate` follows links as the tools do, and refuses one that leads out of the workspace.
    if (workspace.locate) await workspace.locate(path, signal);
    const stat = await workspace.stat(path, signal);
    if (stat === undefined) return { reason: 'missing', detail: 'does not exist in the workspace' };
    if (stat.type !== 'file') return { reason: 'not_a_file', detail: 'is a directory, not a file' };
    return undefined;
  } catch (error) {
    signal?.throwIfAborted();
    if (error instanceof PathRefusedError || (error instanceof Error && error.name === 'PathRefusedError')) {
      const reason = 'reason' in error && typeof error.reason === 'string' ? error.reason : error.message;
      return { reason: 'outside', detail: `cannot be given to it: ${shownRef(reason)}` };
    }
    return { reason: 'unreadable', detail: `cannot be read: ${shownRef(errorMessage(error))}` };
  }
}

/**
 * `plan` with `attachment` of step `stepId` replaced by `replacement` (another file the
 * user chose), or removed when `replacement` is `undefined` (the user chose to run without
 * it): the next version of the plan. An attachment the step does not have leaves the plan as it is.
 */
export function replaceAttachment(plan: Plan, stepId: string, attachment: Attachment, replacement: Attachment | undefined): Plan {
  const step = plan.steps.find((candidate) => candidate.id === stepId);
  const attachments = step?.attachments ?? [];
  const index = attachments.findIndex((candidate) => candidate.kind === attachment.kind && candidate.ref === attachment.ref);
  if (index === -1) return plan;
  const next = attachments.flatMap((candidate, at) => (at !== index ? [candidate] : replacement ? [replacement] : []));
  // Attachments take no part in validation: the edit is made here, without `editPlan`'s checks, so it always happens.
  const steps = plan.steps.map((candidate) => (candidate.id === stepId ? { ...candidate, attachments: next } : candidate));
  return { ...plan, version: plan.version + 1, steps };
}
