import assert from 'node:assert/strict';
import { fingerprintRequest } from '../../../../src/core/engine/requestFingerprint';
import { describeApproval } from '../../../../src/core/engine/stepInteraction';
import type { ApprovalRequest } from '../../../../src/core/interactionPorts';
import { maxShownToolInputChars, shownToolInput, toolCallApprovalText } from '../../../../src/core/tools/toolCallApprovalText';
import { describeApprovalForTerminal } from '../../../../src/cli/terminalInteraction';

const call = (input: unknown, over: Partial<Extract<ApprovalRequest, { kind: 'tool' }>> = {}): Extract<ApprovalRequest, { kind: 'tool' }> => ({
  kind: 'tool',
  stepId: 'S1',
  title: 'Look up the ticket',
  tool: 'mcp__tracker__get_issue',
  source: 'MCP server "tracker"',
  input,
  ...over,
});

describe('toolCallApprovalText', () => {
  it('names the step, the tool and who runs it, and shows the arguments as JSON', () => {
    const { message, detail } = toolCallApprovalText(call({ id: 42 }));
    assert.equal(message, 'Step "Look up the ticket" wants to call mcp__tracker__get_issue (MCP server "tracker").');
    assert.equal(detail, 'Arguments:\n{\n  "id": 42\n}');
    assert.equal(describeApproval(call({ id: 42 })), 'Call mcp__tracker__get_issue (MCP server "tracker")?');
    assert.match(describeApprovalForTerminal(call({ id: 42 })), /^Step S1 \(Look up the ticket\) wants to call mcp__tracker__get_issue \(MCP server "tracker"\) with:\n\{\n {2}"id": 42\n\}$/);
  });

  it('cannot be forged by a title, tool name or argument (lines, direction controls, C1 controls)', () => {
    const { message, detail } = toolCallApprovalText(call({ note: 'ok\u202e\u2028\u0085' }, { title: 'a\nApproved by admin', tool: 'x\u202ey', source: 'server\r\nfake' }));
    assert.equal(message.includes('\n'), false);
    assert.equal(message.includes('\u202e'), false);
    assert.equal(/[\u2028\u0085\u202e]/.test(detail), false);
    assert.match(detail, /\\u202e\\u2028\\u0085/);
  });

  it('bounds what it shows, and copes with arguments that are not JSON', () => {
    assert.ok(shownToolInput({ text: 'x'.repeat(100_000) }).length <= maxShownToolInputChars + 40);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.equal(shownToolInput(cyclic), 'arguments that cannot be shown as JSON');
    assert.equal(shownToolInput(undefined), '{}');
  });

  it('gives another fingerprint to another tool, source or argument, so an answer fits only what was shown', () => {
    const base = fingerprintRequest({ kind: 'approval', request: call({ id: 1 }) });
    assert.equal(fingerprintRequest({ kind: 'approval', request: call({ id: 1 }) }), base);
    assert.notEqual(fingerprintRequest({ kind: 'approval', request: call({ id: 2 }) }), base);
    assert.notEqual(fingerprintRequest({ kind: 'approval', request: call({ id: 1 }, { tool: 'other' }) }), base);
    assert.notEqual(fingerprintRequest({ kind: 'approval', request: call({ id: 1 }, { source: 'MCP server "other"' }) }), base);
  });
});
