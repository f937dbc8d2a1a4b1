import assert from 'node:assert/strict';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { StepRunner } from '../../../../src/core/engine/runOptions';
import { stepWriteScope } from '../../../../src/core/engine/stepWriteScope';
import type { Step } from '../../../../src/core/plan/planSchema';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makePlan, makeStep } from '../../../support/randomPlans';

const tools = createToolRegistry(builtinTools());

/** A step runner that takes a few turns per step and records the most steps it ran at once, and which ran together. */
function overlapping(): { runner: StepRunner; most: () => number; together: Set<string> } {
  const running = new Set<string>();
  const together = new Set<string>();
  let most = 0;
  const runner: StepRunner = async (step) => {
    running.add(step.id);
    for (const other of running) if (other !== step.id) together.add([step.id, other].sort().join('+'));
    most = Math.max(most, running.size);
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    running.delete(step.id);
    return step.id;
  };
  return { runner, most: () => most, together };
}

const agent = (id: string, writes?: string[]): Step => makeStep(id, { critical: false, ...(writes ? { writes } : {}) });

describe('scheduling by write scopes (issue 26)', () => {
  it('classifies steps: file tools by their path, reads and questions as nothing, commands and writing agents without writes as everything', () => {
    const plan = makePlan([]);
    const tool = (name: string, args: Record<string, unknown>, writes?: string[]): Step => makeStep('T', { kind: 'tool', tool: name, args, ...(writes ? { writes } : {}) });
    assert.deepEqual(stepWriteScope(tool('edit_file', { path: 'a.txt' }), plan, tools), { kind: 'patterns', patterns: ['a.txt'] });
    assert.deepEqual(stepWriteScope(tool('edit_file', { path: '{{results.S1}}' }), plan, tools), { kind: 'everything' });
    assert.deepEqual(stepWriteScope(tool('read_file', { path: 'a.txt' }), plan, tools), { kind: 'nothing' });
    assert.deepEqual(stepWriteScope(tool('run_command', { argv: ['make'] }), plan, tools), { kind: 'everything' });
    assert.deepEqual(stepWriteScope(tool('run_command', { argv: ['make'] }, ['build']), plan, tools), { kind: 'patterns', patterns: ['build'] });
    assert.deepEqual(stepWriteScope(makeStep('A'), plan, tools), { kind: 'everything' }, 'the default agent has every tool, writing ones too');
    assert.deepEqual(stepWriteScope(makeStep('A', { agent: 'direct' }), plan, tools), { kind: 'nothing' });
    const readers = makePlan([], { agents: { reader: { prompt: 'read', tools: ['read_file', 'search_text'] } } });
    assert.deepEqual(stepWriteScope(makeStep('A', { agent: 'reader' }), readers, tools), { kind: 'nothing' });
    assert.deepEqual(stepWriteScope(makeStep('Q', { kind: 'clarification' }), plan, tools), { kind: 'nothing' });
  });

  it('steps that may change the same files never run at once; disjoint ones and non-writers run side by side', async () => {
    const { runner, most, together } = overlapping();
    const plan = makePlan([agent('A', ['src/**']), agent('B', ['src/parser.ts']), agent('C', ['docs/**']), makeStep('R', { agent: 'direct', critical: false })]);
    const result = await runPlan(plan, { clock: new ManualClock(0, { autoAdvance: true }), tools: builtinTools(), stepRunner: runner, maxConcurrency: 4 }).result;
    assert.equal(result.status, 'completed');
    assert.ok(!together.has('A+B'), 'src/** and src/parser.ts overlap');
    assert.ok(together.has('A+C') || together.has('B+C'), 'docs/** ran beside a src step');
    assert.ok(most() >= 2);
  });

  it('a step that may change files without saying which runs alone among the writers', async () => {
    const { runner, together } = overlapping();
    const plan = makePlan([agent('A'), agent('B', ['b.txt']), makeStep('R', { agent: 'direct', critical: false })]);
    const result = await runPlan(plan, { clock: new ManualClock(0, { autoAdvance: true }), tools: builtinTools(), stepRunner: runner, maxConcurrency: 4 }).result;
    assert.equal(result.status, 'completed');
    assert.ok(!together.has('A+B'));
    assert.ok(together.has('A+R') || together.has('B+R'), 'a step that changes nothing runs beside a writer');
  });

  it('a change outside the files a step declared asks, even under the commandsOnly policy (drift guard)', async () => {
    const workspace = createMemoryWorkspace({ 'docs/a.md': 'a', 'src/b.ts': 'b' });
    const interaction = new ScriptedInteraction({ approvals: [{ approved: false, reason: 'not that file' }] });
    const inside = makeStep('IN', { kind: 'tool', agent: undefined, input: undefined, critical: false, tool: 'edit_file', writes: ['docs/**'], args: { path: 'docs/a.md', edits: [{ search: 'a', replace: 'A' }] } });
    const outside = makeStep('OUT', { kind: 'tool', agent: undefined, input: undefined, critical: false, tool: 'edit_file', writes: ['docs/**'], args: { path: 'src/b.ts', edits: [{ search: 'b', replace: 'B' }] } });
    const result = await runPlan(makePlan([inside, outside]), { clock: new ManualClock(0, { autoAdvance: true }), tools: builtinTools(), workspace, interaction, approvalPolicy: 'commandsOnly' }).result;
    assert.equal(result.steps['IN']?.status, 'completed');
    assert.notEqual(result.steps['OUT']?.status, 'completed');
    const asked = interaction.approvals();
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.kind === 'file' ? asked[0].outsideScope : undefined, true);
    assert.deepEqual(workspace.snapshot(), { 'docs/a.md': 'A', 'src/b.ts': 'b' });
  });
});
