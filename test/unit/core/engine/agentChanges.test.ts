import assert from 'node:assert/strict';
import { ChangeLog, maxListedChanges } from '../../../../src/core/agent/changeLog';
import { changesText } from '../../../../src/core/text/agentChanges';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { RunOptions } from '../../../../src/core/engine/runOptions';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import type { LlmChatRequest, LlmToolCall } from '../../../../src/core/llm/llmTypes';
import type { Plan } from '../../../../src/core/plan/planSchema';
import { expandTemplates } from '../../../../src/core/plan/expandTemplates';
import { valueText } from '../../../../src/core/text/valueText';
import { previewValue } from '../../../../src/core/view/stepStatusView';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { deleteFileTool } from '../../../../src/core/tools/deleteFileTool';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import type { Tool } from '../../../../src/core/tools/tool';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction, type InteractionScript } from '../../../fakes/scriptedInteraction';
import { scriptedLlm, type ScriptedReply } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

const tools = createToolRegistry([readFileTool, writeFileTool, deleteFileTool] as Tool[]);
const call = (name: string, args: Record<string, unknown>, id = name): { toolCalls: LlmToolCall[] } => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });
const write = (path: string, content = 'text'): { toolCalls: LlmToolCall[] } => call('write_file', { path, content }, `w-${path}`);
const userText = (request: LlmChatRequest | undefined): string =>
  (request?.messages ?? []).filter((message) => message.role === 'user').map((message) => String(message.content)).join('\n');

async function run(plan: Plan, replies: ScriptedReply[], script: InteractionScript, options: Partial<RunOptions> = {}) {
  const llm = scriptedLlm(replies);
  const workspace = createMemoryWorkspace({ 'keep.txt': 'kept' });
  const interaction = new ScriptedInteraction(script);
  const events: RunEvent[] = [];
  const handle = runPlan(plan, { idSource: () => 'run-1', llm, tools, workspace, interaction, clock: new ManualClock(0, { autoAdvance: true }), agentLimits: { timeoutMs: Infinity }, retryBaseDelayMs: 0, ...options });
  handle.events.subscribe((event) => events.push(event));
  return { result: await handle.result, events, llm, workspace, interaction };
}

describe('agent results tell what happened: { answer, changes }', () => {
  it('lists the changes applied, rejected (with the user\'s reason) and failed (with the error); reads are not changes', async () => {
    const replies = [call('read_file', { path: 'keep.txt' }), write('a.txt'), write('b.txt'), call('write_file', { path: 'c.txt' }), 'Wrote a.txt.'];
    const { result, workspace } = await run(makePlan([makeStep('S1', { input: 'Write the files' })]), replies, { approvals: [{ approved: true }, { approved: false, reason: 'not now' }] });
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.equal(workspace.snapshot()['a.txt'], 'text');
    const changes = result.steps['S1']?.changes;
    assert.deepEqual(changes?.applied, [{ operation: 'write_file', path: 'a.txt' }]);
    assert.deepEqual(changes?.rejected, [{ operation: 'write_file', path: 'b.txt', reason: 'not now' }]);
    assert.equal(changes?.failed.length, 1);
    assert.equal(changes?.failed[0]?.path, 'c.txt');
    assert.match(changes?.failed[0]?.reason ?? '', /^The arguments do not match the tool's schema/);
    assert.deepEqual(result.results['S1'], { answer: 'Wrote a.txt.', changes });
  });

  it('a write that found the file as asked is not listed as applied: nothing changed (a trial read "applied: write file src/notes.js" on a step limited to README.md)', async () => {
    const replies = [call('write_file', { path: 'keep.txt', content: 'kept' }), write('a.txt'), 'Wrote a.txt.'];
    const { result, interaction } = await run(makePlan([makeStep('S1', { input: 'Write a.txt' })]), replies, { approvals: [{ approved: true }] });
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.deepEqual(result.steps['S1']?.changes?.applied, [{ operation: 'write_file', path: 'a.txt' }]);
    assert.equal(interaction.approvals().length, 1, 'only the change asked');
  });

  it('shows an agent result as text in templates, previews and predicates, never "[object Object]"', async () => {
    const plan = makePlan([
      makeStep('S1', { input: 'Write a.txt', verification: 'result.changes.applied.length === 1 && result.answer.startsWith("Wrote")' }),
      makeStep('S2', { dependsOn: ['S1'], input: 'Report on: {{results.S1}}' }),
    ]);
    const { result, llm } = await run(plan, [write('a.txt'), 'Wrote a.txt.', 'Reported.'], { approvals: [{ approved: true }] });
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.ok(userText(llm.requests[2]).includes('Report on: Wrote a.txt.\n\nChanges:\napplied: write_file a.txt'), userText(llm.requests[2]));
    const value = result.results['S1'];
    assert.equal(valueText(value), 'Wrote a.txt.\n\nChanges:\napplied: write_file a.txt');
    assert.equal(previewValue(value), 'Wrote a.txt.\n\nChanges:\napplied: write_file a.txt');
    assert.equal(expandTemplates('{{results.S1.answer}}', result.results), 'Wrote a.txt.');
    assert.equal(valueText({ answer: 'No files touched.', changes: { applied: [], rejected: [], failed: [] } }), 'No files touched.');
  });

  it('a step whose every change the user rejected is skipped "Rejected by you", never retried, and its dependents skipped', async () => {
    const plan = makePlan([
      makeStep('S1', { input: 'Write a.txt and b.txt', onFailure: 'retry', onVerificationFailure: 'retry', maxAttempts: 3, critical: false }),
      makeStep('S2', { dependsOn: ['S1'] }),
      makeStep('S3'),
    ]);
    const replies = [write('a.txt'), write('b.txt'), 'I wrote both files.', 'Independent work done.'];
    const { result, events, llm, workspace } = await run(plan, replies, { approvals: [{ approved: false, reason: 'wrong folder' }, { approved: false }] }, { maxConcurrency: 1 });
    const reason = 'Rejected by you: every change of the step was rejected (write_file a.txt (wrong folder); write_file b.txt)';
    assert.equal(result.steps['S1']?.status, 'skipped');
    assert.equal(result.steps['S1']?.reason, reason);
    assert.equal(result.steps['S1']?.attempts, 1, 'not retried');
    assert.equal(events.filter((event) => event.type === 'verification_failed').length, 0);
    assert.equal(result.steps['S2']?.status, 'skipped');
    assert.equal(result.steps['S3']?.status, 'completed');
    assert.equal(llm.requests.length, 4);
    assert.equal(workspace.snapshot()['a.txt'], undefined);
  });

  it('a critical step whose every change was rejected is skipped like a rejected approval: the independent step still runs', async () => {
    const { result } = await run(makePlan([makeStep('S1'), makeStep('S2')], {}), [write('a.txt'), 'Done anyway.'], { approvals: [{ approved: false, reason: 'no' }] }, { maxConcurrency: 1 });
    assert.equal(result.steps['S1']?.status, 'skipped');
    assert.match(result.steps['S1']?.reason ?? '', /^Rejected by you: every change of the step was rejected \(write_file a\.txt \(no\)\)/);
    assert.equal(result.steps['S2']?.status, 'completed');
    assert.equal(result.status, 'partial');
    assert.equal(result.metadata.reason, 'Step S1 was rejected by you.');
  });

  it('a step whose changes all failed is not completed on its word: verification fails listing them, and the retry gets the list', async () => {
    const plan = makePlan([makeStep('S1', { input: 'Write a.txt', onVerificationFailure: 'retry', maxAttempts: 2 })]);
    const replies = [call('write_file', { path: 'a.txt' }), 'I wrote a.txt.', write('a.txt'), 'Wrote a.txt for real.'];
    const { result, events, llm } = await run(plan, replies, { approvals: [{ approved: true }] });
    assert.equal(result.status, 'completed', result.metadata.reason);
    const [diagnosis] = events.flatMap((event) => (event.type === 'verification_failed' ? [event.diagnosis] : []));
    assert.match(diagnosis ?? '', /^None of the step's file changes happened, so the step is not done\.\nfailed: write_file a\.txt \(The arguments do not match the tool's schema/);
    assert.match(diagnosis ?? '', /do not ask again for a change the user rejected\.$/);
    assert.ok(userText(llm.requests[2]).includes(`Your previous attempt failed verification: ${diagnosis ?? ''}`));
    assert.deepEqual((result.results['S1'] as { changes: unknown }).changes, { applied: [{ operation: 'write_file', path: 'a.txt' }], rejected: [], failed: [] });
  });

  it('rejected and failed with nothing applied is a verification failure (something failed that a retry may fix)', async () => {
    const { result, events } = await run(makePlan([makeStep('S1')]), [write('a.txt'), call('delete_file', {}), 'Done.'], { approvals: [{ approved: false, reason: 'no' }] });
    assert.equal(result.steps['S1']?.status, 'failed');
    const [diagnosis] = events.flatMap((event) => (event.type === 'verification_failed' ? [event.diagnosis] : []));
    assert.match(diagnosis ?? '', /\nrejected: write_file a\.txt \(no\)\nfailed: delete_file \(/);
  });
});

describe('ChangeLog', () => {
  it('keeps at most maxListedChanges per list and counts the rest; caps paths and reasons; paths only from JSON arguments', () => {
    const log = new ChangeLog();
    for (let index = 0; index < maxListedChanges + 3; index++) log.record('write_file', JSON.stringify({ path: `f${index}` }), 'failed', 'disk full');
    log.record('write_file', JSON.stringify({ path: 'p'.repeat(1_000) }), 'applied', 'ignored for applied');
    log.record('delete_file', 'not json', 'rejected', 'r'.repeat(2_000));
    log.record('delete_file', JSON.stringify({ path: 7 }), 'rejected');
    const changes = log.changes();
    assert.equal(changes.failed.length, maxListedChanges);
    assert.equal(changes.omitted, 3);
    assert.equal(changes.applied[0]?.reason, undefined);
    assert.ok((changes.applied[0]?.path ?? '').length <= 300);
    assert.deepEqual(Object.keys(changes.rejected[0] ?? {}), ['operation', 'reason']);
    assert.ok((changes.rejected[0]?.reason ?? '').length <= 500);
    assert.deepEqual(changes.rejected[1], { operation: 'delete_file' });
    assert.match(changesText(changes), /\(3 more changes not listed\)$/);
  });

  it('says nothing for no changes', () => {
    assert.equal(changesText(new ChangeLog().changes()), '');
    assert.deepEqual(new ChangeLog().changes(), { applied: [], rejected: [], failed: [] });
  });
});
