import assert from 'node:assert/strict';
import { backoffDelayMs, decideAfterFailure } from '../../../../src/core/engine/failurePolicy';
import { makeStep } from '../../../support/randomPlans';

describe('failurePolicy', () => {
  const backoff = { baseDelayMs: 1000, maxDelayMs: 5000 };

  it('implements every row of the table once attempts are used up', () => {
    const rows = [
      { onFailure: 'skip', critical: true, expected: { disposition: 'skip' } },
      { onFailure: 'skip', critical: false, expected: { disposition: 'skip' } },
      { onFailure: 'stop', critical: true, expected: { disposition: 'fail', halt: true, replan: false } },
      { onFailure: 'stop', critical: false, expected: { disposition: 'skip' } },
      { onFailure: 'retry', critical: true, expected: { disposition: 'fail', halt: true, replan: false } },
      { onFailure: 'retry', critical: false, expected: { disposition: 'skip' } },
      { onFailure: 'replan', critical: true, expected: { disposition: 'fail', halt: false, replan: true } },
      { onFailure: 'replan', critical: false, expected: { disposition: 'fail', halt: false, replan: true } },
    ] as const;
    for (const row of rows) {
      const step = makeStep('s', { onFailure: row.onFailure, critical: row.critical, maxAttempts: 2 });
      assert.deepEqual(decideAfterFailure(step, 2, 'error', true, backoff), row.expected, `${row.onFailure} × critical ${row.critical}`);
    }
  });

  it('retries errors under any policy while attempts remain; not when unretryable', () => {
    assert.deepEqual(decideAfterFailure(makeStep('s', { onFailure: 'stop', maxAttempts: 3 }), 2, 'error', true, backoff), { disposition: 'retry', delayMs: 2000 });
    assert.deepEqual(decideAfterFailure(makeStep('s', { onFailure: 'skip', maxAttempts: 3 }), 1, 'error', false, backoff), { disposition: 'skip' });
  });

  it('retries verification failures only under onVerificationFailure retry', () => {
    assert.deepEqual(decideAfterFailure(makeStep('s', { onVerificationFailure: 'stop', maxAttempts: 3, critical: false }), 1, 'verification', true, backoff), { disposition: 'skip' });
    assert.equal(decideAfterFailure(makeStep('s', { onVerificationFailure: 'retry', maxAttempts: 1 }), 1, 'verification', true, backoff).disposition, 'retry');
  });

  it('backs off exponentially up to the cap', () => {
    assert.deepEqual([1, 2, 3, 4, 5].map((attempt) => backoffDelayMs(attempt, backoff)), [1000, 2000, 4000, 5000, 5000]);
  });
});
