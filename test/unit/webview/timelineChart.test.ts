// A newcomer's trial (issue 32): the last tick's label "1 min 4 s" was cut to "1 min 0" at the chart's right edge.
import assert from 'node:assert/strict';
import type { TimelineView } from '../../../src/shared/panelViewModel';
import { tickLabel, timelineAfter } from '../../../webview/timelineChart';

describe('tickLabel', () => {
  it('puts a label just right of its tick while it fits on the 1000-unit axis', () => {
    assert.deepEqual([0, 250, 500, 750].map(tickLabel), [0, 250, 500, 750].map((x) => ({ x: x + 3, anchor: 'start' })));
  });

  it('ends the last tick\'s label just left of it, inside the chart', () => {
    assert.deepEqual(tickLabel(1000), { x: 997, anchor: 'end' });
    assert.deepEqual(tickLabel(900), { x: 897, anchor: 'end' });
  });
});

describe('timelineAfter', () => {
  const timeline: TimelineView = {
    spanMs: 4_000,
    lanes: 2,
    bars: [
      { stepId: 'S1', title: 'Read', status: 'completed', lane: 0, startMs: 0, endMs: 1_000, ongoing: false },
      { stepId: 'S2', title: 'Write', status: 'awaiting_approval', lane: 1, startMs: 1_000, endMs: 4_000, ongoing: true },
    ],
  };

  it('draws a step that waits on you on to the present, and the axis with it, while no snapshot comes (a newcomer saw it stand still)', () => {
    const later = timelineAfter(timeline, 6_000);
    assert.equal(later.spanMs, 10_000);
    assert.deepEqual(later.bars.map((bar) => [bar.stepId, bar.startMs, bar.endMs]), [['S1', 0, 1_000], ['S2', 1_000, 10_000]]);
    assert.equal(timeline.bars[1]?.endMs, 4_000, 'the snapshot itself is left as it came');
  });

  it('leaves the chart as it came at its arrival, or for a clock gone backwards', () => {
    assert.equal(timelineAfter(timeline, 0), timeline);
    assert.equal(timelineAfter(timeline, -5), timeline);
  });
});
