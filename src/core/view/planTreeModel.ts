import { terminalStepStatuses, type RunState, type StepState } from '../engine/runEvents';
import { formatDuration } from '../../shared/formatDuration';
import { describeChecks } from '../plan/describeCheck';
import { planLevels } from '../plan/planLevels';
import type { Plan, Step } from '../plan/planSchema';
import { previewValue, stepStateView, stepStatusView, stoppedRun, undoneLook } from './stepStatusView';
import type { StoppedRunStatus } from '../../shared/vocabulary';
import { stepRunnerLabel } from './stepRunnerLabel';
import { performedBy } from '../plan/stepKindTraits';

/** How the Plan tree arranges steps. */
export type PlanTreeLayout = 'flat' | 'levels';

/** One node of the Plan tree, free of any UI toolkit; `icon` is a codicon id. */
export interface PlanTreeNode {
  id: string;
  label: string;
  description: string;
  tooltip: string;
  /** What a screen reader says for the row: the label, then the description's parts (the status among them). */
  accessibilityLabel: string;
  icon: string;
  /** A theme colour id for the icon (from `stepStatusView`), when the step has a run status. */
  color?: string;
  /** The plan step this node shows; absent for level nodes. */
  stepId?: string;
  /** The tree item's `contextValue`, used by menus' `when` clauses. */
  contextValue: string;
  children: PlanTreeNode[];
}

/**
 * A row as a screen reader should say it: what the row shows (label, then the
 * description's " · "-separated parts) followed by `more`, comma-separated.
 */
export function spokenRow(label: string, description: string, ...more: (string | undefined)[]): string {
  return [label, ...description.split(' · '), ...more].filter((part) => part !== undefined && part.trim() !== '').join(', ');
}

/**
 * Each step's last node, kept by the step object with the state and position it was built
 * from. Steps and step states are replaced, never mutated (`editPlan`, `reduceRunEvent`),
 * so a node whose step, state and index are the same objects and number is still right:
 * a new run snapshot rebuilds only the nodes of the steps it changed.
 */
export type StepNodeCache = WeakMap<
  Step,
  { index: number; state: StepState | undefined; undone: boolean; stopped: StoppedRunStatus | undefined; node: PlanTreeNode }
>;

const kindIcons: Record<Step['kind'], string> = {
  tool: 'tools',
  agent: 'hubot',
  synthesis_gate: 'git-merge',
  human_review: 'eye',
  clarification: 'question',
  manual: 'person',
};

/** A step skipped in the plan looks as a step the run skipped. */
const skippedLook = stepStatusView('skipped');

/**
 * The Plan tree: steps in plan order (`flat`), or under one node per dependency level
 * (`levels`; falls back to flat when the plan has a cycle). With a run snapshot, each step
 * shows its status (icon, colour, context value `step.<kind>.<status>`), duration,
 * attempts, and its result, error or diagnosis in the tooltip; without one, the plan as
 * reviewed before it runs (context value `step.<kind>`). With a `cache`, unchanged steps
 * keep their node objects from the last call: a caller may update a node it shows only once
 * a later call has returned another node for that step.
 */
export function planTreeModel(
  plan: Plan,
  layout: PlanTreeLayout = 'flat',
  run?: RunState,
  cache?: StepNodeCache,
  undoneSteps: ReadonlySet<string> = new Set(),
): PlanTreeNode[] {
  const stopped = stoppedRun(run?.status);
  const nodeOf = (step: Step, index: number): PlanTreeNode => {
    const state = run?.steps[step.id];
    const undone = undoneSteps.has(step.id);
    const kept = cache?.get(step);
    if (kept && kept.index === index && kept.state === state && kept.undone === undone && kept.stopped === stopped) return kept.node;
    const node = stepNode(step, index, state, undone, stopped);
    cache?.set(step, { index, state, undone, stopped, node });
    return node;
  };
  const stepNodes = new Map(plan.steps.map((step, index) => [step.id, nodeOf(step, index)]));
  const levels = layout === 'levels' ? planLevels(plan) : undefined;
  const replaced = replacedNodes(run);
  if (!levels?.ok) return [...stepNodes.values(), ...replaced];
  const levelNodes = levels.levels.map((ids, index): PlanTreeNode => {
    const label = `Level ${index + 1}`;
    const description = `${ids.length} step${ids.length === 1 ? '' : 's'}${ids.length > 1 ? ', in parallel' : ''}`;
    return {
      id: `level:${index}`,
      label,
      description,
      accessibilityLabel: spokenRow(label, description),
      tooltip: index === 0 ? 'Steps with no dependencies' : `Steps whose dependencies are all in earlier levels`,
      icon: 'layers',
      contextValue: 'level',
      children: ids.map((id) => stepNodes.get(id)!),
    };
  });
  return [...levelNodes, ...replaced];
}

/**
 * After a repair: one node per replaced plan version, under it the steps the repair replaced
 * (the failed one, those it dropped) as they ended there. They are no step of the plan now
 * (no `stepId`, context value `replacedStep`): no step menu acts on them.
 */
function replacedNodes(run: RunState | undefined): PlanTreeNode[] {
  const replaced = run?.replacedSteps ?? [];
  const versions = [...new Set(replaced.map((entry) => entry.planVersion))];
  return versions.map((version) => {
    const steps = replaced.filter((entry) => entry.planVersion === version);
    const label = `Replaced by a repair: plan version ${version}`;
    const description = `${steps.length} step${steps.length === 1 ? '' : 's'}`;
    return {
      id: `replaced:${version}`,
      label,
      description,
      accessibilityLabel: spokenRow(label, description),
      tooltip: `The steps of plan version ${version} that a repair plan replaced, as they ended; the steps above are the ones run now.`,
      icon: 'history',
      contextValue: 'replacedSteps',
      children: steps.map((entry, index) => {
        const { stepId: _notInPlan, ...node } = stepNode(entry.step, index, entry.state, false, undefined);
        return { ...node, id: `replaced:${version}:${entry.step.id}`, contextValue: 'replacedStep' };
      }),
    };
  });
}

function stepNode(step: Step, index: number, state: StepState | undefined, undone: boolean, stopped: StoppedRunStatus | undefined): PlanTreeNode {
  const runner = stepRunnerLabel(step);
  const details = [
    `${step.id} · ${step.kind}${step.skipped ? ' (skipped)' : ''}`,
    step.input ? `Input: ${step.input}` : undefined,
    step.args ? `Arguments: ${JSON.stringify(step.args)}` : undefined,
    step.dependsOn.length > 0 ? `Depends on: ${step.dependsOn.join(', ')}` : undefined,
    step.verification ? `Verification: ${step.verification}` : undefined,
    step.checks?.length ? `Checks: ${describeChecks(step.checks)!}` : undefined,
    step.attachments?.length ? `Attachments: ${step.attachments.map((attachment) => attachment.ref).join(', ')}` : undefined,
    `On failure: ${step.onFailure}${step.maxAttempts > 1 ? ` (up to ${step.maxAttempts} attempts)` : ''}`,
  ];
  const base = {
    id: `step:${step.id}`,
    stepId: step.id,
    label: `${index + 1}. ${step.title}`,
    children: [],
  };
  if (!state) {
    const description = step.skipped ? `${runner} · skipped` : runner;
    return {
      ...base,
      description,
      accessibilityLabel: spokenRow(base.label, description, step.skipped ? undefined : 'not started'),
      tooltip: details.filter((line): line is string => line !== undefined).join('\n'),
      icon: step.skipped ? skippedLook.icon : kindIcons[step.kind],
      ...(step.skipped ? { color: skippedLook.color } : {}),
      contextValue: `step.${step.kind}`,
    };
  }
  const view = stepStateView(state, stopped);
  const description = [
    // First, so a narrow sidebar still shows how far a long step is.
    state.progress === undefined || state.percent === undefined ? undefined : `${state.percent}%`,
    runner,
    view.label,
    // Undo took back what the step changed: its files no longer hold its work.
    undone ? 'changes undone' : undefined,
    state.progress,
    state.durationMs !== undefined ? formatDuration(state.durationMs) : undefined,
    // The attempt a step makes or made; none for a step that ended without one (a skipped step's "attempt 1/3" read as
    // tried once: a newcomer's trial), nor for one that ended, or whose run stopped, at its first ("rejected by you ·
    // attempt 1/3" read as if it would be tried again: an editor trial).
    // Nor for one that has not started ("waits for earlier steps · attempt 1/3" beside the panel's 0/3: a trial).
    state.attempts > 1 || (state.attempts === 1 && step.maxAttempts > 1 && !terminalStepStatuses.has(state.status) && stopped === undefined)
      ? // A person is asked again for as long as their Done fails its checks: no limit to count against.
        performedBy(step.kind, 'person')
        ? `try ${Math.max(1, state.attempts)}`
        : `attempt ${Math.max(1, state.attempts)}/${step.maxAttempts}`
      : undefined,
  ];
  const outcome = [
    `Status: ${view.label}`,
    undone ? 'Undo took back every change this step made to files.' : undefined,
    state.pending ? `Waiting for: ${state.pending.prompt}` : undefined,
    state.status === 'completed' && state.result !== undefined ? `Result: ${previewValue(state.result)}` : undefined,
    // A step trying again holds its last attempt's failure: said as that attempt's, not as the step's now (a trial read a
    // stale check failure under "Status: awaiting approval"), and its diagnosis only when it says more.
    // A completed step's error is an earlier attempt's, said once as such, as the panel says it (webview/stepFailureLines.ts):
    // a trial read "Status: completed" over "Error: Check 1 … failed".
    ...(state.status === 'completed'
      ? [state.error ?? state.diagnosis ? `An earlier attempt failed: ${state.error ?? state.diagnosis}` : undefined]
      : [
          state.error ? `${retrying(state) ? `Attempt ${state.attempts - 1} failed` : 'Error'}: ${state.error}` : undefined,
          state.diagnosis && state.diagnosis !== state.error ? `Diagnosis: ${state.diagnosis}` : undefined,
        ]),
    // a step skipped because it failed carries the error in its reason too: say it once
    state.reason && !(state.error && state.reason.includes(state.error)) ? `Reason: ${state.reason}` : undefined,
  ];
  const shown = description.filter((part): part is string => part !== undefined).join(' · ');
  return {
    ...base,
    description: shown,
    accessibilityLabel: spokenRow(base.label, shown),
    tooltip: [...details, '', ...outcome].filter((line): line is string => line !== undefined).join('\n'),
    ...(undone ? undoneLook : { icon: view.icon, color: view.color }),
    contextValue: `step.${step.kind}.${state.status}`,
  };
}

/** Whether a step is making another attempt after a failed one (the error it holds is the earlier attempt's). */
function retrying(state: StepState): boolean {
  return state.attempts > 1 && !terminalStepStatuses.has(state.status);
}
