import * as vscode from 'vscode';
import type { ApprovalDecision, ApprovalRequest, ClarificationRequest, Interaction, ManualStepOutcome, ReviewDecision, ReviewRequest } from '../core/ports';
import { commandApprovalText } from '../core/tools/commandApprovalText';
import { proposalTarget } from '../core/tools/proposalTarget';
import { toolCallApprovalText } from '../core/tools/toolCallApprovalText';
import { announceManualStep, showManualStepActions } from './manualStepPrompts';
import type { PendingPrompts } from './pendingPrompts';
import { closeProposalDiffs, type ProposalDocuments } from './proposalDocuments';
import { errorMessage } from '../shared/errorMessage';

/** Makes a command allow rule of this workspace from a command the user is asked about (`EditorCommandAllowList`). */
export interface CommandRuleMaker {
  /** Why `argv` cannot become a rule, or `undefined` when it can. */
  problem(argv: readonly string[]): string | undefined;
  add(argv: readonly string[]): Promise<void>;
}

/** Keeps a tool call's "Always allow in this workspace" (`RememberedToolCalls`). */
export interface ToolCallRememberer {
  remember(key: string, label: string): Promise<void>;
}

/**
 * The core's `Interaction` port in the editor (docs/architecture.md §7): a file change opens the diff
 * editor with both sides virtual and waits for Approve/Reject (editor title, Plan tree,
 * or the modal fallback when the diff cannot open); a command asks with a modal showing
 * argv and working directory; a clarification asks with a QuickPick (suggestions plus
 * free text); a review with a modal; a manual step with a notification (Done, Failed,
 * Show instructions) that never blocks the editor, since the work takes a while, unless
 * `options.announceManualStep` says no (the plan panel shows it already). A dismissed prompt keeps waiting in `pending` and
 * can be reopened. (In Restricted Mode tools that would ask are refused before they ask:
 * see `gateByWorkspaceTrust`.) With `options.commandRules`, a command's question also
 * offers "Allow this command for this workspace" when its argv can be a rule; with
 * `options.toolCalls`, a tool call's question offers "Always allow in this workspace" when
 * the tool can remember it (`rememberAs`).
 */
export function createVscodeInteraction(
  pending: PendingPrompts,
  documents: ProposalDocuments,
  options: { announceManualStep?: () => boolean; commandRules?: CommandRuleMaker; toolCalls?: ToolCallRememberer } = {},
): Interaction {
  return {
    requestApproval(request, signal) {
      return waitFor<ApprovalDecision>(
        pending,
        signal,
        request.stepId,
        (settle) => ({
          kind: 'approval',
          stepId: request.stepId,
          request,
          settle: (decision) => {
            documents.drop(request.stepId);
            settle(decision);
          },
          show: () => showApproval(request, documents, pending, options),
        }),
        () => void documents.close(request.stepId),
      );
    },
    askClarification(request, signal) {
      return waitFor<string>(pending, signal, request.stepId, (settle) => ({
        kind: 'clarification',
        stepId: request.stepId,
        request,
        settle,
        show: () => askClarification(request, pending),
      }));
    },
    requestReview(request, signal) {
      return waitFor<ReviewDecision>(pending, signal, request.stepId, (settle) => ({
        kind: 'review',
        stepId: request.stepId,
        request,
        settle,
        show: () => askReview(request, pending),
      }));
    },
    requestManualStep(request, signal) {
      const prompt = (settle: (outcome: ManualStepOutcome) => void) => ({
        kind: 'manual' as const,
        stepId: request.stepId,
        request,
        settle,
        show: () => showManualStepActions(pending, request),
      });
      const announce = async (): Promise<void> => {
        if (options.announceManualStep?.() !== false) await announceManualStep(pending, request);
      };
      return waitFor<ManualStepOutcome>(pending, signal, request.stepId, prompt, undefined, announce);
    },
  };
}

function waitFor<T>(
  pending: PendingPrompts,
  signal: AbortSignal,
  stepId: string,
  make: (settle: (value: T) => void) => Parameters<PendingPrompts['add']>[0],
  /** What the prompt leaves behind when its run is cancelled (an open diff editor). */
  onCancelled?: () => void,
  /** How the prompt first shows, when not as it shows again (`show`). */
  announce?: () => Promise<void>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let added: Parameters<PendingPrompts['add']>[0] | undefined;
    const onAbort = (): void => {
      if (added) pending.remove(stepId, added);
      onCancelled?.();
      reject(signal.reason instanceof Error ? signal.reason : new Error(vscode.l10n.t('The run was cancelled.')));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    const prompt = make((value) => {
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
    pending.add((added = prompt));
    // A prompt that cannot show (a refused dialog) stays pending: the tree and status bar reopen it.
    void (announce ?? prompt.show)().then(undefined, () => undefined);
  });
}

function showApproval(
  request: ApprovalRequest,
  documents: ProposalDocuments,
  pending: PendingPrompts,
  options: { commandRules?: CommandRuleMaker; toolCalls?: ToolCallRememberer },
): Promise<void> {
  switch (request.kind) {
    case 'file':
      return showFileApproval(request, documents, pending);
    case 'command':
      return askCommandApproval(request, pending, options.commandRules);
    case 'directory':
      return askDirectoryApproval(request, pending);
    case 'tool':
      return askToolApproval(request, pending, options.toolCalls);
  }
}

async function showFileApproval(request: Extract<ApprovalRequest, { kind: 'file' }>, documents: ProposalDocuments, pending: PendingPrompts): Promise<void> {
  const { proposal } = request;
  const sides = documents.put(request.stepId, proposal, request.requestId);
  const verb =
    request.operation === 'delete'
      ? vscode.l10n.t('delete')
      : proposal.currentText === undefined
        ? vscode.l10n.t('create')
        : request.operation === 'edit'
          ? vscode.l10n.t('edit')
          : vscode.l10n.t('write');
  const title = vscode.l10n.t('{0} {1}: {2} {3} (proposed)', request.stepId, request.title, verb, proposalTarget(proposal));
  try {
    await vscode.commands.executeCommand('vscode.diff', sides.current, sides.proposed, title, { preview: false });
    // Answered or cancelled while the diff was opening: nothing is left to approve in it.
    if (pending.get(request.stepId)?.request !== request) await closeProposalDiffs(request.stepId);
  } catch {
    // The modal fallback: the same decision without the diff editor.
    const [approve, reject] = [vscode.l10n.t('Approve'), vscode.l10n.t('Reject')];
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Allow step "{0}" to {1} {2}?', request.title, verb, proposalTarget(proposal)),
      { modal: true, detail: proposal.diff.slice(0, 4000) },
      approve,
      reject,
    );
    if (choice === approve) pending.approve(request.stepId, undefined, request.requestId);
    else if (choice === reject) pending.reject(request.stepId, 'rejected in the approval dialog', request.requestId);
  }
}

async function askCommandApproval(
  request: Extract<ApprovalRequest, { kind: 'command' }>,
  pending: PendingPrompts,
  rules: CommandRuleMaker | undefined,
): Promise<void> {
  const { message, detail } = commandApprovalText(request);
  const [run, reject] = [vscode.l10n.t('Run'), vscode.l10n.t('Reject')];
  // A command through a shell never becomes a rule: its words are not what runs.
  const offer = rules !== undefined && !request.shell && rules.problem(request.argv) === undefined;
  const allow = vscode.l10n.t('Allow this command for this workspace');
  const allowDetail = vscode.l10n.t(
    '"{0}" runs it now and, from then on, this exact command (the same words, no others) without asking (Task Planner: Command allow rules lists and removes them).',
    allow,
  );
  const choice = offer
    ? await vscode.window.showWarningMessage(message, { modal: true, detail: `${detail}\n\n${allowDetail}` }, run, allow, reject)
    : await vscode.window.showWarningMessage(message, { modal: true, detail }, run, reject);
  if (choice === allow && rules !== undefined) {
    // The user said to run it: a rule that could not be stored is reported, and the command runs all the same.
    await rules
      .add(request.argv)
      .catch((error: unknown) => vscode.window.showErrorMessage(vscode.l10n.t('Task Planner: the allow rule was not saved: {0}', errorMessage(error))));
    pending.approve(request.stepId, undefined, request.requestId);
  } else if (choice === run) pending.approve(request.stepId, undefined, request.requestId);
  else if (choice === reject) pending.reject(request.stepId, 'rejected in the command dialog', request.requestId);
}

async function askToolApproval(
  request: Extract<ApprovalRequest, { kind: 'tool' }>,
  pending: PendingPrompts,
  toolCalls: ToolCallRememberer | undefined,
): Promise<void> {
  const { message, detail } = toolCallApprovalText(request);
  const allow = vscode.l10n.t('Allow');
  const reject = vscode.l10n.t('Reject');
  const always = vscode.l10n.t('Always allow in this workspace');
  const rememberAs = toolCalls === undefined ? undefined : request.rememberAs;
  const alwaysDetail = vscode.l10n.t(
    '"{0}" allows this call and every later call of this tool here without asking, until the server\'s command or address changes; Task Planner: MCP servers can make it ask again.',
    always,
  );
  const choice =
    rememberAs === undefined
      ? await vscode.window.showWarningMessage(message, { modal: true, detail }, allow, reject)
      : await vscode.window.showWarningMessage(message, { modal: true, detail: `${detail}\n\n${alwaysDetail}` }, allow, always, reject);
  if (choice === always && rememberAs !== undefined && toolCalls !== undefined) {
    // The user allowed the call: an answer that could not be stored is reported, and the call goes ahead all the same.
    await toolCalls
      .remember(rememberAs, `${request.source}: ${request.tool}`)
      .catch((error: unknown) => vscode.window.showErrorMessage(vscode.l10n.t('Task Planner: the answer was not saved: {0}', errorMessage(error))));
    pending.approve(request.stepId, undefined, request.requestId);
  } else if (choice === allow) pending.approve(request.stepId, undefined, request.requestId);
  else if (choice === reject) pending.reject(request.stepId, 'rejected in the tool call dialog', request.requestId);
}

async function askDirectoryApproval(request: Extract<ApprovalRequest, { kind: 'directory' }>, pending: PendingPrompts): Promise<void> {
  const [create, reject] = [vscode.l10n.t('Create'), vscode.l10n.t('Reject')];
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Step "{0}" wants to create a directory.', request.title),
    { modal: true, detail: vscode.l10n.t('Directory: {0}', request.path) },
    create,
    reject,
  );
  if (choice === create) pending.approve(request.stepId, undefined, request.requestId);
  else if (choice === reject) pending.reject(request.stepId, 'rejected in the directory dialog', request.requestId);
}

async function askClarification(request: ClarificationRequest, pending: PendingPrompts): Promise<void> {
  const picker = vscode.window.createQuickPick();
  const suggestions: vscode.QuickPickItem[] = (request.suggestions ?? []).map((label) => ({ label, description: vscode.l10n.t('suggested') }));
  picker.title = vscode.l10n.t('Task Planner: {0}', request.title);
  picker.placeholder = request.question;
  picker.ignoreFocusOut = true;
  picker.items = suggestions;
  picker.onDidChangeValue((value) => {
    const typed = value.trim();
    picker.items =
      typed === '' || suggestions.some((item) => item.label === typed)
        ? suggestions
        : [{ label: typed, description: vscode.l10n.t('your answer') }, ...suggestions];
  });
  // Answered elsewhere (tree, command): the picker goes away.
  const answered = pending.onDidChange(() => {
    if (!pending.get(request.stepId)) picker.hide();
  });
  await new Promise<void>((done) => {
    picker.onDidAccept(() => {
      const answer = picker.selectedItems[0]?.label ?? picker.value.trim();
      if (answer !== '') {
        pending.answer(request.stepId, answer, request.requestId);
        picker.hide();
      }
    });
    picker.onDidHide(() => {
      answered.dispose();
      picker.dispose();
      done();
    });
    picker.show();
  });
}

async function askReview(request: ReviewRequest, pending: PendingPrompts): Promise<void> {
  const approve = vscode.l10n.t('Approve');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('Review: {0}', request.title),
    { modal: true, detail: request.prompt },
    approve,
    vscode.l10n.t('Reject'),
  );
  if (choice === undefined) return;
  const notes = await vscode.window.showInputBox({
    title: vscode.l10n.t('Task Planner: notes for "{0}"', request.title),
    prompt: vscode.l10n.t('Optional notes (they become part of the step result)'),
    ignoreFocusOut: true,
  });
  if (choice === approve) pending.approve(request.stepId, notes, request.requestId);
  else pending.reject(request.stepId, notes, request.requestId);
}
