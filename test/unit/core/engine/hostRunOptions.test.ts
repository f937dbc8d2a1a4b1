import assert from 'node:assert/strict';
import { hostRunOptions, type HostEnvironment } from '../../../../src/core/engine/hostRunOptions';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { bareEnvironment } from '../../../../src/core/engine/runEnvironment';
import { defaultRunPolicy, runPolicyOf, type RunPolicy } from '../../../../src/core/engine/runPolicy';
import { toRegistry } from '../../../../src/core/engine/resolveRunOptions';
import { runPlan } from '../../../../src/core/engine/runPlan';
import { createBudgetTracker, type BudgetLimits } from '../../../../src/core/llm/budget';
import type { CommandRunner } from '../../../../src/core/commandPorts';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

const commandRunner: CommandRunner = { describeCwd: async (cwd) => cwd, run: () => Promise.reject(new Error('no commands in this test')) };

function environment(patch: Partial<HostEnvironment> = {}, budget: BudgetLimits = {}): HostEnvironment {
  return {
    ...bareEnvironment(new ManualClock()),
    tools: toRegistry([readFileTool]),
    workspace: createMemoryWorkspace({ 'README.md': '# Demo\n' }),
    commandRunner,
    store: createMemoryRunStore(),
    budget: createBudgetTracker(budget),
    ...patch,
  };
}

const policy: RunPolicy = { ...defaultRunPolicy, noModelHint: 'Pass --base-url.' };

describe('hostRunOptions: one way from a host\'s environment and policy to run options', () => {
  it('passes on every port and every setting the host gives, 0 included', () => {
    const given = environment({ llm: scriptedLlm(['unused']) });
    const chosen: RunPolicy = { ...policy, approvalPolicy: 'always', strategy: 'plan_act_reflect', maxConcurrency: 0, maxTotalReplans: 0, replanCooldownMs: 2_000 };
    const options = hostRunOptions(given, chosen);
    for (const key of Object.keys(given) as (keyof HostEnvironment)[]) assert.equal(options[key], given[key], key);
    for (const key of Object.keys(chosen) as (keyof RunPolicy)[]) assert.equal(options[key], chosen[key], key);
  });

  it('keeps the default of each setting left undefined, and a 0 given', () => {
    const resolved = runPolicyOf({ maxTotalReplans: 0, maxReplanAttempts: undefined, replanCooldownMs: 2_000 });
    assert.deepEqual([resolved.maxTotalReplans, resolved.maxReplanAttempts, resolved.replanCooldownMs], [0, 2, 2_000]);
    assert.equal(resolved.approvalPolicy, 'writesAndCommands');
  });

  it('runs a plan in the host\'s workspace, journaled to its store', async () => {
    const host = environment();
    const plan = makePlan([makeStep('A', { kind: 'tool', tool: 'read_file', args: { path: 'README.md' } })]);
    const result = await runPlan(plan, { ...hostRunOptions(host, policy), idSource: () => 'run-host' }).result;
    assert.equal(result.status, 'completed');
    assert.equal((result.results['A'] as { content: string }).content, '# Demo\n');
    assert.ok(await host.store.load('run-host'), 'the run is journaled in the host\'s store');
  });

  it('counts the model\'s use against the budget limits, and pauses the run at a limit', async () => {
    const llm = scriptedLlm(['ok']);
    const options = hostRunOptions(environment({ llm }, { maxRequests: 1 }), policy);
    const plan = makePlan([makeStep('A'), makeStep('B', { dependsOn: ['A'] })]);
    const result = await runPlan(plan, options).result;
    assert.equal(result.status, 'waiting');
    assert.deepEqual(result.pending?.map((request) => [request.stepId, request.kind]), [['B', 'budget']]);
    assert.equal(options.budget.usage().requests, 1);
  });

  it('without a model, a step that needs one fails with the host\'s hint', async () => {
    const result = await runPlan(makePlan([makeStep('A')]), hostRunOptions(environment(), policy)).result;
    assert.equal(result.status, 'failed');
    assert.match(result.steps['A']?.error ?? '', /Pass --base-url\./);
  });
});
