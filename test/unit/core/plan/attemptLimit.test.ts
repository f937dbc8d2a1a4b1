import assert from 'node:assert/strict';
import { attemptLimit } from '../../../../src/core/plan/attemptLimit';

describe('attemptLimit', () => {
  it('a retry policy allows at least one retry; other policies allow maxAttempts', () => {
    assert.equal(attemptLimit({ maxAttempts: 1 }, 'retry'), 2);
    assert.equal(attemptLimit({ maxAttempts: 1 }, 'stop'), 1);
  });
});
