import assert from 'node:assert/strict';
import { formatDuration } from '../../../src/shared/formatDuration';

describe('formatDuration', () => {
  it('says milliseconds under a second, tenths of seconds under a minute, then minutes and whole seconds', () => {
    assert.deepEqual([999.4, 1_000, 4_249, 59_999, 60_000, 185_000, 120_400].map(formatDuration), ['999 ms', '1.0 s', '4.2 s', '60.0 s', '1 min', '3 min 5 s', '2 min']);
  });

  // The panel had its own copy ("1 min 04 s" in its heading over the summary's "1 min 4 s"), and both said "1 min 60 s".
  it('rounds to whole seconds before counting minutes: never "1 min 60 s"', () => {
    assert.deepEqual([119_600, 64_000, 3_599_700].map(formatDuration), ['2 min', '1 min 4 s', '60 min']);
  });
});
