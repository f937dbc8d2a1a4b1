import assert from 'node:assert/strict';
import { hostRunOptions, type RunHostSetup } from '../../../../src/core/engine/hostRunOptions';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { CommandRunner } from '../../../../src/core/ports';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

const commandRunner: CommandRunner = { describeCwd: async (cwd) => cwd, run: () => Promise.reject(new Error('no commands in this test')) };

function setup(patch: Partial<RunHostSetup> = {}): RunHostSetup {
  return {
    tools: [readFileTool],
    workspace: createMemoryWorkspace({ 'README.md': '# Demo\n' }),
    commandRunner,
    allowedCommands: undefined,
    diagnostics: undefined,
    store: createMemoryRunStore(),
    interaction: undefined,
    checkpoints: undefined,
    logger: undefined,
    clock: new ManualClock(),
    signal: undefined,
    llm: undefined,
    models: undefined,
    budget: {},
    approvalPolicy: undefined,
    strategy: undefined,
    capabilities: undefined,
    maxConcurrency: undefined,
    agentLimits: undefined,
    replan: { maxTotalReplans: undefined, maxReplanAttempts: undefined, replanCooldownMs: undefined },
    reviewCriticalSteps: undefined,
    noModelHint: 'Pass --base-url.',
    ...patch,
  };
}

describe('hostRunOptions: one way from a host\'s setup to run options', () => {
  it('gives the tools as a registry and keeps the engine\'s defaults for what the host left undefined', () => {
    const options = hostRunOptions(setup());
    assert.deepEqual(options.tools.names(), ['read_file']);
    const defaults = ['interaction', 'checkpoints', 'diagnostics', 'logger', 'signal', 'llm', 'approvalPolicy', 'strategy', 'maxConcurrency', 'agentLimits', 'reviewCriticalSteps'] as const;
    for (const key of [...defaults, 'maxTotalReplans', 'maxReplanAttempts', 'replanCooldownMs'] as const) {
      assert.ok(!(key in options), `${key} should be left to the engine's default`);
    }
  });

  it('passes on everything the host gives', () => {
    const given = {
      interaction: { ask: async () => 'defer' } as unknown as RunHostSetup['interaction'],
      checkpoints: {} as RunHostSetup['checkpoints'],
      logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
      signal: new AbortController().signal,
      llm: scriptedLlm(['unused']),
      approvalPolicy: 'always' as const,
      strategy: 'plan_act_reflect' as const,
      maxConcurrency: 0,
      agentLimits: { maxTurns: 3 },
      reviewCriticalSteps: true,
    };
    const options = hostRunOptions(setup(given));
    for (const key of Object.keys(given) as (keyof typeof given)[]) assert.equal(options[key], given[key], key);
  });

  it('passes on the replanning limits the host sets, 0 included', () => {
    const options = hostRunOptions(setup({ replan: { maxTotalReplans: 0, maxReplanAttempts: 5, replanCooldownMs: 2_000 } }));
    assert.deepEqual([options.maxTotalReplans, options.maxReplanAttempts, options.replanCooldownMs], [0, 5, 2_000]);
  });

  it('runs a plan in the host\'s workspace, journaled to its store', async () => {
    const host = setup();
    const plan = makePlan([makeStep('A', { kind: 'tool', tool: 'read_file', args: { path: 'README.md' } })]);
    const result = await runPlan(plan, { ...hostRunOptions(host), idSource: () => 'run-host' }).result;
    assert.equal(result.status, 'completed');
    assert.equal((result.results['A'] as { content: string }).content, '# Demo\n');
    assert.ok(await host.store.load('run-host'), 'the run is journaled in the host\'s store');
  });

  it('counts the model\'s use against the budget limits, and pauses the run at a limit', async () => {
    const llm = scriptedLlm(['ok']);
    const options = hostRunOptions(setup({ llm, budget: { maxRequests: 1 } }));
    const plan = makePlan([makeStep('A'), makeStep('B', { dependsOn: ['A'] })]);
    const result = await runPlan(plan, options).result;
    assert.equal(result.status, 'waiting');
    assert.deepEqual(result.pending?.map((request) => [request.stepId, request.kind]), [['B', 'budget']]);
    assert.equal(options.budget.usage().requests, 1);
  });

  it('without a model, a step that needs one fails with the host\'s hint', async () => {
    const result = await runPlan(makePlan([makeStep('A')]), hostRunOptions(setup())).result;
    assert.equal(result.status, 'failed');
    assert.match(result.steps['A']?.error ?? '', /Pass --base-url\./);
  });
});
