import type { RunState } from '../engine/runEvents';
import { describeStepProgress, stepProgress } from '../../shared/stepProgress';
import { planName } from '../plan/planName';
import { oneLine } from '../text/oneLine';
import { runStatusLabel, undoneLabels } from '../../shared/runStatusLabels';
import { spokenRow, type PlanTreeNode } from './planTreeModel';
import { interruptedLook, stepStatusView, undoneLook, type StatusLook } from './stepStatusView';
import { repairNumber, replacedByRepair } from '../engine/replanRecord';
import { awaitsRepair } from '../engine/awaitsRepair';

// A run that ended looks like a step that ended the same way.
const runIcons: Record<RunState['status'], StatusLook> = {
  running: { icon: 'debug-pause', color: 'charts.yellow' },
  waiting: { icon: 'bell-dot', color: 'charts.yellow' },
  completed: stepStatusView('completed'),
  // Went to its end with steps failed or skipped: never the look of a completed run.
  partial: { icon: 'warning', color: 'charts.orange' },
  failed: stepStatusView('failed'),
  cancelled: { icon: 'circle-slash', color: 'disabledForeground' },
  interrupted: interruptedLook,
};

/** A run a repair replaced: neither failed nor done, since the execution went on in the repair. */
const replacedLook: StatusLook = { icon: 'history', color: 'disabledForeground' };

/**
 * One Runs-view node per stored run, newest first: the objective, status (and whether Undo took back its changes: `undone`) and progress;
 * context value `run.<status>` (a `running` run that is not active was interrupted, e.g.
 * by a reload, and shows as `run.interrupted`, resumable like a waiting one), then `.undoable` when Undo has something
 * of it left to take back (`undoable`: a change of it not undone) and it is not going on.
 */
export function runListModel(
  runs: readonly { state: RunState; updatedAt: number; active: boolean; undone: boolean; undoable: boolean }[],
  formatTime: (ms: number) => string,
): PlanTreeNode[] {
  // A repair is a run of its own, with the same request: its row says which repair it is, and the run it replaced says so.
  const replacedBy = replacedByRepair(runs.map(({ state }) => state));
  return runs.map(({ state, updatedAt, active, undone, undoable }) => {
    const steps = Object.values(state.steps);
    const replaced = replacedBy.get(state.runId);
    // A run whose repair a stop cut off (no repair run of it is listed) is not over: Resume asks for the repair.
    const repairCutOff = awaitsRepair(state) && replaced === undefined && !active;
    const interrupted = (state.status === 'running' && !active) || repairCutOff;
    const status = interrupted ? 'interrupted' : state.status;
    // A run whose changes Undo took back never keeps the green check of one whose work is in the files. One a repair
    // replaced went on in the repair: its red cross read as the task failed, beside the repair's green check (a trial).
    const view = undone && !active ? undoneLook : replaced !== undefined && !active ? replacedLook : runIcons[status];
    const waitingOn = steps.filter((step) => step.pending).map((step) => `${step.id}: ${step.pending!.prompt}`);
    const progress = stepProgress(steps, state.plan?.steps.length ?? steps.length);
    // Undo takes back files, not the run's outcome: a completed run stays completed, and says its changes are undone.
    const repair = repairNumber(state);
    // A run and its repair have the same request: the label says which one it is, where a narrow sidebar keeps it (a trial
    // could not tell which row Undo took back, the description cut).
    const which = [repair === undefined ? '' : `repair ${repair}`, replaced === undefined ? '' : `replaced by repair ${replaced}`]
      .filter((part) => part !== '');
    // One line: a request of several lines would otherwise show its breaks in the row; an imported file by its title.
    const name = oneLine(state.plan === undefined ? state.runId : planName(state.plan), 200);
    const label = which.length === 0 ? name : `${name} (${which.join(', ')})`;
    // The label says by which repair: "replaced" is its outcome, never "failed" (the neutral icon left it out: a trial).
    const shownOutcome = replaced === undefined ? runStatusLabel(status, steps) : 'replaced';
    // The tooltip says why, without the word "failed" that the neutral icon left out (a second trial).
    const outcome = replaced === undefined ? shownOutcome : `replaced by repair ${replaced}, after a step asked for a repair plan`;
    // An Undo that left a file alone took back only some of the changes: the rest is still there to take back.
    const undoneText = undone ? ` · ${undoneLabels[undoable ? 'some' : 'all']}` : '';
    const description = `${shownOutcome}${undoneText} · ${progress.completed}/${progress.total} · ${formatTime(updatedAt)}`;
    return {
      id: `run:${state.runId}`,
      label,
      description,
      accessibilityLabel: spokenRow(
        label,
        description,
        describeStepProgress(progress),
        waitingOn.length > 0 ? `waiting for you on ${waitingOn.length} step${waitingOn.length === 1 ? '' : 's'}` : undefined,
      ),
      tooltip: [
        oneLine(state.plan?.objective ?? state.runId, 1_000),
        // The row's description is cut in a narrow sidebar: the tooltip says it whole (a newcomer saw no mark of an Undo).
        `Status: ${outcome}${undoneText} (run ${state.runId})`,
        // The row's time, named as the command line's `runs` names it: an Undo is said in the status, not in this time.
        `Last ran: ${formatTime(updatedAt)}`,
        state.reason ? `Reason: ${state.reason}` : undefined,
        repairCutOff ? 'It stopped before its repair plan was made: Resume asks for it; finished steps are not run again.' : undefined,
        ...waitingOn.map((line) => `Waiting: ${line}`),
      ]
        .filter((line): line is string => line !== undefined)
        .join('\n'),
      icon: active ? 'sync~spin' : view.icon,
      color: view.color,
      contextValue: `run.${status}${undoable && !active ? '.undoable' : ''}`,
      children: [],
    };
  });
}
