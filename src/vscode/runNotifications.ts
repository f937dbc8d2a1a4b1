import * as vscode from 'vscode';
import { showRunChangeCommand } from './runChangeDiff';
import type { RunResult } from '../core/engine/runOptions';
import type { RunState, StepStatus } from '../core/engine/runEvents';
import { capText } from '../core/text/capText';
import { planName } from '../core/plan/planName';
import { oneLine } from '../core/text/oneLine';
import { visibleDirection } from '../core/text/visibleDirection';
import { restrictedModeReason } from '../core/tools/workspaceTrustGate';
import { runStatusLabel } from '../shared/runStatusLabels';
import { describeStepProgress, stepProgress } from '../shared/stepProgress';
import { loadRuntime } from './loadRuntime';
import type { InterruptedRun } from './interruptedRuns';
import { showInformation, showWarning } from './notifications';

// Whether a step in each status had started and not ended: cut off by a reload, Resume goes on with it.
const underWay: Readonly<Record<StepStatus, boolean>> = {
  pending: false,
  blocked: false,
  ready: false,
  running: true,
  awaiting_approval: true,
  awaiting_clarification: true,
  awaiting_review: true,
  awaiting_user: true,
  awaiting_budget: true,
  completed: false,
  failed: false,
  skipped: false,
};

/** Most step ids the reason of an interrupted run names. */
const maxNamedSteps = 3;

/**
 * Why a run a reload cut off stopped, and what Resume does: the steps that had ended are kept, and those that were under
 * way (named) go on (an agent step continues its journaled conversation; a change already made is not made twice). A
 * newcomer's trial: an agent step whose change was approved and written, and whose task-file tick waited, was run again
 * on Resume (its model asked again, the same file proposed again) while the notice said only "Finished steps are not run
 * again". Steps that had changed no file say so: a step waiting for its approval read as if it
 * had written something (an editor trial).
 */
export function interruptedRunReason(steps: Iterable<{ id: string; status: StepStatus; filesChanged?: readonly string[] | undefined }>): string {
  const started = [...steps].filter((step) => underWay[step.status]);
  const reason = vscode.l10n.t('The window was closed or reloaded during the run; resume it to go on.');
  if (started.length === 0) return reason;
  const named = started.slice(0, maxNamedSteps).map((step) => oneLine(visibleDirection(step.id), 64));
  const list = started.length > maxNamedSteps ? vscode.l10n.t('{0} and {1} more', named.join(', '), started.length - maxNamedSteps) : named.join(', ');
  const changedNothing = started.every((step) => (step.filesChanged?.length ?? 0) === 0);
  if (started.length === 1 && changedNothing) {
    return started[0]!.status === 'awaiting_approval'
      ? vscode.l10n.t('{0} Step {1} was waiting for your approval, nothing of it written yet: Resume asks again.', reason, list)
      : vscode.l10n.t('{0} Step {1} was under way and had changed no file: Resume goes on with it.', reason, list);
  }
  if (changedNothing) return vscode.l10n.t('{0} Steps {1} were under way and had changed no file: Resume goes on with them.', reason, list);
  return started.length === 1
    ? vscode.l10n.t('{0} Step {1} was under way: Resume goes on with it and does not make a change twice (what it changed stays until Undo).', reason, list)
    : vscode.l10n.t(
        '{0} Steps {1} were under way: Resume goes on with them and does not make a change twice (what they changed stays until Undo).',
        reason,
        list,
      );
}

/**
 * Why a run whose repair a stop cut off (`repairCutOff`: it failed asking for a repair plan, and the window went away
 * before the repair run began) stopped, and what Resume does: asks for the repair plan again; finished steps are kept.
 */
export function repairCutOffReason(steps: Iterable<{ id: string; replanRequested?: boolean | undefined }>): string {
  const asking = [...steps].filter((step) => step.replanRequested === true).map((step) => oneLine(visibleDirection(step.id), 64));
  const shown = asking.slice(0, maxNamedSteps).join(', ');
  const named = asking.length > maxNamedSteps ? vscode.l10n.t('{0} and {1} more', shown, asking.length - maxNamedSteps) : shown;
  return vscode.l10n.t(
    'The run stopped while a repair plan was being made for {0}, before the repair began. Resume it to ask for the repair plan again; finished steps are not run again.',
    named,
  );
}

/**
 * After a window reload (or crash) cut a run off: says so and offers Resume (finished
 * steps are not run again, a step under way goes on without making a change twice) and the Runs view, where the run shows as interrupted.
 */
export async function notifyRunInterrupted(run: InterruptedRun, repairCutOff = false): Promise<void> {
  const [resume, showRuns] = [vscode.l10n.t('Resume'), vscode.l10n.t('Show runs')];
  const objective = visibleDirection(oneLine(run.objective, 120));
  // Cut off while its repair plan was asked for, no step was under way: what Resume does again is ask (a trial).
  const message = repairCutOff
    ? vscode.l10n.t(
      'Task Planner: the run "{0}" was interrupted when the window closed or reloaded, while a repair plan was being made. Resume it? The repair plan is asked for again; finished steps are not run again.',
      objective,
    )
    : vscode.l10n.t(
      'Task Planner: the run "{0}" was interrupted when the window closed or reloaded. Resume it? Finished steps are not run again; a step that was under way goes on, without making a change twice.',
      objective,
    );
  const choice = await showWarning(message, resume, showRuns);
  if (choice === resume) await vscode.commands.executeCommand('taskPlanner.resumeRun', run.runId);
  if (choice === showRuns) await vscode.commands.executeCommand('taskPlanner.runs.focus');
}

/** Most characters of a finished run's notification (its headline, reason or first failure, and the files kept from the model). */
const maxMessageChars = 600;
/** Most characters of the first failure's diagnosis in that notification. */
const maxFailureChars = 300;

/** Shows a run's end (its message and buttons) and resolves with the button chosen, `undefined` when none was. */
export type RunEndNotice = (message: string, completed: boolean, actions: string[]) => Thenable<string | undefined>;

/** The notification: information for a run that completed, a warning for any other end. */
export const runEndNotification: RunEndNotice = (message, completed, actions) => (completed ? showInformation : showWarning)(message, ...actions);

/**
 * Tells the user how a run ended, in a notification (never modal; `notice` in its place) built from the core's
 * `runSummary` of `state` (the run's snapshot, folded from its journal, repair runs
 * included): the headline with steps, changed files, repairs, tokens and cost, the
 * first failure with its diagnosis, and the files tools kept from the model. Buttons, each about that run whichever folder is current: "Show run" (the run
 * in the Plan view, as "Open run" shows it; not "Show plan", the command that opens the plan panel), "Show changes" (a pick of the
 * changed files, each shown as a diff of before the run and now) and "Undo run" when files changed, "Show log" when it did not complete.
 */
export function notifyRunFinished(result: RunResult, log: vscode.LogOutputChannel, state?: RunState, notice: RunEndNotice = runEndNotification): void {
  const steps = Object.values(result.steps);
  const known = state?.runId === result.runId ? state : undefined;
  const summary = known
    ? loadRuntime().runSummary(known, { replanCount: result.metadata.replanCount, ...(result.metadata.llmUsage ? { usage: result.metadata.llmUsage } : {}) })
    : undefined;
  const headline = summary?.headline ?? `${runStatusLabel(result.status, steps)}: ${describeStepProgress(stepProgress(steps, steps.length))}.`;
  const changed = known?.changedFiles ?? [];
  const failure = summary?.failures[0];
  const failureText = failure ? vscode.l10n.t(' {0} failed: {1}', failure.stepId, failureLine(failure.diagnosis ?? failure.error)) : '';
  // The summary's reason: a partly done run has none, since its headline says what is not done ("1 rejected by you").
  const reason = summary ? summary.reason : result.metadata.reason;
  const kept = summary?.keptFromModel === undefined ? '' : ` ${summary.keptFromModel}.`;
  // A run waiting for a higher budget asks nothing on screen: its reason is said here (the others' questions are shown).
  const budget = result.pending?.find((request) => request.kind === 'budget');
  const detail = `${
    result.status === 'waiting'
      ? budget === undefined
        ? vscode.l10n.t(' Resume it from the Runs view.')
        : vscode.l10n.t(' It waits: {0} Then resume it from the Runs view.', firstLine(budget.prompt))
      : result.status !== 'completed' && reason && !failureText
        ? ` ${reason}`
        : failureText
  }${kept}`;
  // Named by its request, so two runs' notifications (two folders, a repair) are told apart.
  const objective = known?.plan === undefined ? undefined : planName(known.plan);
  const message = visibleDirection(
    capText(
      objective === undefined
        ? vscode.l10n.t('Task Planner: run {0}{1}', headline, detail)
        : vscode.l10n.t('Task Planner: run "{0}" {1}{2}', oneLine(objective, 80), headline, detail),
      maxMessageChars,
    ),
  );
  const [showRun, showChangesLabel, undoRun, showLog] = [
    vscode.l10n.t('Show run'),
    vscode.l10n.t('Show changes'),
    vscode.l10n.t('Undo run'),
    vscode.l10n.t('Show log'),
  ];
  // A run you cancelled goes on where it stopped: offered here, where its end is said (a trial looked for it there).
  const resume = result.status === 'cancelled' ? [vscode.l10n.t('Resume')] : [];
  const actions = [showRun, ...resume, ...(changed.length > 0 ? [showChangesLabel, undoRun] : []), ...(result.status === 'completed' ? [] : [showLog])];
  void notice(message, result.status === 'completed', actions).then((choice) => {
    if (choice !== undefined && choice === resume[0]) void vscode.commands.executeCommand('taskPlanner.resumeRun', result.runId);
    // The run that ended, not whichever run the Plan view shows (another folder's may have become the current one).
    if (choice === showRun) void vscode.commands.executeCommand('taskPlanner.openRun', result.runId);
    if (choice === showChangesLabel) void showChanges(result.runId, changed);
    if (choice === showLog) log.show(true);
    if (choice === undoRun) void vscode.commands.executeCommand('taskPlanner.undoRun', result.runId);
  });
}

/**
 * A failure in the end's notification: a step Restricted Mode refused in a few words, since
 * the refusal's own warning (src/vscode/vscodeTrustGate.ts) already gave the whole reason
 * and the way out; any other, its first line.
 */
function failureLine(text: string): string {
  return text.includes(restrictedModeReason) ? vscode.l10n.t('not run, since this workspace is in Restricted Mode') : firstLine(text);
}

/**
 * The first line of a diagnosis, at most `maxFailureChars` characters, marked "…" when
 * more follows: a command's output or a stack trace belongs in the plan view and the log,
 * not in a notification.
 */
function firstLine(text: string): string {
  const [first = '', ...rest] = text.trim().split(/\r?\n/);
  return rest.length > 0 && first.length < maxFailureChars ? `${first.trimEnd()} …` : capText(first, maxFailureChars);
}

/** Shows what the run changed in one file (a diff: before the run ↔ now), picked from the list when it changed several. */
async function showChanges(runId: string, paths: readonly string[]): Promise<void> {
  const path =
    paths.length === 1
      ? paths[0]
      : await vscode.window
          .showQuickPick(
            paths.map((item) => visibleDirection(item)),
            { title: vscode.l10n.t('Files the run changed'), placeHolder: vscode.l10n.t('Show the changes to a file') },
          )
          .then((picked) => (picked === undefined ? undefined : paths[paths.map((item) => visibleDirection(item)).indexOf(picked)]));
  if (path !== undefined) await vscode.commands.executeCommand(showRunChangeCommand, runId, path);
}
