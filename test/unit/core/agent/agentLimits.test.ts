import assert from 'node:assert/strict';
import { defaultAgentLimits, resolveAgentLimits } from '../../../../src/core/agent/agentLimits';

describe('resolveAgentLimits', () => {
  it('fills defaults, floors maxTurns and allows an unlimited timeout', () => {
    assert.deepEqual(resolveAgentLimits(undefined), defaultAgentLimits);
    assert.deepEqual(resolveAgentLimits({ maxTurns: 2.7, timeoutMs: Infinity }), { ...defaultAgentLimits, maxTurns: 2, timeoutMs: Infinity });
  });

  it('refuses non-positive or infinite turn counts with a clear message', () => {
    assert.throws(() => resolveAgentLimits({ maxTurns: 0 }), /agentLimits\.maxTurns must be a positive number, got 0/);
    assert.throws(() => resolveAgentLimits({ maxTurns: Infinity }), /maxTurns/);
    assert.throws(() => resolveAgentLimits({ toolResultTokens: Number.NaN }), /toolResultTokens/);
  });
});
