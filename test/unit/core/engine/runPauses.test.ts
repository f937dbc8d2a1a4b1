import assert from 'node:assert/strict';
import { foldRunEvents } from '../../../../src/core/engine/reduceRunEvent';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import { toResult } from '../../../../src/core/engine/runOutcome';
import { activeTime } from '../../../../src/core/engine/runPauses';
import { runView } from '../../../../src/core/view/runViewModel';
import { runSummary } from '../../../../src/core/view/runSummary';
import { makePlan, makeStep } from '../../../support/randomPlans';

const night = 12 * 60 * 60 * 1000;
const plan = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] })]);

/** A run that did `a` (1 s), stopped (interrupted: a window closed; or killed, which leaves no event), and was resumed a night later to do `b` (2 s). */
function resumedRun(stop: 'interrupted' | 'killed'): RunEvent[] {
  const body = [
    { time: 0, type: 'run_started', plan },
    { time: 0, type: 'step_started', stepId: 'a', attempt: 1 },
    { time: 1_000, type: 'step_completed', stepId: 'a', result: 'A' },
    { time: 1_500, type: 'step_started', stepId: 'b', attempt: 1 },
    ...(stop === 'interrupted' ? [{ time: 2_000, type: 'run_cancelled', reason: 'the window closed', interrupted: true }] : []),
    { time: 2_000 + night, type: 'run_resumed', supplied: {} },
    { time: 2_000 + night, type: 'step_started', stepId: 'b', attempt: 1 },
    { time: 4_000 + night, type: 'step_completed', stepId: 'b', result: 'B' },
    { time: 4_000 + night, type: 'run_completed' },
  ];
  return body.map((event, index) => ({ runId: 'r', seq: index + 1, ...event }) as RunEvent);
}

describe('a resumed run\'s pause: left out of its time and its timeline', () => {
  for (const stop of ['interrupted', 'killed'] as const) {
    it(`${stop}: completed in 4 s of work, not a night, with b's bar right after a's`, () => {
      const events = resumedRun(stop);
      const state = foldRunEvents(events);
      // Killed, the run stood still from its last event (b started at 1.5 s); interrupted, from its end (2 s).
      const from = stop === 'killed' ? 1_500 : 2_000;
      assert.deepEqual(state.pauses, [{ from, to: 2_000 + night }]);
      const worked = 4_000 - (2_000 - from);
      assert.equal(runSummary(state).durationMs, worked);
      assert.equal(toResult(state).metadata.totalDurationMs, worked);
      const view = runView({ state, now: 5_000 + night }, plan);
      assert.equal(view.elapsedMs, worked);
      const bars = view.timeline.bars.map(({ stepId, startMs, endMs }) => ({ stepId, startMs, endMs }));
      assert.deepEqual(bars, [{ stepId: 'a', startMs: 0, endMs: 1_000 }, { stepId: 'b', startMs: from, endMs: from + 2_000 }]);
      assert.equal(view.timeline.spanMs, worked);
      assert.deepEqual(view.steps.map((step) => [step.startMs, step.endMs]), [[0, 1_000], [from, from + 2_000]]);
    });
  }

  it('leaves a run never paused as it was, and counts only the part of a pause before a time', () => {
    assert.equal(foldRunEvents(resumedRun('interrupted').slice(0, 4)).pauses, undefined);
    assert.equal(activeTime(undefined, 42), 42);
    assert.equal(activeTime([{ from: 10, to: 20 }], 15), 10);
    assert.equal(activeTime([{ from: 10, to: 20 }, { from: 30, to: 40 }], 50), 30);
  });
});
