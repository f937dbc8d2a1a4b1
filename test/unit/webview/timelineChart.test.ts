// A newcomer's trial (issue 32): the last tick's label "1 min 4 s" was cut to "1 min 0" at the chart's right edge.
import assert from 'node:assert/strict';
import { tickLabel } from '../../../webview/timelineChart';

describe('tickLabel', () => {
  it('puts a label just right of its tick while it fits on the 1000-unit axis', () => {
    assert.deepEqual([0, 250, 500, 750].map(tickLabel), [0, 250, 500, 750].map((x) => ({ x: x + 3, anchor: 'start' })));
  });

  it('ends the last tick\'s label just left of it, inside the chart', () => {
    assert.deepEqual(tickLabel(1000), { x: 997, anchor: 'end' });
    assert.deepEqual(tickLabel(900), { x: 897, anchor: 'end' });
  });
});
