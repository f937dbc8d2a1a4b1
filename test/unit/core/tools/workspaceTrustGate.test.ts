import assert from 'node:assert/strict';
import { StepFailure } from '../../../../src/core/tools/stepFailure';
import { runPlan } from '../../../../src/core/engine/runPlan';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import type { CommandRunner } from '../../../../src/core/commandPorts';
import type { Tool, ToolContext } from '../../../../src/core/tools/tool';
import { gateByWorkspaceTrust, restrictedModeReason } from '../../../../src/core/tools/workspaceTrustGate';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';
import { makePlan, makeStep } from '../../../support/randomPlans';

/** The built-in tools behind a gate whose trust the test sets, with the refusals it reported. */
function gated(trusted: { value: boolean }) {
  const refused: string[] = [];
  const tools = gateByWorkspaceTrust(builtinTools(), { isTrusted: () => trusted.value, onRefused: (refusal) => refused.push(`${refusal.stepId}:${refusal.tool}`) });
  const tool = (name: string): Tool => tools.find((candidate) => candidate.name === name)!;
  return { tools, tool, refused };
}

function recordingRunner(): CommandRunner & { ran: string[][] } {
  const ran: string[][] = [];
  return { ran, describeCwd: async () => '/memory-workspace', run: async (spec) => (ran.push(spec.argv), { exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 1 }) };
}

describe('gateByWorkspaceTrust', () => {
  it('in Restricted Mode refuses writes, deletes, directories and commands before they ask or act, with the reason, not retryable', async () => {
    const { tool, refused } = gated({ value: false });
    const workspace = createMemoryWorkspace({ 'keep.txt': 'kept\n' });
    const interaction = ScriptedInteraction.approvingAll();
    const runner = recordingRunner();
    const ctx: ToolContext = makeToolContext({ workspace, interaction, commandRunner: runner });
    const calls: [string, unknown][] = [
      ['write_file', { path: 'new.txt', content: 'x' }],
      ['edit_file', { path: 'keep.txt', edits: [{ search: 'kept', replace: 'changed' }] }],
      ['delete_file', { path: 'keep.txt' }],
      ['create_directory', { path: 'dir' }],
      ['run_command', { argv: ['touch', 'ran.txt'] }],
    ];
    for (const [name, input] of calls) {
      await assert.rejects(tool(name).run(ctx, input, neverAborted), (error: unknown) => {
        assert.ok(error instanceof StepFailure, `${name}: ${String(error)}`);
        assert.equal(error.retryable, false);
        assert.equal(error.message, `${name} was not run because ${restrictedModeReason}`);
        assert.match(error.message, /Restricted Mode.*Trust the workspace/);
        return true;
      });
    }
    assert.deepEqual(refused, calls.map(([name]) => `S1:${name}`));
    assert.deepEqual(interaction.requests, []);
    assert.deepEqual(runner.ran, []);
    assert.deepEqual((await workspace.list()).files, ['keep.txt']);
    assert.equal(await workspace.readText('keep.txt'), 'kept\n');
    assert.equal(await workspace.stat('dir'), undefined);
  });

  it('lets reads through in Restricted Mode and keeps every tool name, schema and effect', async () => {
    const { tools, tool, refused } = gated({ value: false });
    const ctx = makeToolContext({ workspace: createMemoryWorkspace({ 'a.txt': 'alpha\n' }) });
    assert.match(JSON.stringify(await tool('read_file').run(ctx, { path: 'a.txt' }, neverAborted)), /alpha/);
    assert.match(JSON.stringify(await tool('list_files').run(ctx, {}, neverAborted)), /a\.txt/);
    assert.deepEqual(refused, []);
    const originals = builtinTools();
    assert.deepEqual(tools.map((t) => [t.name, t.effects, t.inputSchema === originals.find((o) => o.name === t.name)?.inputSchema]), originals.map((o) => [o.name, o.effects, true]));
  });

  it('reads trust at each call: trusting the workspace lets the same tools write, without re-creating them', async () => {
    const trusted = { value: false };
    const { tool, refused } = gated(trusted);
    const workspace = createMemoryWorkspace();
    const ctx = makeToolContext({ workspace, interaction: ScriptedInteraction.approvingAll() });
    await assert.rejects(tool('write_file').run(ctx, { path: 'n.txt', content: 'one\n' }, neverAborted), StepFailure);
    trusted.value = true;
    await tool('write_file').run(ctx, { path: 'n.txt', content: 'one\n' }, neverAborted);
    assert.equal(await workspace.readText('n.txt'), 'one\n');
    assert.equal(refused.length, 1);
  });

  it('in a run: the refused write fails once (no retries) and is skipped with the reason, reads complete', async () => {
    const { tools } = gated({ value: false });
    const workspace = createMemoryWorkspace({ 'README.md': '# demo\n' });
    const plan = makePlan([
      makeStep('R1', { kind: 'tool', tool: 'read_file', args: { path: 'README.md' } }),
      makeStep('W1', { kind: 'tool', tool: 'write_file', args: { path: 'out.txt', content: 'x' }, maxAttempts: 3, critical: false }),
      makeStep('L1', { kind: 'tool', tool: 'list_files', args: {}, dependsOn: ['R1'] }),
    ]);
    const result = await runPlan(plan, { tools, workspace, interaction: ScriptedInteraction.approvingAll(), clock: new ManualClock(0, { autoAdvance: true }), idSource: () => 'run-1' }).result;
    assert.equal(result.steps.R1?.status, 'completed');
    assert.equal(result.steps.L1?.status, 'completed');
    assert.equal(result.steps.W1?.status, 'skipped');
    assert.equal(result.steps.W1?.attempts, 1);
    assert.match(result.steps.W1?.error ?? '', /write_file was not run because this workspace is in Restricted Mode/);
    assert.equal(await workspace.stat('out.txt'), undefined);
  });
});
