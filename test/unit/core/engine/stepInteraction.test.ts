import assert from 'node:assert/strict';
import type { RunEventBody, SuppliedAnswers } from '../../../../src/core/engine/runEvents';
import { createStepInteraction, describeApproval } from '../../../../src/core/engine/stepInteraction';
import type { ApprovalRequest } from '../../../../src/core/interactionPorts';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';

const command: ApprovalRequest = { kind: 'command', stepId: 'S1', title: 'Build', argv: ['npm', 'run', 'build'], cwd: 'app', shell: false };
const file = (operation: 'write' | 'edit' | 'delete'): ApprovalRequest => ({
  kind: 'file', stepId: 'S1', title: 'Change', operation, proposal: { path: 'src/a.ts', currentText: 'a', proposedText: 'b', diff: '' },
});
const none: SuppliedAnswers = {};

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

  it("marks a model's step's approvals as hearing feedback, outside their fingerprint, and nothing else it asks", async () => {
    const base = new ScriptedInteraction({ approvals: [{ approved: true }], clarifications: ['blue'] });
    const events: RunEventBody[] = [];
    const signal = new AbortController().signal;
    const heard = createStepInteraction('S1', base, () => none, (body) => events.push(body), signal, undefined, true);
    await heard.requestApproval(command, signal);
    await heard.askClarification({ stepId: 'S1', title: 'Ask', question: 'Which colour?' }, signal);
    assert.equal(base.approvals()[0]?.feedbackHeard, true);
    assert.equal('feedbackHeard' in (base.clarifications()[0] ?? {}), false, 'a clarification has no feedback to hear');
    const plain = interactionFor(new ScriptedInteraction({ approvals: [{ approved: true }] }));
    await plain.interaction.requestApproval(command, signal);
    const fingerprints = [events, plain.events].map((list) => list.find((event) => event.type === 'approval_requested'));
    assert.equal(
      fingerprints[0]?.type === 'approval_requested' ? fingerprints[0].request.fingerprint : 'none',
      fingerprints[1]?.type === 'approval_requested' ? fingerprints[1].request.fingerprint : 'other',
    );
  });

  it('answers a request from the answer bound to it at resume, and asks the user about anything else', async () => {
    // What the user saw the first time: the journaled request, with its id and fingerprint.
    const first = interactionFor(new ScriptedInteraction({ approvals: ['defer'] }));
    await first.interaction.requestApproval(command, new AbortController().signal);
    const pending = first.events.flatMap((event) => (event.type === 'approval_requested' ? [event.request] : []))[0]!;
    const supplied: SuppliedAnswers = { [pending.id]: { kind: 'approval', stepId: 'S1', fingerprint: pending.fingerprint, decision: { approved: true } } };
    const base = new ScriptedInteraction({ approvals: [{ approved: false }] });
    const { interaction, events } = interactionFor(base, supplied);
    const signal = new AbortController().signal;
    assert.deepEqual(await interaction.requestApproval(command, signal), { approved: true });
    assert.equal(base.requests.length, 0);
    assert.deepEqual(events.at(-1), { type: 'request_answered', stepId: 'S1', kind: 'approval', requestId: pending.id, given: true });
    // Another command is another request: the bound answer does not apply to it.
    assert.deepEqual(await interaction.requestApproval({ ...command, argv: ['rm', '-rf', 'build'] }, signal), { approved: false });
    assert.equal(base.requests.length, 1);
  });

  it('attack: an answer bound at resume to a command given one input does not answer it given another, nor with another helper', async () => {
    const fed: ApprovalRequest = { ...command, argv: ['sh'], stdin: 'wc -l README.md\n' };
    const first = interactionFor(new ScriptedInteraction({ approvals: ['defer'] }));
    await first.interaction.requestApproval(fed, new AbortController().signal);
    const pending = first.events.flatMap((event) => (event.type === 'approval_requested' ? [event.request] : []))[0]!;
    const supplied: SuppliedAnswers = { [pending.id]: { kind: 'approval', stepId: 'S1', fingerprint: pending.fingerprint, decision: { approved: true } } };
    const base = new ScriptedInteraction({ approvals: [{ approved: false }, { approved: false }, { approved: false }] });
    const { interaction } = interactionFor(base, supplied);
    const signal = new AbortController().signal;
    assert.deepEqual(await interaction.requestApproval({ ...fed, stdin: 'touch /tmp/STDIN_PWN; wc -l README.md\n' }, signal), { approved: false });
    assert.deepEqual(await interaction.requestApproval({ ...command, argv: ['sh'] }, signal), { approved: false });
    const helper = { name: 'git-lfs', path: '/ws/node_modules/.bin/git-lfs', shown: 'node_modules/.bin/git-lfs', from: 'nodeModules' } as const;
    assert.deepEqual(await interaction.requestApproval({ ...fed, helper }, signal), { approved: false });
    assert.equal(base.requests.length, 3, 'each went to the user');
    assert.deepEqual(await interaction.requestApproval(fed, signal), { approved: true });
  });

  it('refuses an approval the user refused again, without asking, when the step repeats it', async () => {
    const base = new ScriptedInteraction({ approvals: [{ approved: false, reason: 'no' }] });
    const { interaction } = interactionFor(base);
    const signal = new AbortController().signal;
    assert.deepEqual(await interaction.requestApproval(command, signal), { approved: false, reason: 'no' });
    assert.deepEqual(await interaction.requestApproval(command, signal), { approved: false, reason: 'no' });
    assert.equal(base.requests.length, 1);
  });

  it('remembers only refused approvals: a repeated question, review or deferred approval is asked again', async () => {
    const base = new ScriptedInteraction({ approvals: ['defer', { approved: true }], clarifications: ['blue', 'red'], reviews: [{ approved: false }, { approved: true }] });
    const { interaction } = interactionFor(base);
    const signal = new AbortController().signal;
    const question = { stepId: 'S1', title: 'Ask', question: 'Which?' };
    const review = { stepId: 'S1', title: 'Review', prompt: 'OK?' };
    assert.deepEqual([await interaction.requestApproval(command, signal), await interaction.requestApproval(command, signal)], ['defer', { approved: true }]);
    assert.deepEqual([await interaction.askClarification(question, signal), await interaction.askClarification(question, signal)], ['blue', 'red']);
    assert.deepEqual([await interaction.requestReview(review, signal), await interaction.requestReview(review, signal)], [{ approved: false }, { approved: true }]);
    assert.equal(base.requests.length, 6);
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
    // Words joined by spaces read as another command (a newcomer's trial): each is quoted as the question quotes it.
    assert.equal(describeApproval({ ...command, argv: ['sh', '-c', 'echo ran >> ran.log; sleep 30'] }), 'Run `sh -c "echo ran >> ran.log; sleep 30"` in app?');
    assert.equal(describeApproval({ ...command, argv: ['echo', 'a\u001b[2Jb'] }), 'Run `echo "a\\u001b[2Jb"` in app?');
    assert.equal(describeApproval({ kind: 'directory', stepId: 'S1', title: 'Make', path: 'out/logs' }), 'Create the directory out/logs?');
    assert.deepEqual((['write', 'edit', 'delete'] as const).map((operation) => describeApproval(file(operation))), ['Write src/a.ts?', 'Edit src/a.ts?', 'Delete src/a.ts?']);
  });

  it('names the files this run changed that decide what a command runs (issue 27, G7)', () => {
    assert.equal(
      describeApproval({ ...command, changedInRun: [{ path: 'app/package.json', stepIds: ['S0'] }] }),
      'Run `npm run build` in app (this run changed app/package.json (by step S0), which it reads to decide what it runs)?',
    );
  });
});
