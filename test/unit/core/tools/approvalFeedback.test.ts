import assert from 'node:assert/strict';
import { boundedFeedback, feedbackInstruction, feedbackMaxChars } from '../../../../src/core/tools/approvalFeedback';
import { ApprovalRejectedError, requireApproval } from '../../../../src/core/tools/approvals';
import { describeRetry } from '../../../../src/core/tools/retryNoteText';

describe('boundedFeedback: the reason of a Reject with feedback is bounded and made safe', () => {
  it('escapes terminal escape sequences, controls and direction overrides, keeps line breaks, trims', () => {
    assert.equal(boundedFeedback('  use \u001b[31mtabs\u001b[0m\u202e\nplease\u0007 '), 'use \\u001b[31mtabs\\u001b[0m\\u202e\nplease\\u0007');
  });

  it('cuts a megabyte visibly to its cap; nothing but white space is no feedback', () => {
    const cut = boundedFeedback('x'.repeat(1_000_000)) ?? '';
    assert.ok(cut.length <= feedbackMaxChars, String(cut.length));
    assert.match(cut, /more characters cut\)$/);
    const escapes = boundedFeedback('\u001b'.repeat(1_000_000)) ?? '';
    assert.ok(escapes.length <= feedbackMaxChars && !escapes.includes('\u001b'), 'escaping never takes it past the cap');
    assert.equal(boundedFeedback(' \n\t '), undefined);
    assert.equal(boundedFeedback(undefined), undefined);
  });
});

describe('feedbackInstruction and ApprovalRejectedError: what the agent is told', () => {
  it('quotes the feedback as a JSON string and asks for a revised proposal', () => {
    assert.equal(
      feedbackInstruction('use "tabs"'),
      'The user rejected the change and said: "use \\"tabs\\"". Propose the change again, revised as they ask (a new call with the revised arguments).',
    );
  });

  it('the feedback is the rejection\'s reason; without it the reason stays', () => {
    const withFeedback = new ApprovalRejectedError('the change of a.txt', 'rejected in the approval dialog', 'use tabs');
    assert.equal(withFeedback.reason, 'use tabs');
    assert.equal(withFeedback.feedback, 'use tabs');
    assert.equal(withFeedback.message, 'The user rejected the change of a.txt: use tabs. Nothing was changed.');
    const plain = new ApprovalRejectedError('the change of a.txt', 'not now');
    assert.equal(plain.reason, 'not now');
    assert.equal(plain.feedback, undefined);
  });

  it('requireApproval bounds and escapes the feedback whatever the host passed', async () => {
    const ctx = { stepId: 'S1', interaction: { requestApproval: async () => ({ approved: false, feedback: `\u001b[31m${'x'.repeat(10_000)}` }) } };
    const request = { kind: 'directory' as const, stepId: 'S1', title: 't', path: 'd' };
    const error = await requireApproval(ctx as never, request, 'the folder d', new AbortController().signal).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    assert.ok(error instanceof ApprovalRejectedError);
    assert.ok((error.feedback ?? '').startsWith('\\u001b[31m') && (error.feedback ?? '').length <= feedbackMaxChars);
  });
});

describe('describeRetry: how a retry\'s question says so', () => {
  it('the last error is shown on one line, bounded, with controls escaped', () => {
    const text = describeRetry({ attempt: 2, of: 3, lastError: `\u001b[2Jboom\n${'z'.repeat(5000)}` });
    assert.ok(!text.includes('\u001b') && !text.includes('\n') && text.length < 700, text.slice(0, 60));
    assert.match(text, /^Attempt 2 of 3\. Attempt 1 failed: \\u001b\[2Jboom z/);
    assert.equal(describeRetry(undefined), '');
    assert.equal(describeRetry({ attempt: 2, of: 2 }), 'Attempt 2 of 2.');
  });
});
