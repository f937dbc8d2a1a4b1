import * as vscode from 'vscode';
import type {
  ApprovalDecision,
  ApprovalRequest,
  ClarificationRequest,
  Interaction,
  ManualStepOutcome,
  ReviewDecision,
  ReviewRequest,
} from '../core/interactionPorts';
import { feedbackMaxChars } from '../core/tools/approvalFeedback';
import { allowRuleWorkspaceNote } from '../core/tools/allowRuleWorkspaceNote';
import { commandApprovalText } from '../core/tools/commandApprovalText';
import { describeRetry } from '../core/tools/retryNoteText';
import { toolCallApprovalText } from '../core/tools/toolCallApprovalText';
import { announceManualStep, showManualStepActions } from './manualStepPrompts';
import type { ApprovalQueue } from './approvalQueue';
import type { PendingPrompt, PendingPrompts, PromptKey } from './pendingPrompts';
import { closeProposalDiffs, type ProposalDocuments } from './proposalDocuments';
import { errorMessage } from '../shared/errorMessage';
import { visibleControls } from '../shared/visibleCharacters';
import { pickAnswer } from './answerPicker';
import { shownLine, shownPath, shownProse, shownQuestion } from './shownText';
import { showError, showInformation, showWarning } from './notifications';

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
 * argv and working directory (and the input it is given, its start and size); a clarification asks with a QuickPick (suggestions plus
 * free text); a review with a modal; a manual step with a notification (Done, Failed,
 * Show instructions) that never blocks the editor, since the work takes a while, unless
 * `options.announceManualStep` says no (the plan panel shows it already). A dismissed prompt keeps waiting in `pending` and
 * can be reopened. (In Restricted Mode tools that would ask are refused before they ask:
 * see `gateByWorkspaceTrust`.) With `options.commandRules`, a command's question also
 * offers "Allow this command for this workspace" when its argv can be a rule and a rule
 * would allow it (not when it is given input, runs the workspace's own helper or what its repository's git
 * configuration names); with
 * `options.toolCalls`, a tool call's question offers "Always allow in this workspace" when
 * the tool can remember it (`rememberAs`).
 */
export function createVscodeInteraction(
  pending: PendingPrompts,
  documents: ProposalDocuments,
  options: InteractionOptions = {},
): VscodeInteraction {
  return { ...interactionOfRun(pending, documents, options, () => undefined), forRun: (runId) => interactionOfRun(pending, documents, options, runId) };
}

/** What the editor's questions can offer beyond approve and reject, and how approvals take turns. */
interface InteractionOptions {
  /** Whether to announce the manual step the run `runId` asks for in a notification (not when the plan panel shows that run live). */
  announceManualStep?: (runId: string | undefined) => boolean;
  /** Announces a manual step instead of the notification (`announceManualStep` of manualStepPrompts.ts). */
  manualStepNotice?: typeof announceManualStep;
  commandRules?: CommandRuleMaker;
  toolCalls?: ToolCallRememberer;
  /** Shows approvals one at a time in plan order and answers what an "Approve the rest" covers; without it each shows at once. */
  queue?: ApprovalQueue;
  /**
   * The name of the workspace folder the run `runId` is confined to, in a window of several folders (`undefined` in a
   * window of one): each question names it, since two folders can hold the same path and ask at once.
   */
  folderOf?: (runId: string | undefined) => string | undefined;
}

/** The editor's `Interaction`, and the same for one run (`RunController` gives each execution its own). */
export interface VscodeInteraction extends Interaction {
  /**
   * The same questions, each prompt keyed by its request and by the run `runId()` names when
   * it asks (`PromptKey`): answers, diffs and commands reach that run's request, never another
   * run's request of the same step id.
   */
  forRun(runId: () => string | undefined): Interaction;
}

function interactionOfRun(
  pending: PendingPrompts,
  documents: ProposalDocuments,
  options: InteractionOptions,
  runId: () => string | undefined,
): Interaction {
  const keyOf = (request: { stepId: string; requestId?: string }): PromptKey => ({ stepId: request.stepId, requestId: request.requestId, runId: runId() });
  return {
    requestApproval(request, signal) {
      const key = keyOf(request);
      // The user chose "Approve the rest" and it lists this change: it is not asked again.
      if (options.queue?.covers(key.runId, key.requestId, request) === true) return Promise.resolve({ approved: true });
      const queue = options.queue;
      return waitFor<ApprovalDecision>(
        pending,
        signal,
        (settle) => ({
          kind: 'approval',
          key,
          stepId: request.stepId,
          request,
          settle: (decision) => {
            documents.drop(key);
            settle(decision);
          },
          show: () => showApproval(request, key, documents, pending, options),
        }),
        () => void documents.close(key),
        queue === undefined ? undefined : (prompt) => queue.offer(prompt),
      );
    },
    askClarification(request, signal) {
      const key = keyOf(request);
      return waitFor<string>(pending, signal, (settle) => ({
        kind: 'clarification',
        key,
        stepId: request.stepId,
        request,
        settle,
        show: () => askClarification(request, key, pending),
      }));
    },
    requestReview(request, signal) {
      const key = keyOf(request);
      return waitFor<ReviewDecision>(pending, signal, (settle) => ({
        kind: 'review',
        key,
        stepId: request.stepId,
        request,
        settle,
        show: () => askReview(request, key, pending),
      }));
    },
    requestManualStep(request, signal) {
      const key = keyOf(request);
      const prompt = (settle: (outcome: ManualStepOutcome) => void): PendingPrompt => ({
        kind: 'manual',
        key,
        stepId: request.stepId,
        request,
        settle,
        show: () => showManualStepActions(pending, key, request),
      });
      const announce = async (): Promise<void> => {
        if (options.announceManualStep?.(key.runId) !== false) await (options.manualStepNotice ?? announceManualStep)(pending, key, request);
      };
      return waitFor<ManualStepOutcome>(pending, signal, prompt, undefined, () => void announce().then(undefined, () => undefined));
    },
  };
}

function waitFor<T>(
  pending: PendingPrompts,
  signal: AbortSignal,
  make: (settle: (value: T) => void) => PendingPrompt,
  /** What the prompt leaves behind when its run is cancelled (an open diff editor). */
  onCancelled?: () => void,
  /** How the prompt first shows, when not as it shows again (`show`); it never throws. */
  announce?: (prompt: PendingPrompt) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let added: PendingPrompt | undefined;
    const onAbort = (): void => {
      if (added) pending.remove(added);
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
    if (announce) announce(prompt);
    else void prompt.show().then(undefined, () => undefined);
  });
}

function showApproval(
  request: ApprovalRequest,
  key: PromptKey,
  documents: ProposalDocuments,
  pending: PendingPrompts,
  options: InteractionOptions,
): Promise<void> {
  const folder = options.folderOf?.(key.runId);
  switch (request.kind) {
    case 'file':
      return showFileApproval(request, key, documents, pending, waitingNote(options.queue), folder);
    case 'command':
      return askCommandApproval(request, key, pending, options.commandRules, waitingNote(options.queue), folder);
    case 'directory':
      return askDirectoryApproval(request, key, pending, waitingNote(options.queue), folder);
    case 'tool':
      return askToolApproval(request, key, pending, options.toolCalls, waitingNote(options.queue), folder);
  }
}

/** `detail` after a first line naming the workspace folder the question is about, when the window has several. */
function inFolder(detail: string, folder: string | undefined): string {
  return folder === undefined ? detail : `${vscode.l10n.t('In the workspace folder "{0}".', shownLine(folder, 80))}\n${detail}`;
}

/** "3 more approvals waiting" when approvals wait behind the one shown, else empty. */
function waitingNote(queue: ApprovalQueue | undefined): string {
  const count = queue?.waitingCount() ?? 0;
  return count === 0 ? '' : count === 1 ? vscode.l10n.t('1 more approval waiting') : vscode.l10n.t('{0} more approvals waiting', count);
}

/** Why a change asks whatever the approval policy: the step did not say it would change the file. */
function outsideNote(): string {
  return vscode.l10n.t('The step did not say it would change this file.');
}

/** `detail` with the retry note (which attempt asks, why the last failed) and what waits behind, each on a line of its own. */
function withNotes(detail: string, request: ApprovalRequest, waiting: string): string {
  const retry = request.retry === undefined || request.kind === 'command' ? '' : `\n${describeRetry(request.retry)}`;
  return `${detail}${retry}${waiting === '' ? '' : `\n${waiting}`}`;
}

/**
 * Asks what the step should do instead of the change the user rejects (Reject with
 * feedback…); `undefined` when the user cancelled (nothing is answered then). Bounded to
 * `feedbackMaxChars`, and made safe again by the engine.
 */
export async function askFeedback(request: ApprovalRequest): Promise<string | undefined> {
  const feedback = await vscode.window.showInputBox({
    title: vscode.l10n.t('Task Planner: reject with feedback ({0} {1})', request.stepId, shownLine(request.title, 80)),
    // Said as it is: only a step a model does hears the words; any other step is rejected with them as its reason.
    prompt: request.feedbackHeard
      ? vscode.l10n.t('What should the step do instead? Its agent is told and proposes again, up to the step\'s attempts.')
      : vscode.l10n.t('Why do you reject it? This step runs a tool, not a model, so nothing proposes again: your words become the rejection\'s reason.'),
    placeHolder: request.feedbackHeard
      ? vscode.l10n.t('For example: keep the old name, only add the new option')
      : vscode.l10n.t('For example: this file must stay as it is'),
    ignoreFocusOut: true,
    validateInput: (value) =>
      value.trim() === ''
        ? vscode.l10n.t('Say what to do instead, or press Escape to go back.')
        : value.length > feedbackMaxChars
          ? vscode.l10n.t('At most {0} characters.', feedbackMaxChars)
          : undefined,
  });
  return feedback === undefined || feedback.trim() === '' ? undefined : feedback;
}

/**
 * Rejects `key` with the feedback the user types; nothing when they cancel the box. A dialog's Reject gives no reason of
 * its own, as the terminal's does not: "rejected by you: rejected in the command dialog" said it twice (an editor trial).
 */
async function rejectWithFeedback(pending: PendingPrompts, key: PromptKey, request: ApprovalRequest): Promise<void> {
  const feedback = await askFeedback(request);
  if (feedback !== undefined) pending.reject(key, undefined, feedback);
}

/** "Reject with feedback…" as a dialog's button when the step hears feedback (`ApprovalRequest.feedbackHeard`), else no button. */
function feedbackButton(request: ApprovalRequest): string[] {
  return request.feedbackHeard ? [feedbackLabel()] : [];
}

/** The label of the button "Reject with feedback…", which `feedbackButton` offers and the dialogs compare the answer with. */
function feedbackLabel(): string {
  return vscode.l10n.t('Reject with feedback…');
}

/**
 * A consent question as a modal dialog whose safe choice comes first: the workbench's dialog
 * makes its first button the primary one and focuses it, so Enter (a stray one, while the
 * dialog opened by itself over a diff being read) rejects; running or allowing takes a click
 * or Tab first. Escape and the dialog's Cancel answer nothing (the prompt keeps waiting).
 */
function askConsent(message: string, detail: string, safe: string, ...risky: string[]): Thenable<string | undefined> {
  // The dialog's own Cancel is neither answer: a newcomer could not tell it from Reject.
  const cancel = vscode.l10n.t('Cancel: decide later. The question waits in the status bar and the Plan view.');
  return showWarning(message, { modal: true, detail: `${detail}\n\n${cancel}` }, safe, ...risky);
}

async function showFileApproval(
  request: Extract<ApprovalRequest, { kind: 'file' }>,
  key: PromptKey,
  documents: ProposalDocuments,
  pending: PendingPrompts,
  waiting: string,
  folder: string | undefined,
): Promise<void> {
  const { proposal } = request;
  const sides = documents.put(key, proposal);
  const verb =
    request.operation === 'delete'
      ? vscode.l10n.t('delete')
      : proposal.currentText === undefined
        ? // A new empty file shows two empty sides: the tab says what is proposed (a newcomer saw a blank diff).
          proposal.proposedText === ''
          ? vscode.l10n.t('create, empty')
          : vscode.l10n.t('create')
        : request.operation === 'edit'
          ? vscode.l10n.t('edit')
          : vscode.l10n.t('write');
  // The file leads (E4 of issue 27): the tab cuts its end, so a long step title can never push the path off it.
  const file =
    proposal.resolvedPath === undefined
      ? shownPath(proposal.path)
      : vscode.l10n.t('{0} (through a symbolic link: {1})', shownPath(proposal.path), shownPath(proposal.resolvedPath));
  // Two folders can hold the same path and ask at once: the tab says whose file it is.
  const target = folder === undefined ? file : vscode.l10n.t('{0} in folder "{1}"', file, shownLine(folder, 80));
  const stepTitle = shownLine(request.title, 80);
  const attempt = request.interrupted
    ? vscode.l10n.t(', may already be in the file: the run stopped during this change')
    : request.retry === undefined
      ? ''
      : vscode.l10n.t(', attempt {0} of {1}', request.retry.attempt, request.retry.of);
  // A change the step did not say it would make asks under every policy: the tab says why it asks.
  const outside = request.outsideScope ? vscode.l10n.t(', outside the files the step said it would change') : '';
  // No count of what waits behind: a tab's title is never updated, so it went stale as approvals came and went (the status bar counts them live).
  const title = vscode.l10n.t('{0} ({1}, proposed{2}) · {3} {4}', target, verb, `${outside}${attempt}`, request.stepId, stepTitle);
  try {
    await vscode.commands.executeCommand('vscode.diff', sides.current, sides.proposed, title, { preview: false });
    // Answered or cancelled while the diff was opening: nothing is left to approve in it.
    if (pending.get(key)?.request !== request) await closeProposalDiffs(key);
  } catch {
    // The modal fallback: the same decision without the diff editor.
    const [approve, reject, feedback] = [vscode.l10n.t('Approve'), vscode.l10n.t('Reject'), feedbackLabel()];
    const choice = await askConsent(
      vscode.l10n.t('{0}: allow step "{1}" to {2} this file?', target, stepTitle, verb),
      // The file's and the model's text as it is: a direction override or a zero-width character made visible, as the diff
      // editor marks them (Trojan Source: a line that reads as a comment and is code).
      withNotes(`${outside === '' ? '' : `${outsideNote()}\n`}${visibleControls(proposal.diff.slice(0, 4000))}`, request, waiting),
      reject,
      ...feedbackButton(request),
      approve,
    );
    if (choice === approve) pending.approve(key);
    else if (choice === reject) pending.reject(key);
    else if (choice === feedback) await rejectWithFeedback(pending, key, request);
  }
}

async function askCommandApproval(
  request: Extract<ApprovalRequest, { kind: 'command' }>,
  key: PromptKey,
  pending: PendingPrompts,
  rules: CommandRuleMaker | undefined,
  waiting: string,
  folder: string | undefined,
): Promise<void> {
  const text = commandApprovalText(request);
  const [run, reject, feedback] = [vscode.l10n.t('Run'), vscode.l10n.t('Reject'), feedbackLabel()];
  // Which button does what, after the command itself (`askConsent` adds the dialog's own Cancel).
  const buttons = request.feedbackHeard
    ? vscode.l10n.t(
        '"{0}": the step does not run it. "{1}": also tell the step what to do instead.',
        reject,
        feedback,
      )
    : vscode.l10n.t('"{0}": the step does not run it.', reject);
  const { message } = text;
  const detail = `${inFolder(withNotes(text.detail, request, waiting), folder)}\n\n${buttons}`;
  // A project's own program becomes a rule by its path (`.venv/bin/mypy`): the rule is bound to the file that runs.
  const words = request.program ? [request.program.shown, ...request.argv.slice(1)] : request.argv;
  // A command through a shell never becomes a rule: its words are not what runs. Nor one given input or run with the
  // workspace's own helper (`git-lfs`) or what its repository's git configuration names: a rule covers none of them, so
  // the command would ask again all the same.
  const offered =
    rules !== undefined && !request.shell && request.stdin === undefined && request.helper === undefined && request.repositoryPrograms === undefined;
  // A rule of a relative program (`./run.sh`) holds only in the workspace folder: asked in another folder, it would allow the
  // root's file, never the one shown (an outside attack), so it is not offered there.
  const problem = !offered
    ? undefined
    : request.noRuleHere
      ? vscode.l10n.t(
          'a rule of these words would allow them only in the workspace folder itself, where {0} is another file than the one this command runs',
          shownLine(request.argv[0] ?? '', 80),
        )
      : rules.problem(words);
  const offer = offered && problem === undefined;
  const allow = vscode.l10n.t('Allow this command for this workspace');
  // What the words run is the workspace's to say (npm test: its package.json's script): said where the rule is given.
  const note = allowRuleWorkspaceNote(words);
  const allowDetail = `${vscode.l10n.t(
    '"{0}" runs it now and, from then on, this exact command (the same words, no others) without asking (Task Planner: Command allow rules lists and removes them).',
    allow,
  )}${note === undefined ? '' : ` ${note}`}`;
  // Said why, where the walkthrough promised the button for every command (an editor trial's `node --test test/` had none).
  const noRule = problem === undefined ? '' : `\n${vscode.l10n.t('"{0}" is not offered: {1}.', allow, problem)}`;
  const choice = offer
    ? await askConsent(message, `${detail}\n${allowDetail}`, reject, ...feedbackButton(request), run, allow)
    : await askConsent(message, `${detail}${noRule}`, reject, ...feedbackButton(request), run);
  if (choice === allow && rules !== undefined) {
    // The user said to run it: a rule that could not be stored is reported, and the command runs all the same.
    await rules
      .add(words)
      .catch((error: unknown) => showError(vscode.l10n.t('Task Planner: the allow rule was not saved: {0}', errorMessage(error))));
    pending.approve(key);
  } else if (choice === run) pending.approve(key);
  else if (choice === reject) pending.reject(key);
  else if (choice === feedback) await rejectWithFeedback(pending, key, request);
}

async function askToolApproval(
  request: Extract<ApprovalRequest, { kind: 'tool' }>,
  key: PromptKey,
  pending: PendingPrompts,
  toolCalls: ToolCallRememberer | undefined,
  waiting: string,
  folder: string | undefined,
): Promise<void> {
  const text = toolCallApprovalText(request);
  const { message } = text;
  const detail = inFolder(withNotes(text.detail, request, waiting), folder);
  const allow = vscode.l10n.t('Allow');
  const reject = vscode.l10n.t('Reject');
  const always = vscode.l10n.t('Always allow in this workspace');
  const rememberAs = toolCalls === undefined ? undefined : request.rememberAs;
  const alwaysDetail = vscode.l10n.t(
    '"{0}" allows this call and every later call of this tool here without asking, until the server\'s command or address changes; Task Planner: MCP servers can make it ask again.',
    always,
  );
  const feedback = feedbackLabel();
  const choice =
    rememberAs === undefined
      ? await askConsent(message, detail, reject, ...feedbackButton(request), allow)
      : await askConsent(message, `${detail}\n\n${alwaysDetail}`, reject, ...feedbackButton(request), allow, always);
  if (choice === always && rememberAs !== undefined && toolCalls !== undefined) {
    // The user allowed the call: an answer that could not be stored is reported, and the call goes ahead all the same.
    await toolCalls
      .remember(rememberAs, `${request.source}: ${request.tool}`)
      .catch((error: unknown) => showError(vscode.l10n.t('Task Planner: the answer was not saved: {0}', errorMessage(error))));
    pending.approve(key);
  } else if (choice === allow) pending.approve(key);
  else if (choice === reject) pending.reject(key);
  else if (choice === feedback) await rejectWithFeedback(pending, key, request);
}

async function askDirectoryApproval(
  request: Extract<ApprovalRequest, { kind: 'directory' }>,
  key: PromptKey,
  pending: PendingPrompts,
  waiting: string,
  folder: string | undefined,
): Promise<void> {
  const [create, reject] = [vscode.l10n.t('Create'), vscode.l10n.t('Reject')];
  const choice = await askConsent(
    vscode.l10n.t('Step "{0}" wants to create a directory.', shownLine(request.title, 80)),
    inFolder(withNotes(vscode.l10n.t('Directory: {0}', shownPath(request.path)), request, waiting), folder),
    reject,
    create,
  );
  if (choice === create) pending.approve(key);
  else if (choice === reject) pending.reject(key);
}

async function askClarification(request: ClarificationRequest, key: PromptKey, pending: PendingPrompts): Promise<void> {
  const answer = await pickAnswer(
    {
      title: vscode.l10n.t('Task Planner: {0}', shownLine(request.title, 120)),
      placeholder: shownQuestion(request.question),
      suggestions: request.suggestions ?? [],
    },
    // Answered elsewhere (tree, command): the picker goes away.
    (hide) => pending.onDidChange(() => (pending.get(key) ? undefined : hide())),
  );
  if (answer !== undefined) pending.answer(key, answer);
}

async function askReview(request: ReviewRequest, key: PromptKey, pending: PendingPrompts): Promise<void> {
  const [approve, reject] = [vscode.l10n.t('Approve'), vscode.l10n.t('Reject')];
  // The safe choice first (see `askConsent`): Enter rejects.
  const choice = await showInformation(
    vscode.l10n.t('Review: {0}', shownLine(request.title, 200)),
    // Blank lines and space collapsed, controls visible, bounded (E5 of issue 27): what is asked is in sight, never below the fold.
    { modal: true, detail: shownProse(request.prompt) },
    reject,
    approve,
  );
  if (choice === undefined) return;
  const notes = await vscode.window.showInputBox({
    title: vscode.l10n.t('Task Planner: notes for "{0}"', shownLine(request.title, 120)),
    prompt: vscode.l10n.t('Optional notes (they become part of the step result)'),
    ignoreFocusOut: true,
  });
  if (choice === approve) pending.approve(key, notes);
  else pending.reject(key, notes);
}
