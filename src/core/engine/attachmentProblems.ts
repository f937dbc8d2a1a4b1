import { attachmentTarget, shownRef } from '../plan/attachmentTarget';
import type { Attachment, Plan } from '../plan/planSchema';
import type { WorkspaceFs } from '../ports';
import { PathRefusedError } from '../workspace/resolveInRoot';
import { errorMessage } from '../../shared/errorMessage';

/** Why an attachment cannot be given to its step. */
export type AttachmentProblemReason = 'missing' | 'outside' | 'not_a_file' | 'unreadable';

/** A file or image attachment of a step that the run could not give to it; `message` is for the user. */
export interface AttachmentProblem {
  stepId: string;
  attachment: Attachment;
  reason: AttachmentProblemReason;
  message: string;
}

/**
 * Every file and image attachment of `plan`'s steps that is not a readable file of
 * `workspace`, checked before a run starts so none is dropped on the way: a path that does
 * not exist, one that leads outside the workspace (`..`, an absolute path, a link out of
 * it, a name with control characters: whatever the workspace refuses), a directory, or one
 * the workspace cannot look at. URLs are not checked (a link is the model's to follow), nor
 * a selection that kept its text.
 * Skipped steps are left out. In plan order; each message names the step and the file.
 */
export async function findAttachmentProblems(plan: Plan, workspace: WorkspaceFs, signal?: AbortSignal): Promise<AttachmentProblem[]> {
  const problems: AttachmentProblem[] = [];
  for (const step of plan.steps) {
    if (step.skipped === true) continue;
    for (const attachment of step.attachments ?? []) {
      const target = attachmentTarget(attachment);
      // A selection that kept its text needs its file no more.
      if (target.kind === 'url' || attachment.text !== undefined) continue;
      const problem = await problemOf(workspace, target.path, signal);
      if (problem === undefined) continue;
      const what = `Step ${step.id} attaches the ${attachment.kind === 'image' ? 'image' : 'file'} "${shownRef(target.path)}"`;
      problems.push({ stepId: step.id, attachment, reason: problem.reason, message: `${what}, which ${problem.detail}.` });
    }
  }
  return problems;
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
