import assert from 'node:assert/strict';
import { runTimeline, type TimedStep } from '../../../../src/core/view/runTimeline';

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
});
