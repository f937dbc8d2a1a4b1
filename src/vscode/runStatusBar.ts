import * as vscode from 'vscode';
import type { RunState } from '../core/engine/runEvents';
import type { RunStatus } from '../shared/vocabulary';
import { runStatusLabel, runStatusWithUndo, undoneLabels, type UndoneExtent } from '../shared/runStatusLabels';
import { describeStepProgress, stepProgress } from '../shared/stepProgress';
import type { ApprovalQueue } from './approvalQueue';
import type { PendingPrompt, PendingPrompts } from './pendingPrompts';
import { shownLine } from './shownText';
import { interruptedLook } from '../core/view/stepStatusView';

/**
 * The codicon before the progress for each run status: a run partly done warns, it never passes; a cancelled or
 * interrupted run looks as it does in the Runs view, not as a failed one (a newcomer read the "⊗ 0/2" of a run a reload
 * cut off, which Resume takes on, as a failure).
 */
const statusIcons: Record<RunStatus, string> = {
  running: 'sync~spin',
  waiting: 'debug-pause',
  completed: 'pass',
  partial: 'warning',
  failed: 'error',
  cancelled: 'circle-slash',
  interrupted: interruptedLook.icon,
};

/**
 * What the item says of a run that is not waiting for an answer: its icon and text, "Task Planner 2/3", followed by how it
 * ended when it did not complete ("· interrupted", "· failed", "· partly done") and by what Undo took back of it ("·
 * changes undone"), so the words say what the icon alone did not. Pure, for the unit tests.
 */
export function runItemLook(
  status: RunStatus,
  steps: readonly { status: string }[],
  progress: { completed: number; total: number },
  undone: UndoneExtent | undefined,
): { icon: string; text: string } {
  const icon = undone === undefined ? statusIcons[status] : 'discard';
  const outcome = status === 'running' || status === 'waiting' || status === 'completed' ? undefined : runStatusLabel(status, steps);
  const words = [outcome, undone === undefined ? undefined : undoneLabels[undone]].filter((word) => word !== undefined);
  return {
    icon,
    text:
      words.length === 0
        ? vscode.l10n.t('Task Planner {0}/{1}', progress.completed, progress.total)
        : vscode.l10n.t('Task Planner {0}/{1} · {2}', progress.completed, progress.total, words.join(' · ')),
  };
}

/** What the status bar says while a step waits for each kind of prompt, and (in its tooltip) what a click offers. */
const waitingLooks: Record<PendingPrompt['kind'], { icon: string; what: () => string; offer: () => string }> = {
  approval: { icon: 'shield', what: () => vscode.l10n.t('Approval needed'), offer: () => vscode.l10n.t('answer') },
  clarification: { icon: 'comment-discussion', what: () => vscode.l10n.t('Answer needed'), offer: () => vscode.l10n.t('answer') },
  review: { icon: 'comment-discussion', what: () => vscode.l10n.t('Review needed'), offer: () => vscode.l10n.t('answer') },
  manual: { icon: 'person', what: () => vscode.l10n.t('Your step'), offer: () => vscode.l10n.t('mark it Done or Failed, or read its instructions') },
};

/**
 * The status bar item of the active run: `$(sync~spin) 2/5 steps`, or what the run waits
 * on (`$(shield) Approval needed`), which reopens the dismissed prompt when clicked. Its
 * accessible label starts with the visible text and says the progress or what waits.
 */
export class RunStatusBar implements vscode.Disposable {
  /** The item in the status bar (what it shows is what a test reads). */
  readonly item = vscode.window.createStatusBarItem('taskPlanner.run', vscode.StatusBarAlignment.Left, 50);
  private state: RunState | undefined;
  /** Whether the Plan view shows a plan that has not run (one in review): an ended run then leaves the status bar. */
  private inReview = false;
  /** Whether the item is in the status bar now. */
  private visible = false;
  /** What Undo took back of run `runId` (`setUndone`): the item then says so instead of the run's outcome alone. */
  private undone: { runId: string; extent: UndoneExtent | undefined } | undefined;

  constructor(
    private readonly pending: PendingPrompts,
    /** The approval on screen and how many wait behind it (`ApprovalQueue`). */
    private readonly queue?: Pick<ApprovalQueue, 'current' | 'waitingCount'>,
  ) {
    this.item.name = vscode.l10n.t('Task Planner run');
  }

  /** Shows `state` (hidden when there is none). */
  update(state: RunState | undefined): void {
    this.state = state;
    this.render();
  }

  /**
   * Tells whether the Plan view shows a plan that has not run: while it does, the item leaves the status bar unless a run
   * is going on or waits (a newcomer reviewing a new plan read the last run's "✓ 3/3" as this plan's).
   */
  reviewing(inReview: boolean): void {
    if (inReview === this.inReview) return;
    this.inReview = inReview;
    this.render();
  }

  /**
   * Tells what Undo took back of run `runId`: while the item shows that run it has Undo's icon and says "completed ·
   * changes undone" (a newcomer read its "✓ 3/3" after an Undo as the changes being there).
   */
  setUndone(runId: string, extent: UndoneExtent | undefined): void {
    this.undone = { runId, extent };
    if (this.state?.runId === runId) this.render();
  }

  /** Whether the item is in the status bar now. */
  isShown(): boolean {
    return this.visible;
  }

  render(): void {
    const state = this.state;
    // The run on screen (the current folder's) first: a click answers the request it names, never another run's of the same step id.
    const prompts = this.pending.list();
    const waiting =
      this.queue?.current() ?? prompts.find((prompt) => state?.runId !== undefined && prompt.key.runId === state.runId) ?? prompts[0];
    const ended = state !== undefined && state.status !== 'running' && state.status !== 'waiting';
    if ((!state?.plan || (ended && this.inReview)) && !waiting) {
      this.item.hide();
      this.visible = false;
      return;
    }
    const progress = stepProgress(Object.values(state?.steps ?? {}), state?.plan?.steps.length ?? 0);
    if (waiting) {
      const looks = waitingLooks[waiting.kind];
      const [what, action] = [looks.what(), looks.offer()];
      // Besides the one it names: after a dialog was cancelled nothing is on screen, and the named one is not "more".
      const more = waiting.kind === 'approval' ? (this.queue?.waitingCount(waiting) ?? 0) : 0;
      // The count of what waits behind the approval on screen (item 4 of issue 28).
      this.item.text = `$(${looks.icon}) \
${more === 0 ? vscode.l10n.t('Task Planner: {0}', what) : vscode.l10n.t('Task Planner: {0} ({1} more waiting)', what, more)}`;
      this.item.tooltip = vscode.l10n.t('Step {0} waits for you. Click to {1}.', waiting.stepId, action);
      this.item.accessibilityInformation = {
        label: vscode.l10n.t('Task Planner: {0}, step {1} waits for you. Press Enter to {2}.', what, waiting.stepId, action),
        role: 'button',
      };
      this.item.command = { command: 'taskPlanner.showPending', title: vscode.l10n.t('Answer'), arguments: [{ ...waiting.key }] };
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    } else {
      const undone = state !== undefined && this.undone?.runId === state.runId ? this.undone.extent : undefined;
      const status = state ? runStatusWithUndo(state.status, Object.values(state.steps), undone) : '';
      // The running step whose work says how far it is (a test suite's percentage): the bar says it too.
      const measured =
        state?.status === 'running' ? Object.values(state.steps).find((step) => step.status === 'running' && step.percent !== undefined) : undefined;
      // An ended run, and an Undo, are said in words, not by the icon alone (a newcomer's trial read "2/2" after an Undo as
      // the changes there, and "⊗ 0/2" of a run a reload cut off as a failure).
      const look = state
        ? runItemLook(state.status, Object.values(state.steps), progress, undone)
        : { icon: 'error', text: vscode.l10n.t('Task Planner {0}/{1}', progress.completed, progress.total) };
      const count = look.text;
      this.item.text = `$(${look.icon}) ${measured?.percent === undefined ? count : vscode.l10n.t('{0} · {1} {2}%', count, measured.id, measured.percent)}`;
      // The run named by its request, not its id; a click shows that run in the Plan view (it may show another one).
      this.item.tooltip = vscode.l10n.t(
        'Run "{0}": {1}, {2}. Click to show it in the Plan view.',
        shownLine(state?.plan?.objective ?? '', 80),
        status,
        describeStepProgress(progress),
      );
      this.item.accessibilityInformation = {
        label: vscode.l10n.t(
          'Task Planner {0}, run {1}. Press Enter to show it in the Plan view.',
          describeStepProgress(progress),
          status,
        ),
        role: 'button',
      };
      this.item.command = state
        ? { command: 'taskPlanner.openRun', title: vscode.l10n.t('Show the run'), arguments: [state.runId] }
        : 'taskPlanner.plan.focus';
      this.item.backgroundColor = undefined;
    }
    this.item.show();
    this.visible = true;
  }

  dispose(): void {
    this.item.dispose();
  }
}
