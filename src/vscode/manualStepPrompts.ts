import * as vscode from 'vscode';
import { describeManualStep } from '../core/engine/manualStepText';
import type { ManualStepRequest } from '../core/interactionPorts';
import type { PendingPrompts, PromptKey } from './pendingPrompts';
import { withoutIcons, withoutLinks } from './shownText';
import { showInformation } from './notifications';

/** Longest note or reason the person may type, in characters. */
const maxNoteLength = 4_000;

/**
 * Marks the manual step of the request `key` (that run's request, never another run's
 * request of the same step id) done or failed. Without `given`, an input box asks for
 * the note (optional: it becomes the step's result) or the reason (required); Escape
 * leaves the step waiting. Resolves to false when nothing was marked (that request does
 * not wait for the person, or the input box was dismissed).
 */
export async function markManualStep(pending: PendingPrompts, key: PromptKey, done: boolean, given?: string): Promise<boolean> {
  const prompt = pending.get(key);
  if (prompt?.kind !== 'manual') {
    void showInformation(vscode.l10n.t('Task Planner: step {0} is not waiting for you to do it.', key.stepId));
    return false;
  }
  const { title, checks } = prompt.request;
  // What Done is checked against, said where Done is given: Done before the work fails the step's checks.
  const checked = checks.length > 0 ? vscode.l10n.t('Once done, these checks run: {0}. ', withoutIcons(checks.join('; '))) : '';
  const typed =
    given ??
    (await vscode.window.showInputBox({
      title: done ? vscode.l10n.t('Task Planner: {0} is done', title) : vscode.l10n.t('Task Planner: {0} could not be done', title),
      prompt: done
        ? `${checked}${vscode.l10n.t('A note on what you did (optional): it becomes the result of the step.')}`
        : vscode.l10n.t('Why could it not be done? The step fails with this reason.'),
      placeHolder: done ? vscode.l10n.t('Press Enter to mark the step done') : vscode.l10n.t('The reason'),
      ignoreFocusOut: true,
      validateInput: (value) =>
        value.length > maxNoteLength
          ? vscode.l10n.t('Keep it under {0} characters.', maxNoteLength)
          : !done && value.trim() === ''
            ? vscode.l10n.t('Say why, so the run can report it.')
            : undefined,
    }));
  if (typed === undefined) return false;
  const text = typed.trim().slice(0, maxNoteLength);
  if (!done && text === '') return false;
  return pending.finishManual(key, done ? (text ? { done: true, note: text } : { done: true }) : { done: false, reason: text });
}

/** The status bar's and tree's choice for a manual step: Done, Failed, or read the instructions. */
export async function showManualStepActions(pending: PendingPrompts, key: PromptKey, request: ManualStepRequest): Promise<void> {
  const items = [
    { label: vscode.l10n.t('$(check) Done'), description: vscode.l10n.t('I did it (you can add a note)'), action: 'done' as const },
    { label: vscode.l10n.t('$(error) Failed'), description: vscode.l10n.t('It cannot be done (say why)'), action: 'failed' as const },
    { label: vscode.l10n.t('$(book) Show instructions'), description: request.instructions.split('\n', 1)[0]?.slice(0, 120) ?? '', action: 'show' as const },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Task Planner: {0} {1} is yours to do', request.stepId, request.title),
    placeHolder: vscode.l10n.t('Mark the step done or failed'),
  });
  if (picked?.action === 'show') return showManualInstructions(pending, key, request);
  if (picked) await markManualStep(pending, key, picked.action === 'done');
}

/** The instructions in a dialog (the step, its instructions, attachments and earlier results), with Done and Failed. */
export async function showManualInstructions(pending: PendingPrompts, key: PromptKey, request: ManualStepRequest): Promise<void> {
  const [first, ...rest] = describeManualStep(request).split('\n');
  const done = vscode.l10n.t('Done');
  const choice = await showInformation(
    first ?? request.title,
    { modal: true, detail: rest.join('\n').slice(0, 8_000) },
    done,
    vscode.l10n.t('Failed'),
  );
  if (choice) await markManualStep(pending, key, choice === done);
}

/**
 * Tells the person a step is theirs, without blocking the editor (the work may take a
 * while): a notification with Done, Failed and Show instructions.
 */
export async function announceManualStep(pending: PendingPrompts, key: PromptKey, request: ManualStepRequest): Promise<void> {
  const [done, failed, show] = [vscode.l10n.t('Done'), vscode.l10n.t('Failed'), vscode.l10n.t('Show instructions')];
  const choice = await showInformation(
    vscode.l10n.t(
      'Task Planner: step {0} "{1}" is yours to do. Mark it Done when you have done it.',
      withoutLinks(request.stepId),
      withoutLinks(request.title),
    ),
    done,
    failed,
    show,
  );
  if (choice === show) await showManualInstructions(pending, key, request);
  else if (choice && pending.get(key)) await markManualStep(pending, key, choice === done);
}
