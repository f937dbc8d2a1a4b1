import { doneInSourceLabel, rejectedLabel } from '../../shared/stepStatusLabels';
import type { SkipCause } from '../../shared/vocabulary';
import type { Step } from '../plan/planSchema';
import type { RunState } from './runEvents';

/** The steps of a run whose work is not done, in plan order: those that failed, and those skipped other than as planned. */
export interface StepsNotDone {
  /** Failed, or failed and then skipped by their failure policy. */
  failed: string[];
  /** Skipped because the user rejected their change or command. */
  rejected: string[];
  /** Skipped because a step they depend on did not complete, or the run halted. */
  skipped: string[];
}

// Whether a skip of each cause leaves the step's work undone; `dependency` is as planned only when what it waited on was.
const skipLeavesWorkUndone: Readonly<Record<SkipCause, boolean | 'as its dependencies'>> = {
  failed: true,
  rejected: true,
  dependency: 'as its dependencies',
  halted: true,
  plan: false,
  source: false,
  condition: false,
};

/**
 * The steps of `state`'s plan that ended without their work done (docs/architecture.md §4):
 * a step that failed, or was skipped because of a failure, a rejection or a halt. A step
 * skipped as planned (the plan skips it, its condition was not met, or only such steps
 * kept it from running) is not among them, nor is one that has not ended. A run that ran
 * through to its end with none of these is `completed`; with any, `partial`. Pure; linear
 * in the plan's steps and dependencies.
 */
export function stepsNotDone(state: Readonly<Pick<RunState, 'plan' | 'steps'>>): StepsNotDone {
  const steps = state.plan?.steps ?? [];
  const undone = new Map<string, boolean>();
  for (const step of dependenciesFirst(steps)) {
    const stepState = state.steps[step.id];
    let result = stepState?.status === 'failed';
    if (stepState?.status === 'skipped') {
      const leaves = skipLeavesWorkUndone[stepState.skipCause ?? 'dependency'];
      // Skipped for its dependencies: as planned when each one that did not complete was skipped as planned.
      const blockers = step.dependsOn.filter((dependency) => state.steps[dependency]?.status !== 'completed');
      const asPlanned =
        blockers.length > 0 && blockers.every((dependency) => state.steps[dependency]?.status === 'skipped' && undone.get(dependency) === false);
      result = leaves === 'as its dependencies' ? !asPlanned : leaves;
    }
    undone.set(step.id, result);
  }
  const notDone: StepsNotDone = { failed: [], rejected: [], skipped: [] };
  for (const step of steps) {
    if (undone.get(step.id) !== true) continue;
    const stepState = state.steps[step.id];
    if (stepState?.status === 'failed' || stepState?.skipCause === 'failed') notDone.failed.push(step.id);
    else if (stepState?.skipCause === 'rejected') notDone.rejected.push(step.id);
    else notDone.skipped.push(step.id);
  }
  return notDone;
}

/** `steps` with every step after the steps it depends on (Kahn's order); steps on a cycle, which no plan that ran has, come last. */
function dependenciesFirst(steps: readonly Step[]): Step[] {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const waitingOn = new Map(steps.map((step) => [step.id, step.dependsOn.filter((dependency) => byId.has(dependency)).length]));
  const dependents = new Map<string, string[]>();
  for (const step of steps) {
    for (const dependency of step.dependsOn) {
      const list = dependents.get(dependency);
      if (list) list.push(step.id);
      else if (byId.has(dependency)) dependents.set(dependency, [step.id]);
    }
  }
  const order = steps.filter((step) => waitingOn.get(step.id) === 0);
  for (let index = 0; index < order.length; index++) {
    for (const id of dependents.get(order[index]!.id) ?? []) {
      const left = (waitingOn.get(id) ?? 1) - 1;
      waitingOn.set(id, left);
      if (left === 0) order.push(byId.get(id)!);
    }
  }
  const placed = new Set(order);
  return [...order, ...steps.filter((step) => !placed.has(step))];
}

/**
 * What made a step skipped, read from the reason the engine gave (for journals written
 * before `step_skipped` carried its cause, or before the cause `source`): "skipped in the plan", "done in the source
 * file", "its condition … is not met", "Rejected by you…" (older: "by the user"), "run halted…", "failed: …"; any other
 * reason is a dependency's.
 */
export function skipCauseOf(reason: string): SkipCause {
  if (reason === 'skipped in the plan') return 'plan';
  if (reason === doneInSourceLabel) return 'source';
  if (reason.startsWith('its condition ')) return 'condition';
  if (/^Rejected by (the user|you)\b/.test(reason)) return 'rejected';
  if (reason.startsWith('run halted ')) return 'halted';
  if (reason.startsWith('failed: ')) return 'failed';
  return 'dependency';
}

/** Why a run is `partial`, in words: "Step S1 failed; step S4 was rejected by you; steps S2, S3 were skipped." */
export function describeStepsNotDone(notDone: StepsNotDone): string {
  const part = (ids: readonly string[], one: string, many: string): string[] =>
    ids.length === 0 ? [] : [`${ids.length === 1 ? 'step' : 'steps'} ${ids.join(', ')} ${ids.length === 1 ? one : many}`];
  const parts = [
    ...part(notDone.failed, 'failed', 'failed'),
    ...part(notDone.rejected, `was ${rejectedLabel}`, `were ${rejectedLabel}`),
    ...part(notDone.skipped, 'was skipped', 'were skipped'),
  ];
  const text = parts.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
