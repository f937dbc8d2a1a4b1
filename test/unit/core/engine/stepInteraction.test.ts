import assert from 'node:assert/strict';
import type { RunEventBody, SuppliedAnswers } from '../../../../src/core/engine/runEvents';
import { createStepInteraction, describeApproval } from '../../../../src/core/engine/stepInteraction';
import type { ApprovalRequest } from '../../../../src/core/ports';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';

const command: ApprovalRequest = { kind: 'command', stepId: 'S1', title: 'Build', argv: ['npm', 'run', 'build'], cwd: 'app', shell: false };
const file = (operation: 'write' | 'edit' | 'delete'): ApprovalRequest => ({
  kind: 'file', stepId: 'S1', title: 'Change', operation, proposal: { path: 'src/a.ts', currentText: 'a', proposedText: 'b', diff: '' },
});
const none: SuppliedAnswers = { approvals: {}, answers: {}, reviews: {} };

/** A step interaction for S1 over `base`, with the events it journals. */
function interactionFor(base: ScriptedInteraction, supplied: SuppliedAnswers = none, signal = new AbortController().signal) {
  const events: RunEventBody[] = [];
  return { interaction: createStepInteraction('S1', base, () => supplied, (body) => events.push(body), signal), events };
}

describe('createStepInteraction', () => {
  it('journals each request and its answer, and passes the user\'s answer on', async () => {
    const base = new ScriptedInteraction({ approvals: [{ approved: false, reason: 'no' }], clarifications: ['blue'], reviews: [{ approved: true, notes: 'fine' }] });
    const { interaction, events } = interactionFor(base);
    const signal = new AbortController().signal;
    assert.deepEqual(await interaction.requestApproval(command, signal), { approved: false, reason: 'no' });
    assert.equal(await interaction.askClarification({ stepId: 'S1', title: 'Ask', question: 'Which colour?' }, signal), 'blue');
    assert.deepEqual(await interaction.requestReview({ stepId: 'S1', title: 'Review', prompt: 'OK?' }, signal), { approved: true, notes: 'fine' });
    assert.deepEqual(events.map((event) => [event.type, 'kind' in event ? event.kind : undefined, 'request' in event ? event.request.prompt : undefined]), [
      ['approval_requested', undefined, 'Run `npm run build` in app?'],
      ['request_answered', 'approval', undefined],
      ['clarification_requested', undefined, 'Which colour?'],
      ['request_answered', 'clarification', undefined],
      ['review_requested', undefined, 'OK?'],
      ['request_answered', 'review', undefined],
    ]);
    assert.equal(interaction.deferredKind, undefined);
  });

  it('answers the first request of each kind from the answers given to resume, then asks the user', async () => {
    const base = new ScriptedInteraction({ approvals: [{ approved: true }], clarifications: ['from the user'], reviews: [{ approved: false }] });
    const supplied: SuppliedAnswers = { approvals: { S1: false }, answers: { S1: 'given' }, reviews: { S1: { approved: true, notes: 'given' } } };
    const { interaction, events } = interactionFor(base, supplied);
    const signal = new AbortController().signal;
    const question = { stepId: 'S1', title: 'Ask', question: 'Which?' };
    const review = { stepId: 'S1', title: 'Review', prompt: 'OK?' };
    assert.deepEqual(await interaction.requestApproval(command, signal), { approved: false });
    assert.equal(await interaction.askClarification(question, signal), 'given');
    assert.deepEqual(await interaction.requestReview(review, signal), { approved: true, notes: 'given' });
    assert.equal(base.requests.length, 0);
    assert.deepEqual(await interaction.requestApproval(command, signal), { approved: true });
    assert.equal(await interaction.askClarification(question, signal), 'from the user');
    assert.deepEqual(await interaction.requestReview(review, signal), { approved: false });
    assert.deepEqual(base.requests.map((request) => request.kind), ['approval', 'clarification', 'review']);
    assert.equal(events.filter((event) => event.type === 'request_answered').length, 6);
  });

  it('asks the user when the answers given to resume are for another step', async () => {
    const base = new ScriptedInteraction({ approvals: [{ approved: true }] });
    const { interaction } = interactionFor(base, { approvals: { S2: false }, answers: {}, reviews: {} });
    assert.deepEqual(await interaction.requestApproval(command, new AbortController().signal), { approved: true });
    assert.equal(base.requests.length, 1);
  });

  it('remembers a deferred request and journals the step as deferred, not answered', async () => {
    const { interaction, events } = interactionFor(new ScriptedInteraction({ clarifications: ['defer'] }));
    assert.equal(await interaction.askClarification({ stepId: 'S1', title: 'Ask', question: 'Which?' }, new AbortController().signal), 'defer');
    assert.equal(interaction.deferredKind, 'clarification');
    assert.deepEqual(events.map((event) => event.type), ['clarification_requested', 'step_deferred']);
  });

  it('journals nothing once the attempt is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const { interaction, events } = interactionFor(new ScriptedInteraction({ reviews: [{ approved: true }] }), none, controller.signal);
    await interaction.requestReview({ stepId: 'S1', title: 'Review', prompt: 'OK?' }, new AbortController().signal);
    assert.deepEqual(events, []);
  });
});

describe('describeApproval', () => {
  it('says what the approval allows in one line', () => {
    assert.equal(describeApproval(command), 'Run `npm run build` in app?');
    assert.equal(describeApproval({ ...command, cwd: '', shell: true, argv: ['ls | wc -l'] }), 'Run `ls | wc -l` in . (through a shell)?');
    assert.deepEqual((['write', 'edit', 'delete'] as const).map((operation) => describeApproval(file(operation))), ['Write src/a.ts?', 'Edit src/a.ts?', 'Delete src/a.ts?']);
  });
});
