import assert from 'node:assert/strict';
import { foldRunEvents } from '../../../../src/core/engine/reduceRunEvent';
import { stampEvent, type RunEventBody } from '../../../../src/core/engine/runEvents';
import { buildPanelViewModel } from '../../../../src/core/view/buildPanelViewModel';
import { runTimeline, type TimedStep } from '../../../../src/core/view/runTimeline';
import { makePlan, makeStep } from '../../../support/randomPlans';

describe('runTimeline', () => {
  const step = (stepId: string, startedAt?: number, endedAt?: number): TimedStep => ({ stepId, title: `Step ${stepId}`, status: 'completed', ...(startedAt === undefined ? {} : { startedAt }), ...(endedAt === undefined ? {} : { endedAt }) });

  it('orders bars by start, then by plan order, leaves out steps that never started, and reuses a lane once it is free', () => {
    const view = runTimeline([step('late', 1_050, 1_060), step('never'), step('b', 1_010, 1_030), step('a', 1_010, 1_020), step('next', 1_020, 1_040)], 1_000, 2_000);
    assert.deepEqual(view.bars.map((bar) => [bar.stepId, bar.lane, bar.startMs, bar.endMs]), [
      ['b', 0, 10, 30],
      ['a', 1, 10, 20],
      ['next', 1, 20, 40],
      ['late', 0, 50, 60],
    ]);
    assert.equal(view.lanes, 2);
    assert.equal(view.spanMs, 1_000, 'the chart spans the run up to now');
  });

  it('draws a running step up to now and spans at least one millisecond', () => {
    const running = runTimeline([step('a', 1_000)], 1_000, 1_250);
    assert.deepEqual(running.bars.map((bar) => [bar.startMs, bar.endMs, bar.ongoing]), [[0, 250, true]]);
    assert.deepEqual(runTimeline([step('a', 1_000, 1_100)], 1_000, 1_250).bars.map((bar) => bar.ongoing), [false], 'a step that ended is not going on');
    assert.equal(running.spanMs, 250);
    assert.equal(runTimeline([], 1_000, 1_000).spanMs, 1);
    assert.equal(runTimeline([step('a', 900, 1_500)], 1_000, 1_200).spanMs, 500, 'a bar that ends after now widens the chart');
  });

  it('keeps the bar of a step a Cancel cut short, ending at the Cancel and said not finished (an editor trial saw it vanish)', () => {
    const plan = makePlan([makeStep('A', { title: 'Build' }), makeStep('B', { title: 'Lint' })]);
    const bodies: RunEventBody[] = [
      { type: 'run_started', plan },
      { type: 'step_started', stepId: 'A', attempt: 1 },
      { type: 'step_started', stepId: 'B', attempt: 1 },
      { type: 'step_completed', stepId: 'B', result: 'ok' },
      { type: 'run_cancelled', reason: 'Cancelled by you' },
    ];
    const state = foldRunEvents(bodies.map((body, index) => stampEvent(body, 'r', index + 1, 1_000 + index * 100)));
    const body = buildPanelViewModel(undefined, { state, now: 5_000 });
    assert.ok(body.mode === 'run');
    const bar = body.run.timeline.bars.find((each) => each.stepId === 'A');
    assert.deepEqual([bar?.startMs, bar?.endMs, bar?.ongoing, bar?.statusLabel], [100, 400, false, 'not finished (run cancelled)']);
    assert.equal(body.run.timeline.bars.length, 2);
    // Its row says how long it ran too.
    assert.equal(body.run.steps.find((step) => step.id === 'A')?.durationMs, 300);
  });
});
