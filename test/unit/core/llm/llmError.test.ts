import assert from 'node:assert/strict';
import { isLlmError, isTransientKind, LlmError, type LlmErrorKind } from '../../../../src/core/llm/llmError';

describe('LlmError', () => {
  it('retries rate limits, server errors, network failures, time-outs and malformed replies, and nothing else', () => {
    const transient: LlmErrorKind[] = ['rate_limited', 'server', 'network', 'timeout', 'malformed'];
    const final: LlmErrorKind[] = ['bad_request', 'auth', 'not_found', 'aborted', 'other'];
    assert.deepEqual(transient.map(isTransientKind), transient.map(() => true));
    assert.deepEqual(final.map(isTransientKind), final.map(() => false));
    assert.equal(new LlmError('slow', 'timeout', undefined, 3).transient, true);
    assert.equal(new LlmError('no', 'auth', 401, 1).transient, false);
  });

  it('keeps what happened: message, kind, HTTP status and attempts', () => {
    const error = new LlmError('LLM request failed after 2 attempts: HTTP 503', 'server', 503, 2);
    assert.deepEqual([error.name, error.message, error.kind, error.status, error.attempts], ['LlmError', 'LLM request failed after 2 attempts: HTTP 503', 'server', 503, 2]);
  });

  it('is recognised as it is and as a copy from another bundle, and nothing else is', () => {
    assert.ok(isLlmError(new LlmError('x', 'other', undefined, 1)));
    assert.ok(isLlmError(Object.assign(new Error('x'), { name: 'LlmError', kind: 'network' })));
    assert.ok(!isLlmError(Object.assign(new Error('x'), { name: 'LlmError' })), 'no kind');
    assert.ok(!isLlmError(Object.assign(new Error('x'), { kind: 'network' })), 'another error');
    assert.ok(!isLlmError({ name: 'LlmError', kind: 'network', message: 'x' }), 'not an Error');
    assert.ok(!isLlmError(undefined));
  });
});
