import assert from 'node:assert/strict';
import { shownUsd } from '../../../src/shared/shownUsd';

describe('shownUsd', () => {
  it('shows an amount below a dollar with two significant digits, cents below $10, whole dollars above', () => {
    const shown = [0.0021, 0.001, 0.00022, 0.0123, 0.03, 0.25, 0.5, 0.9949, 0.996, 1.234, 9.999, 12.4, 0.000001].map(shownUsd);
    assert.deepEqual(shown, ['$0.0021', '$0.001', '$0.00022', '$0.012', '$0.03', '$0.25', '$0.50', '$0.99', '$1.00', '$1.23', '$10', '$12', '$0.000001']);
  });

  // "$0.0000" read as free when a run had spent something.
  it('never shows something spent as nothing, nor nothing (or no number) as an amount', () => {
    assert.deepEqual([0, -1, Number.NaN, 1e-9].map(shownUsd), ['$0', '$0', '$0', '<$0.000001']);
  });
});
