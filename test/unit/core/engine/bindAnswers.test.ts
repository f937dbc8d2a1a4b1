import assert from 'node:assert/strict';
import { bindAnswers } from '../../../../src/core/engine/bindAnswers';
import { initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import type { PendingRequest, RunState } from '../../../../src/core/engine/runEvents';

const pendingOf = (stepId: string, kind: PendingRequest['kind']): PendingRequest => ({
  id: `${stepId}@000000000001`,
  fingerprint: `fp-${stepId}`,
  stepId,
  kind,
  prompt: `${kind}?`,
});
const waitingOn = (...requests: PendingRequest[]): RunState => ({
  ...initialRunState('r'),
  status: 'waiting',
  steps: Object.fromEntries(
    requests.map((request) => [request.stepId, { id: request.stepId, status: 'awaiting_approval' as const, attempts: 1, pending: request }]),
  ),
});

describe('bindAnswers', () => {
  const approval = pendingOf('A', 'approval');
  const question = pendingOf('Q', 'clarification');
  const review = pendingOf('R', 'review');
  const manual = pendingOf('M', 'manual');
  const budget = pendingOf('B', 'budget');
  const state = waitingOn(approval, question, review, manual, budget);

  it('binds each kind of answer, by request id or by step id, to the fingerprint of the request', () => {
    const { supplied, warnings } = bindAnswers(state, {
      approvals: { [approval.id]: false },
      answers: { Q: 'port 8080' },
      reviews: { R: { approved: true, notes: 'fine' } },
      manual: { [manual.id]: { done: true, note: 'signed' } },
    });
    assert.deepEqual(warnings, []);
    assert.deepEqual(supplied, {
      [approval.id]: { stepId: 'A', fingerprint: 'fp-A', kind: 'approval', decision: { approved: false } },
      [question.id]: { stepId: 'Q', fingerprint: 'fp-Q', kind: 'clarification', answer: 'port 8080' },
      [review.id]: { stepId: 'R', fingerprint: 'fp-R', kind: 'review', decision: { approved: true, notes: 'fine' } },
      [manual.id]: { stepId: 'M', fingerprint: 'fp-M', kind: 'manual', outcome: { done: true, note: 'signed' } },
    });
  });

  it('words a manual answer as the outcome the step acts on', () => {
    const outcome = (answer: { done: boolean; note?: string; reason?: string }): unknown => bindAnswers(state, { manual: { M: answer } }).supplied[manual.id];
    assert.deepEqual(outcome({ done: true }), { stepId: 'M', fingerprint: 'fp-M', kind: 'manual', outcome: { done: true } });
    assert.deepEqual(outcome({ done: false, reason: 'no key' }), {
      stepId: 'M',
      fingerprint: 'fp-M',
      kind: 'manual',
      outcome: { done: false, reason: 'no key' },
    });
    assert.deepEqual(outcome({ done: false }), { stepId: 'M', fingerprint: 'fp-M', kind: 'manual', outcome: { done: false, reason: '' } });
  });

  it('does not use an answer that names no pending request, and lists what does wait', () => {
    const { supplied, warnings } = bindAnswers(state, { approvals: { Z: true } });
    assert.deepEqual(supplied, {});
    assert.deepEqual(warnings, [
      `The approval given for "Z" matches no pending request and was not used (pending: ${[approval, question, review, manual, budget].map((item) => item.id).join(', ')}).`,
    ]);
    assert.deepEqual(bindAnswers(waitingOn(), { answers: { Q: 'x' } }).warnings, [
      'The answer given for "Q" matches no pending request and was not used (pending: none).',
    ]);
  });

  it('does not use an answer of another kind than the request, and says what the step waits for', () => {
    const { supplied, warnings } = bindAnswers(state, {
      approvals: { Q: true, M: true, B: true },
      answers: { R: 'ok' },
      reviews: { A: { approved: true } },
      manual: { A: { done: true } },
    });
    assert.deepEqual(supplied, {});
    assert.deepEqual(warnings, [
      `The approval given for "Q" was not used: step Q waits for an answer (${question.id}).`,
      `The approval given for "M" was not used: step M waits for you to do it (done or failed) (${manual.id}).`,
      `The approval given for "B" was not used: step B waits for a higher budget (${budget.id}).`,
      `The answer given for "R" was not used: step R waits for a review (${review.id}).`,
      `The review given for "A" was not used: step A waits for an approval (${approval.id}).`,
      `The done or failed given for "A" was not used: step A waits for an approval (${approval.id}).`,
    ]);
  });
});
