import assert from 'node:assert/strict';
import { ApprovalRejectedError, isApprovalRejectedError, needsApproval, requireApproval, requireToolCallApproval } from '../../../../src/core/tools/approvals';
import { StepFailure } from '../../../../src/core/tools/stepFailure';
import { isDeferredError } from '../../../../src/core/tools/deferral';
import type { ApprovalPolicy, ToolEffect } from '../../../../src/core/tools/tool';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

describe('approvals', () => {
  it('decides from the effect and the policy alone', () => {
    const table: Record<ApprovalPolicy, Record<ToolEffect, boolean>> = {
      always: { read: false, interaction: false, write: true, delete: true, command: true, network: true, external: true },
      writesAndCommands: { read: false, interaction: false, write: true, delete: true, command: true, network: false, external: true },
      commandsOnly: { read: false, interaction: false, write: false, delete: false, command: true, network: false, external: true },
    };
    for (const [policy, row] of Object.entries(table) as [ApprovalPolicy, Record<ToolEffect, boolean>][]) {
      for (const [effect, expected] of Object.entries(row) as [ToolEffect, boolean][]) {
        assert.equal(needsApproval(effect, policy), expected, `${effect} under ${policy}`);
      }
    }
  });

  const request = { kind: 'command' as const, stepId: 'S1', title: 't', argv: ['ls'], cwd: '/w', shell: false };

  it('attack: refuses, without asking, a tool call whose arguments its question would show cut (the approval would cover the unseen rest)', async () => {
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
    const ctx = makeToolContext({ interaction });
    const call = (text: string) => ({ tool: 'notes__append', source: 'MCP server "notes"', input: { text } });
    // `{\n  "text": "…"\n}` is 16 characters besides the text.
    await assert.rejects(requireToolCallApproval(ctx, call('x'.repeat(4000 - 15)), 'the call', neverAborted), (error: unknown) => {
      assert.ok(error instanceof StepFailure && !error.retryable);
      assert.match(error.message, /^The arguments of this call are 4001 characters long as its question would show them; at most 4000 can be shown whole/);
      return true;
    });
    assert.equal(interaction.requests.length, 0);
    await requireToolCallApproval(ctx, call('x'.repeat(4000 - 16)), 'the call', neverAborted);
    assert.equal(interaction.approvals().length, 1);
  });

  it('returns on approval, throws ApprovalRejectedError with the reason on rejection', async () => {
    await requireApproval(makeToolContext({ interaction: new ScriptedInteraction({ approvals: [{ approved: true }] }) }), request, 'running ls', neverAborted);
    await assert.rejects(
      requireApproval(makeToolContext({ interaction: new ScriptedInteraction({ approvals: [{ approved: false, reason: 'not now' }] }) }), request, 'running ls', neverAborted),
      (error: unknown) => error instanceof ApprovalRejectedError && error.message === 'The user rejected running ls: not now. Nothing was changed.',
    );
  });

  it('throws the engine\'s DeferredError when nobody can answer now', async () => {
    await assert.rejects(
      requireApproval(makeToolContext({ interaction: new ScriptedInteraction({ approvals: ['defer'] }) }), request, 'running ls', neverAborted),
      (error: unknown) => isDeferredError(error) && error.kind === 'approval' && error.stepId === 'S1',
    );
  });
});

describe('isApprovalRejectedError', () => {
  it('knows a rejection, also one made by another copy of the module, and nothing else', () => {
    const copy = Object.assign(new Error('The user rejected running ls. Nothing was changed.'), { name: 'ApprovalRejectedError', what: 'running ls' });
    const named = Object.assign(new Error('x'), { name: 'ApprovalRejectedError' });
    assert.deepEqual(
      [new ApprovalRejectedError('running ls', undefined), copy, named, new Error('running ls'), { name: 'ApprovalRejectedError', what: 'x' }, undefined].map(isApprovalRejectedError),
      [true, true, false, false, false, false],
    );
  });
});
