import assert from 'node:assert/strict';
import { appendTail, outputTailLimit, parseWebviewMessage } from '../../../src/shared/panelProtocol';

describe('panel protocol: webview → host messages', () => {
  it('accepts every well-formed message type', () => {
    const messages: unknown[] = [
      { type: 'ready' },
      { type: 'ready', session: 's1', version: 4 },
      { type: 'edit', plan: { id: 'plan-1', version: 2 }, edit: { type: 'updateStep', stepId: 'S001', patch: { title: 'Read it', maxAttempts: 2 } } },
      { type: 'edit', plan: { id: 'plan-1', version: 2 }, edit: { type: 'moveStep', stepId: 'S001', toIndex: 2 } },
      { type: 'edit', plan: { id: 'plan-1', version: 2 }, edit: { type: 'skipStep', stepId: 'S001' } },
      { type: 'edit', plan: { id: 'plan-1', version: 2 }, edit: { type: 'unskipStep', stepId: 'S001' } },
      { type: 'edit', plan: { id: 'plan-1', version: 2 }, edit: { type: 'removeStep', stepId: 'S001' } },
      { type: 'edit', plan: { id: 'plan-1', version: 2 }, edit: { type: 'addStep', step: { id: 'S9', kind: 'agent', title: 'Summarise' }, index: 1 } },
      { type: 'edit', plan: { id: 'plan-1', version: 2 }, edit: { type: 'updateStep', stepId: 'S9', patch: { skills: ['release'] } } },
      { type: 'edit', plan: { id: 'plan-1', version: 2 }, edit: { type: 'setContextTags', tags: ['docs', 'testing'] } },
      { type: 'edit', plan: { id: 'plan-1', version: 2 }, edit: { type: 'setContextTags', tags: [] } },
      { type: 'edit', plan: { id: 'plan-1', version: 2 }, edit: { type: 'skipStep', stepId: 'S001' }, request: 3 },
      { type: 'regenerate', plan: { id: 'plan-1', version: 2 }, feedback: 'Fewer steps please' },
      { type: 'start', version: 4 },
      { type: 'restoreVersion', plan: { id: 'plan-1', version: 3 }, version: 1 },
      { type: 'viewVersion', plan: { id: 'plan-1', version: 3 }, version: 1 },
      { type: 'viewVersion', plan: { id: 'plan-1', version: 3 } },
      { type: 'cancelReview', plan: { id: 'plan-1', version: 2 } },
      { type: 'cancelRun', runId: 'run-1' },
      { type: 'openApproval', runId: 'run-1', stepId: 'S002' },
      { type: 'markManualStep', runId: 'run-1', stepId: 'S002', done: true },
      { type: 'markManualStep', runId: 'run-1', stepId: 'S002', done: false },
      { type: 'openFile', path: 'src/a.ts' },
      { type: 'undoRun', runId: 'run-1' },
      { type: 'resumeRun', runId: 'run-1' },
      { type: 'undoFromHere', runId: 'run-1', stepId: 'S002' },
      { type: 'runFromHere', runId: 'run-1', stepId: 'S002' },
      { type: 'savePlanFile' },
      { type: 'exportMarkdown' },
      { type: 'resyncOutput', runId: 'run-1', afterSeq: 3 },
      { type: 'rendered', version: 3, ms: 12.5 },
    ];
    for (const message of messages) {
      const parsed = parseWebviewMessage(message);
      assert.ok(parsed.ok, `${JSON.stringify(message)}: ${parsed.ok ? '' : parsed.error}`);
      assert.deepEqual(parsed.message, message);
    }
  });

  it('refuses unknown types, missing fields and extra fields with a readable reason', () => {
    const refused: [unknown, RegExp][] = [
      [{ type: 'launchMissiles' }, /type/],
      [null, /message/],
      ['start', /message/],
      [{ type: 'openApproval', runId: 'r' }, /stepId/],
      [{ type: 'markManualStep', runId: 'r', stepId: 'S002' }, /done/],
      [{ type: 'markManualStep', runId: 'r', stepId: 'S002', done: 'yes' }, /done/],
      [{ type: 'start', version: 4, extra: 1 }, /extra|Unrecognized/i],
      [{ type: 'start' }, /version/],
      [{ type: 'edit', plan: { id: 'p', version: 1 }, edit: { type: 'moveStep', stepId: 'S1', toIndex: -1 } }, /toIndex/],
      [{ type: 'edit', plan: { id: 'p', version: 1 }, edit: { type: 'updateStep', stepId: 'S1', patch: { id: 'other' } } }, /Unrecognized|id/i],
      [{ type: 'edit', plan: { id: 'p', version: 1 }, edit: { type: 'updateStep', stepId: 'S1', patch: { title: '   ' } } }, /title/],
      [{ type: 'edit', plan: { id: 'p', version: 1 }, edit: { type: 'updateStep', stepId: 'S1', patch: { maxAttempts: 1.5 } } }, /maxAttempts/],
      [{ type: 'edit', plan: { id: 'p', version: 1 }, edit: { type: 'updateStep', stepId: 'S1', patch: { kind: 'tool' } } }, /tool/],
      [{ type: 'edit', plan: { id: 'p', version: 1 }, edit: { type: 'addStep', step: { id: 'bad id', kind: 'agent', title: 'x' } } }, /step\.id/],
      [{ type: 'regenerate', plan: { id: 'p', version: 1 }, feedback: '  ' }, /feedback/],
      [{ type: 'edit', plan: { id: 'p', version: 1 }, edit: { type: 'setContextTags', tags: 'docs' } }, /tags/],
      [
        { type: 'edit', plan: { id: 'p', version: 1 }, edit: { type: 'setContextTags', tags: Array.from({ length: 33 }, (_, index) => `t${index}`) } },
        /tags: Name at most 32 topics/,
      ],
      [{ type: 'edit', plan: { id: 'p', version: 1 }, edit: { type: 'setContextTags', tags: ['x'.repeat(65)] } }, /Keep each topic name under 65 characters/],
      [{ type: 'resyncOutput', runId: 'r', afterSeq: -2 }, /afterSeq/],
      [{ type: 'undoFromHere', runId: 'r' }, /stepId/],
      [{ type: 'undoFromHere', runId: 'r', stepId: '' }, /stepId/],
      [{ type: 'undoFromHere', runId: 'r', stepId: 'x'.repeat(65) }, /stepId/],
      [{ type: 'undoFromHere', stepId: 'S1' }, /runId/],
      [{ type: 'runFromHere', runId: 'r' }, /stepId/],
      [{ type: 'runFromHere', runId: 'r', stepId: '' }, /stepId/],
      [{ type: 'runFromHere', runId: 'r', stepId: 'S1', plan: {} }, /plan|Unrecognized/i],
      // An action names what it was about (an older page's, or a forged one naming nothing, acts on nothing).
      [{ type: 'cancel' }, /type/],
      [{ type: 'cancelRun' }, /runId/],
      [{ type: 'cancelReview', runId: 'r' }, /plan|Unrecognized/i],
      [{ type: 'cancelReview', plan: { id: 'p' } }, /plan\.version/],
      [{ type: 'undoRun' }, /runId/],
      [{ type: 'resumeRun', runId: '' }, /runId/],
      [{ type: 'restoreVersion', version: 1 }, /plan/],
      [{ type: 'edit', edit: { type: 'skipStep', stepId: 'S1' } }, /plan/],
      [{ type: 'regenerate', feedback: 'Fewer steps' }, /plan/],
      [{ type: 'edit', plan: { id: 'p', version: 1 }, edit: { type: 'skipStep', stepId: 'S1' }, request: 0 }, /request/],
    ];
    for (const [message, reason] of refused) {
      const parsed = parseWebviewMessage(message);
      assert.equal(parsed.ok, false, JSON.stringify(message));
      assert.match(parsed.ok ? '' : parsed.error, reason, JSON.stringify(message));
    }
  });

  it('trims text fields of a patch', () => {
    const parsed = parseWebviewMessage({
      type: 'edit',
      plan: { id: 'p', version: 1 },
      edit: { type: 'updateStep', stepId: 'S1', patch: { title: '  Read  ' } },
    });
    assert.ok(parsed.ok && parsed.message.type === 'edit' && parsed.message.edit.type === 'updateStep');
    assert.equal(parsed.message.edit.patch.title, 'Read');
  });
});

describe('panel protocol: output tails', () => {
  it('keeps the last outputTailLimit characters', () => {
    assert.equal(appendTail('ab', 'cd'), 'abcd');
    const long = appendTail('x'.repeat(outputTailLimit), 'END');
    assert.equal(long.length, outputTailLimit);
    assert.ok(long.endsWith('END'));
  });
});
