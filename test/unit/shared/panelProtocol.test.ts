import assert from 'node:assert/strict';
import { appendTail, outputTailLimit, parseWebviewMessage } from '../../../src/shared/panelProtocol';

describe('panel protocol: webview → host messages', () => {
  it('accepts every well-formed message type', () => {
    const messages: unknown[] = [
      { type: 'ready' },
      { type: 'ready', session: 's1', version: 4 },
      { type: 'edit', edit: { type: 'updateStep', stepId: 'S001', patch: { title: 'Read it', maxAttempts: 2 } } },
      { type: 'edit', edit: { type: 'moveStep', stepId: 'S001', toIndex: 2 } },
      { type: 'edit', edit: { type: 'skipStep', stepId: 'S001' } },
      { type: 'edit', edit: { type: 'unskipStep', stepId: 'S001' } },
      { type: 'edit', edit: { type: 'removeStep', stepId: 'S001' } },
      { type: 'edit', edit: { type: 'addStep', step: { id: 'S9', kind: 'agent', title: 'Summarise' }, index: 1 } },
      { type: 'edit', edit: { type: 'updateStep', stepId: 'S9', patch: { skills: ['release'] } } },
      { type: 'edit', edit: { type: 'setContextTags', tags: ['docs', 'testing'] } },
      { type: 'edit', edit: { type: 'setContextTags', tags: [] } },
      { type: 'regenerate', feedback: 'Fewer steps please' },
      { type: 'start', version: 4 },
      { type: 'cancel' },
      { type: 'openApproval', stepId: 'S002' },
      { type: 'markManualStep', stepId: 'S002', done: true },
      { type: 'markManualStep', stepId: 'S002', done: false },
      { type: 'openFile', path: 'src/a.ts' },
      { type: 'undoRun' },
      { type: 'resumeRun' },
      { type: 'undoFromHere', stepId: 'S002' },
      { type: 'runFromHere', stepId: 'S002' },
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
      [{ type: 'openApproval' }, /stepId/],
      [{ type: 'markManualStep', stepId: 'S002' }, /done/],
      [{ type: 'markManualStep', stepId: 'S002', done: 'yes' }, /done/],
      [{ type: 'start', version: 4, extra: 1 }, /extra|Unrecognized/i],
      [{ type: 'start' }, /version/],
      [{ type: 'edit', edit: { type: 'moveStep', stepId: 'S1', toIndex: -1 } }, /toIndex/],
      [{ type: 'edit', edit: { type: 'updateStep', stepId: 'S1', patch: { id: 'other' } } }, /Unrecognized|id/i],
      [{ type: 'edit', edit: { type: 'updateStep', stepId: 'S1', patch: { title: '   ' } } }, /title/],
      [{ type: 'edit', edit: { type: 'updateStep', stepId: 'S1', patch: { maxAttempts: 1.5 } } }, /maxAttempts/],
      [{ type: 'edit', edit: { type: 'updateStep', stepId: 'S1', patch: { kind: 'tool' } } }, /tool/],
      [{ type: 'edit', edit: { type: 'addStep', step: { id: 'bad id', kind: 'agent', title: 'x' } } }, /step\.id/],
      [{ type: 'regenerate', feedback: '  ' }, /feedback/],
      [{ type: 'edit', edit: { type: 'setContextTags', tags: 'docs' } }, /tags/],
      [{ type: 'edit', edit: { type: 'setContextTags', tags: Array.from({ length: 33 }, (_, index) => `t${index}`) } }, /tags: Name at most 32 topics/],
      [{ type: 'edit', edit: { type: 'setContextTags', tags: ['x'.repeat(65)] } }, /Keep each topic name under 65 characters/],
      [{ type: 'resyncOutput', runId: 'r', afterSeq: -2 }, /afterSeq/],
      [{ type: 'undoFromHere' }, /stepId/],
      [{ type: 'undoFromHere', stepId: '' }, /stepId/],
      [{ type: 'undoFromHere', stepId: 'x'.repeat(65) }, /stepId/],
      [{ type: 'undoFromHere', stepId: 'S1', runId: 'another run' }, /runId|Unrecognized/i],
      [{ type: 'runFromHere' }, /stepId/],
      [{ type: 'runFromHere', stepId: '' }, /stepId/],
      [{ type: 'runFromHere', stepId: 'S1', plan: {} }, /plan|Unrecognized/i],
    ];
    for (const [message, reason] of refused) {
      const parsed = parseWebviewMessage(message);
      assert.equal(parsed.ok, false, JSON.stringify(message));
      assert.match(parsed.ok ? '' : parsed.error, reason, JSON.stringify(message));
    }
  });

  it('trims text fields of a patch', () => {
    const parsed = parseWebviewMessage({ type: 'edit', edit: { type: 'updateStep', stepId: 'S1', patch: { title: '  Read  ' } } });
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
