import * as vscode from 'vscode';
import { describeManualStep } from '../core/engine/manualStepText';
import type { ManualStepRequest } from '../core/ports';
import type { PendingPrompts } from './pendingPrompts';

/** Longest note or reason the person may type, in characters. */
const maxNoteLength = 4_000;

/**
 * Marks the manual step `stepId` done or failed. Without `given`, an input box asks for
 * the note (optional: it becomes the step's result) or the reason (required); Escape
 * leaves the step waiting. With `requestId` (a prompt that may outlive its request: a
 * notification, a dialog), only that request is answered. Resolves to false when nothing
 * was marked (the step does not wait for the person, or the input box was dismissed).
 */
export async function markManualStep(pending: PendingPrompts, stepId: string, done: boolean, given?: string, requestId?: string): Promise<boolean> {
  const prompt = pending.get(stepId);
  if (prompt?.kind !== 'manual' || (requestId !== undefined && prompt.request.requestId !== requestId)) {
    void vscode.window.showInformationMessage(`Task Planner: step ${stepId} is not waiting for you to do it.`);
    return false;
  }
  const title = prompt.request.title;
  const typed =
    given ??
    (await vscode.window.showInputBox({
      title: done ? `Task Planner: ${title} is done` : `Task Planner: ${title} could not be done`,
      prompt: done ? 'A note on what you did (optional): it becomes the result of the step.' : 'Why could it not be done? The step fails with this reason.',
      placeHolder: done ? 'Press Enter to mark the step done' : 'The reason',
      ignoreFocusOut: true,
      validateInput: (value) =>
        value.length > maxNoteLength
          ? `Keep it under ${maxNoteLength} characters.`
          : !done && value.trim() === ''
            ? 'Say why, so the run can report it.'
            : undefined,
    }));
  if (typed === undefined) return false;
  const text = typed.trim().slice(0, maxNoteLength);
  if (!done && text === '') return false;
  return pending.finishManual(stepId, done ? (text ? { done: true, note: text } : { done: true }) : { done: false, reason: text }, prompt.request.requestId);
}

/** The status bar's and tree's choice for a manual step: Done, Failed, or read the instructions. */
export async function showManualStepActions(pending: PendingPrompts, request: ManualStepRequest): Promise<void> {
  const items = [
    { label: '$(check) Done', description: 'I did it (you can add a note)', action: 'done' as const },
    { label: '$(error) Failed', description: 'It cannot be done (say why)', action: 'failed' as const },
    { label: '$(book) Show instructions', description: request.instructions.split('\n', 1)[0]?.slice(0, 120) ?? '', action: 'show' as const },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: `Task Planner: ${request.stepId} ${request.title} is yours to do`,
    placeHolder: 'Mark the step done or failed',
  });
  if (picked?.action === 'show') return showManualInstructions(pending, request);
  if (picked) await markManualStep(pending, request.stepId, picked.action === 'done', undefined, request.requestId);
}

/** The instructions in a dialog (the step, its instructions, attachments and earlier results), with Done and Failed. */
export async function showManualInstructions(pending: PendingPrompts, request: ManualStepRequest): Promise<void> {
  const [first, ...rest] = describeManualStep(request).split('\n');
  const choice = await vscode.window.showInformationMessage(first ?? request.title, { modal: true, detail: rest.join('\n').slice(0, 8_000) }, 'Done', 'Failed');
  if (choice) await markManualStep(pending, request.stepId, choice === 'Done', undefined, request.requestId);
}

/**
 * Tells the person a step is theirs, without blocking the editor (the work may take a
 * while): a notification with Done, Failed and Show instructions.
 */
export async function announceManualStep(pending: PendingPrompts, request: ManualStepRequest): Promise<void> {
  const choice = await vscode.window.showInformationMessage(
    `Task Planner: step ${withoutLinks(request.stepId)} "${withoutLinks(request.title)}" is yours to do. Mark it Done when you have done it.`,
    'Done',
    'Failed',
    'Show instructions',
  );
  if (choice === 'Show instructions') await showManualInstructions(pending, request);
  else if (choice && pending.get(request.stepId)?.request.requestId === request.requestId) {
    await markManualStep(pending, request.stepId, choice === 'Done', undefined, request.requestId);
  }
}

/** `text` from a plan, unable to form a link in a notification (which renders `[label](target)`, command links included). */
function withoutLinks(text: string): string {
  return text.replace(/\]\s*\(/g, '] (');
}
