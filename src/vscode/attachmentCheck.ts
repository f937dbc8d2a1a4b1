import * as vscode from 'vscode';
import type { AttachmentProblem } from '../core/engine/attachmentProblems';
import type { Attachment, Plan } from '../core/plan/planSchema';

/** What the user may do about an attachment the run cannot give to its step (English; the dialog shows them translated). */
export const attachmentChoices = ['Choose another file…', 'Run without it'] as const;
/** One of `attachmentChoices`. */
export type AttachmentChoice = (typeof attachmentChoices)[number];

/** The dialogs the check shows (the editor's: a modal warning and an open-file dialog). */
export interface AttachmentCheckUi {
  /** Shows `message` with `choices` (and Cancel); `undefined` when cancelled. */
  ask(message: string, choices: readonly AttachmentChoice[]): Promise<AttachmentChoice | undefined>;
  /** Lets the user pick a file for an attachment of `kind`; its workspace-relative path, or `undefined` when dismissed. */
  chooseFile(kind: Attachment['kind']): Promise<string | undefined>;
}

/** What `checkAttachments` works with. */
export interface AttachmentCheckDeps {
  ui: AttachmentCheckUi;
  /** The attachments of `plan` the run could not give to their steps (`findAttachmentProblems` over the run's workspace). */
  problems(plan: Plan): Promise<AttachmentProblem[]>;
  /** `plan` with one attachment replaced, or removed when `replacement` is `undefined` (`replaceAttachment`). */
  replace(plan: Plan, stepId: string, attachment: Attachment, replacement: Attachment | undefined): Plan;
}

/**
 * Before a run starts: every file or image attachment that is missing or cannot be used
 * (outside the workspace, a directory) is put to the user, one at a time: choose another
 * file (checked again like the first), run without it (the attachment leaves the step), or
 * cancel; an address its step cannot read (not a URL, another scheme) only the last two. Resolves to the plan to run (the same plan when nothing was wrong), or
 * `undefined` when the user cancelled: nothing is dropped without the user's word.
 */
export async function checkAttachments(plan: Plan, deps: AttachmentCheckDeps): Promise<Plan | undefined> {
  let current = plan;
  for (;;) {
    const [problem] = await deps.problems(current);
    if (!problem) return current;
    // An address is not replaced by a file: it is run without, or corrected in the plan.
    const choice =
      problem.reason === 'bad_url'
        ? await deps.ui.ask(vscode.l10n.t('{0} Run without it, or cancel the run and correct the address.', problem.message), ['Run without it'])
        : await deps.ui.ask(vscode.l10n.t('{0} Choose another file, run without it, or cancel the run.', problem.message), attachmentChoices);
    if (choice === undefined) return undefined;
    if (choice === 'Run without it') {
      current = deps.replace(current, problem.stepId, problem.attachment, undefined);
      continue;
    }
    const chosen = await deps.ui.chooseFile(problem.attachment.kind);
    if (chosen === undefined) continue;
    current = deps.replace(current, problem.stepId, problem.attachment, { kind: problem.attachment.kind, ref: chosen, label: chosen });
  }
}
