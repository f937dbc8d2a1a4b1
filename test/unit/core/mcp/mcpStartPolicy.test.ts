import assert from 'node:assert/strict';
import { parseMcpConfig } from '../../../../src/core/mcp/mcpConfig';
import { mcpRestrictedModeReason, mcpStartDecision } from '../../../../src/core/mcp/mcpStartPolicy';

const mine = parseMcpConfig({ servers: { s: { command: 'x' } } }, { label: 'settings', origin: 'user' }).servers[0]!;
const theirs = parseMcpConfig({ servers: { s: { command: 'x' } } }, { label: '.vscode/mcp.json', origin: 'workspace' }).servers[0]!;

describe('mcpStartDecision', () => {
  it("refuses a workspace's server in Restricted Mode, even one allowed before", () => {
    assert.deepEqual(mcpStartDecision(theirs, { trusted: false, allowedBefore: true }), { refused: mcpRestrictedModeReason });
    assert.match(mcpRestrictedModeReason, /Restricted Mode \(not trusted\).*Trust the workspace/);
  });

  it("asks before a trusted workspace's server starts the first time, then starts it", () => {
    assert.equal(mcpStartDecision(theirs, { trusted: true, allowedBefore: false }), 'ask');
    assert.equal(mcpStartDecision(theirs, { trusted: true, allowedBefore: true }), 'start');
  });

  it("starts the user's own servers without asking", () => {
    assert.equal(mcpStartDecision(mine, { trusted: false, allowedBefore: false }), 'start');
  });
});
