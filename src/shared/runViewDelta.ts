import type { RunViewChanges, RunViewField } from './panelProtocol';
import type { RunStepView, RunView, TimelineBar } from './panelViewModel';

/**
 * The changes from `previous` to `next`, two views of the same run with the same steps in the
 * same order; `undefined` when they are not (another run, or the plan changed: send `next`
 * whole). Linear in the steps; a step or bar that is the same object is not looked into.
 * Invariant: `patchRunView(previous, diffRunView(previous, next))` equals `next`.
 */
export function diffRunView(previous: RunView, next: RunView): RunViewChanges | undefined {
  if (previous.runId !== next.runId || previous.steps.length !== next.steps.length) return undefined;
  const steps: RunViewChanges['steps'] = [];
  for (let index = 0; index < next.steps.length; index++) {
    const [before, after] = [previous.steps[index] as RunStepView, next.steps[index] as RunStepView];
    if (before.id !== after.id) return undefined;
    if (!sameFlat(before, after)) steps.push({ index, step: after });
  }
  const bars: RunViewChanges['timeline']['bars'] = [];
  next.timeline.bars.forEach((bar, index) => {
    const before = previous.timeline.bars[index];
    if (before === undefined || !sameFlat(before, bar)) bars.push({ index, bar });
  });
  const set: Record<string, unknown> = {};
  const unset: RunViewField[] = [];
  // A field set to undefined is absent once posted (JSON drops it), so it is unset, never "set to undefined".
  for (const key of Object.keys(previous) as (keyof RunView)[]) if (isField(key) && previous[key] !== undefined && next[key] === undefined) unset.push(key);
  for (const [key, value] of Object.entries(next) as [keyof RunView, unknown][]) {
    if (isField(key) && value !== undefined && !sameValue(previous[key], value)) set[key] = value;
  }
  const { spanMs, lanes } = next.timeline;
  return { set: set, unset, steps, timeline: { spanMs, lanes, length: next.timeline.bars.length, bars } };
}

/**
 * `run` with `changes` applied (a new view; `run` is left as it was), or `undefined` when they
 * do not fit it: a step position out of range or a step of another id, or a bar beyond the end.
 */
export function patchRunView(run: RunView, changes: RunViewChanges): RunView | undefined {
  const steps = changes.steps.length === 0 ? run.steps : [...run.steps];
  for (const { index, step } of changes.steps) {
    if (steps[index]?.id !== step.id) return undefined;
    steps[index] = step;
  }
  const bars = run.timeline.bars.slice(0, changes.timeline.length);
  for (const { index, bar } of changes.timeline.bars) {
    if (index > bars.length || index >= changes.timeline.length) return undefined;
    bars[index] = bar;
  }
  if (bars.length !== changes.timeline.length) return undefined;
  const patched: RunView = { ...run, ...changes.set, steps, timeline: { spanMs: changes.timeline.spanMs, lanes: changes.timeline.lanes, bars } };
  const fields = patched as unknown as Record<string, unknown>;
  for (const key of changes.unset) delete fields[key];
  return patched;
}

function isField(key: keyof RunView): key is RunViewField {
  return key !== 'steps' && key !== 'timeline';
}

/** Two objects whose values are all primitives (a step's row, a bar) hold the same values. */
function sameFlat<T extends RunStepView | TimelineBar>(a: T, b: T): boolean {
  if (a === b) return true;
  const keys = Object.keys(a) as (keyof T)[];
  return keys.length === Object.keys(b).length && keys.every((key) => key in b && a[key] === b[key]);
}

/** Deep equality of JSON values. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const [left, right] = [a as Record<string, unknown>, b as Record<string, unknown>];
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => key in right && sameValue(left[key], right[key]));
}
