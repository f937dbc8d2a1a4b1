import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { RunState, StepState } from '../../../src/core/engine/runEvents';
import { buildPanelViewModel } from '../../../src/core/view/buildPanelViewModel';
import type { RunView } from '../../../src/shared/panelViewModel';
import { diffRunView, patchRunView } from '../../../src/shared/runViewDelta';
import { runStatuses, stepStatuses, type RunStatus, type StepStatus } from '../../../src/shared/vocabulary';
import { makePlan, makeStep } from '../../support/randomPlans';

/** What crosses `postMessage`: JSON, so an `undefined` value is gone on the other side. */
const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

interface StepChange {
  step: number;
  status: StepStatus;
  error?: string;
  progress?: string;
}

const change = fc.record(
  { step: fc.nat(11), status: fc.constantFrom(...stepStatuses), error: fc.string({ maxLength: 8 }), progress: fc.string({ maxLength: 8 }) },
  { requiredKeys: ['step', 'status'] },
) satisfies fc.Arbitrary<StepChange>;

const ids = Array.from({ length: 12 }, (_, index) => `S${index + 1}`);
const plan = makePlan(ids.map((id, index) => makeStep(id, { title: `Step ${index + 1}`, dependsOn: index > 0 ? [ids[index - 1] as string] : [] })));

function stateAt(steps: Record<string, StepState>, status: RunStatus, time: number, warnings: string[]): RunState {
  return { runId: 'run-1', status, plan, results: {}, supplied: {}, lastSeq: time, warnings, resumeCount: 0, startedAt: 0, steps };
}

function viewOf(state: RunState, now: number): RunView {
  const body = buildPanelViewModel(undefined, { state, now });
  assert.ok(body.mode === 'run');
  return body.run;
}

describe('run view deltas', () => {
  it('patching the last view with the delta to the next gives the next view, over random step status sequences (through JSON both ways)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(change, fc.constantFrom(...runStatuses), fc.boolean()), { minLength: 1, maxLength: 30 }),
        (changes) => {
          let steps: Record<string, StepState> = {};
          let time = 1;
          let warnings: string[] = [];
          let shown = wire(viewOf(stateAt(steps, 'running', time, warnings), time));
          let previous = viewOf(stateAt(steps, 'running', time, warnings), time);
          for (const [{ step, status, error, progress }, runStatus, warn] of changes) {
            const id = ids[step] as string;
            time += 7;
            const before = steps[id];
            steps = {
              ...steps,
              [id]: {
                id,
                status,
                attempts: (before?.attempts ?? 0) + (status === 'running' ? 1 : 0),
                startedAt: before?.startedAt ?? time,
                ...(error === undefined ? {} : { error }),
                ...(progress === undefined ? {} : { progress }),
              },
            };
            if (warn) warnings = [...warnings, `warning at ${time}`];
            const next = viewOf(stateAt(steps, runStatus, time, warnings), time);
            const delta = diffRunView(previous, next);
            assert.ok(delta, 'two views of one run with the same steps always have a delta');
            const patched = patchRunView(shown, wire(delta));
            assert.ok(patched, 'a delta always applies to the view it was made from');
            assert.deepEqual(patched, wire(next));
            shown = patched;
            previous = next;
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('unsets a field whose new value is undefined, which JSON would otherwise drop and leave the old value on screen', () => {
    const base = viewOf(stateAt({}, 'running', 1, []), 1);
    const focused = { ...base, focusStepId: 'S1' };
    const cleared: RunView = { ...base, focusStepId: undefined };
    const delta = diffRunView(focused, cleared);
    assert.ok(delta);
    const patched = patchRunView(wire(focused), wire(delta));
    assert.ok(patched);
    assert.equal('focusStepId' in patched, false);
  });

  it('sends nothing to patch for another run or a changed list of steps, and refuses a delta that does not fit', () => {
    const view = viewOf(stateAt({}, 'running', 1, []), 1);
    assert.equal(diffRunView(view, { ...view, runId: 'run-2' }), undefined);
    assert.equal(diffRunView(view, { ...view, steps: view.steps.slice(1) }), undefined);
    const renamed = { ...view, steps: view.steps.map((step, index) => (index === 3 ? { ...step, id: 'other' } : step)) };
    assert.equal(diffRunView(view, renamed), undefined);
    const shorter = { ...view, steps: view.steps.slice(0, 2) };
    const delta = diffRunView(view, { ...view, steps: view.steps.map((step) => ({ ...step, title: `${step.title}!` })) });
    assert.ok(delta);
    assert.equal(patchRunView(shorter, delta), undefined, 'a step position beyond the view held');
    const bar = { stepId: 'S1', title: 'Step 1', status: 'running' as const, lane: 0, startMs: 0, endMs: 5, ongoing: true };
    const hole = { ...delta, steps: [], timeline: { spanMs: 5, lanes: 1, length: 3, bars: [{ index: 2, bar }] } };
    assert.equal(patchRunView(view, hole), undefined, 'a bar past the end of those held');
  });
});
