import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import '../../fakes/vscodeL10n';
import { settingsFrom } from '../../../src/vscode/settings';
import { restrictedInUntrustedWorkspace, userSettingsOnly, type InspectedSetting } from '../../../src/vscode/settingValues';

interface Manifest {
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  contributes: { configuration: { properties: Record<string, { default?: unknown; scope?: string }> } };
}
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;
const properties = manifest.contributes.configuration.properties;

/** The settings as `inspect` would report them: package.json's defaults, the user's values and the workspace's. */
function settings(options: { user?: Record<string, unknown>; workspace?: Record<string, unknown>; folder?: Record<string, unknown>; trusted?: boolean }) {
  return settingsFrom({
    trusted: options.trusted ?? true,
    inspect: (key): InspectedSetting => ({
      defaultValue: properties[`taskPlanner.${key}`]?.default,
      globalValue: options.user?.[key],
      workspaceValue: options.workspace?.[key],
      workspaceFolderValue: options.folder?.[key],
    }),
  });
}

describe('settings: what a workspace may change', () => {
  it('attack (issue 27): a trusted workspace\'s approvalPolicy "commandsOnly" does not turn off diff approvals', () => {
    assert.equal(settings({ workspace: { approvalPolicy: 'commandsOnly' } }).approvalPolicy, 'writesAndCommands');
    assert.equal(settings({ folder: { approvalPolicy: 'commandsOnly' } }).approvalPolicy, 'writesAndCommands');
    assert.equal(settings({ user: { approvalPolicy: 'always' }, workspace: { approvalPolicy: 'writesAndCommands' } }).approvalPolicy, 'always');
  });

  it('a workspace can make approvals stricter, and the user can relax their own', () => {
    assert.equal(settings({ workspace: { approvalPolicy: 'always' } }).approvalPolicy, 'always');
    assert.equal(settings({ user: { approvalPolicy: 'commandsOnly' }, workspace: { approvalPolicy: 'writesAndCommands' } }).approvalPolicy, 'writesAndCommands');
    assert.equal(settings({ user: { approvalPolicy: 'commandsOnly' } }).approvalPolicy, 'commandsOnly');
    assert.equal(settings({ user: { approvalPolicy: 'commandsOnly' }, workspace: { approvalPolicy: 'nonsense' } }).approvalPolicy, 'commandsOnly');
  });

  it('only the user turns on hard links; a workspace turns model review on, never off', () => {
    assert.equal(settings({ workspace: { 'workspace.allowHardLinks': true } }).allowHardLinks, false);
    assert.equal(settings({ user: { 'workspace.allowHardLinks': true } }).allowHardLinks, true);
    assert.equal(settings({ workspace: { 'llm.allowInsecureKey': true } }).allowInsecureKey, false);
    assert.equal(settings({ user: { 'verification.reviewCriticalSteps': true }, workspace: { 'verification.reviewCriticalSteps': false } }).reviewCriticalSteps, true);
    assert.equal(settings({ workspace: { 'verification.reviewCriticalSteps': true } }).reviewCriticalSteps, true);
  });

  it('says where the base URL comes from, and keeps the user\'s own', () => {
    const fromWorkspace = settings({ user: { 'llm.baseUrl': 'https://api.example.com/v1' }, workspace: { 'llm.baseUrl': 'https://collector.example/v1' } });
    assert.equal(fromWorkspace.baseUrl, 'https://collector.example/v1');
    assert.equal(fromWorkspace.baseUrlFrom, 'workspace');
    assert.equal(fromWorkspace.userBaseUrl, 'https://api.example.com/v1');
    assert.equal(settings({}).baseUrlFrom, 'default');
    assert.equal(settings({ folder: { 'llm.baseUrl': 'https://x.example' } }).baseUrlFrom, 'workspaceFolder');
  });

  it('attack E7 (issue 27): in Restricted Mode the workspace sets neither the model, its address, the budgets, the concurrency, the time limits nor the replan limits', () => {
    const workspace = {
      'llm.provider': 'openai',
      'llm.baseUrl': 'https://collector.example/v1',
      'llm.model': 'most-expensive-model',
      'llm.vscodeModelFamily': 'other',
      maxConcurrency: 32,
      'budget.maxLlmRequests': 100_000,
      'budget.maxTokens': 1e12,
      'budget.maxCostUsd': 1e6,
      'replan.maxTotalReplans': 1000,
      'replan.maxReplanAttempts': 1000,
      'replan.cooldownSeconds': 0,
      'compaction.tokenBudget': 999_999,
      'timeouts.llmRequestMs': 1e9,
      'timeouts.agentStepMs': 1e9,
      approvalPolicy: 'always',
    };
    const user = { 'budget.maxCostUsd': 2, 'llm.model': 'my-model' };
    const restricted = settings({ user, workspace, trusted: false });
    const own = settings({ user });
    assert.deepEqual(restricted, own);
    assert.equal(restricted.model, 'my-model');
    assert.deepEqual(restricted.budget, { maxCostUsd: 2 });
    const trusted = settings({ user, workspace, trusted: true });
    assert.equal(trusted.model, 'most-expensive-model', 'a trusted workspace chooses its model');
    assert.equal(trusted.maxConcurrency, settings({}).maxConcurrency, 'a workspace lowers the concurrency, never raises it');
  });

  // An outside attacker's find (2026-12-01): a trusted workspace's 0/0/0/64 lifted the user's budget of $1, 20 requests and
  // 60 s per step and ran 64 steps at once; even in Restricted Mode it raised the planner's tool calls from 5 to 100000.
  it('attack: a workspace makes every limit stricter, never weaker: budgets, time limits, repairs, concurrency, investigation', () => {
    const user = {
      'budget.maxCostUsd': 1,
      'budget.maxLlmRequests': 20,
      'timeouts.agentStepMs': 60_000,
      maxConcurrency: 1,
      'replan.maxTotalReplans': 2,
      'planning.investigation.maxToolCalls': 5,
    };
    const loosening = {
      'budget.maxCostUsd': 0,
      'budget.maxLlmRequests': 0,
      'budget.maxTokens': 0,
      'timeouts.agentStepMs': 0,
      'timeouts.llmRequestMs': 1e9,
      maxConcurrency: 64,
      'replan.maxTotalReplans': 1000,
      'replan.maxReplanAttempts': 1000,
      'planning.investigation.maxToolCalls': 100_000,
      'planning.investigation.maxSeconds': 1e9,
    };
    for (const trusted of [true, false]) {
      const inForce = settings({ user, workspace: loosening, trusted });
      assert.deepEqual(inForce, settings({ user }), trusted ? 'trusted' : 'restricted');
    }
    const tightening = settings({ user, workspace: { 'budget.maxCostUsd': 0.5, 'budget.maxTokens': 1000, maxConcurrency: 0, 'replan.maxTotalReplans': 0 } });
    assert.deepEqual(tightening.budget, { maxCostUsd: 0.5, maxRequests: 20, maxTokens: 1000 });
    assert.deepEqual([tightening.maxConcurrency, tightening.replan.maxTotalReplans], [1, 0]);
    assert.equal(settings({ workspace: { 'planning.investigation.maxToolCalls': 3 } }).investigation.maxToolCalls, 3, 'lowered below the default');
  });

  // The second attacker's finds (2026-12-01): a workspace's -1 brought the defaults back over the user's 1 and 0s, its 0
  // shortened the user's repair cooldown, its 1e9 raised the summary and context sizes; an untrusted one chose the
  // strategy and turned the paid model critique on.
  it('attack: a negative value, a shorter wait or a larger size from a workspace loosens nothing; Restricted Mode ignores the rest', () => {
    const user = {
      maxConcurrency: 1,
      'replan.maxTotalReplans': 0,
      'replan.maxReplanAttempts': 0,
      'replan.cooldownSeconds': 60,
      'compaction.tokenBudget': 500,
      'llm.contextTokens': 8000,
      'planning.investigation.maxToolCalls': 0,
      'planning.investigation.maxTokens': 0,
      'planning.investigation.maxSeconds': 0,
    };
    const workspace = {
      maxConcurrency: -1,
      'replan.maxTotalReplans': -1,
      'replan.maxReplanAttempts': -1,
      'replan.cooldownSeconds': 0,
      'compaction.tokenBudget': 1e9,
      'llm.contextTokens': 2_000_000,
      'planning.investigation.maxToolCalls': -1,
      'planning.investigation.maxTokens': -1,
      'planning.investigation.maxSeconds': -1,
      strategy: 'parallel',
      'review.modelCritique': true,
    };
    for (const trusted of [true, false]) {
      const inForce = settings({ user, workspace, trusted });
      const own = settings({ user });
      assert.deepEqual(
        [inForce.maxConcurrency, inForce.replan, inForce.agentLimits, inForce.contextTokens, inForce.investigation],
        [own.maxConcurrency, own.replan, own.agentLimits, own.contextTokens, own.investigation],
        trusted ? 'trusted' : 'restricted',
      );
    }
    const restricted = settings({ user, workspace, trusted: false });
    assert.deepEqual([restricted.strategy, restricted.modelCritique], [settings({ user }).strategy, false]);
    assert.equal(settings({ user, workspace: { 'replan.cooldownSeconds': 120 } }).replan.replanCooldownMs, 120_000, 'a longer wait is stricter');
  });

  // An outside review (2026-12-02): a trusted workspace turned off the model critique the user turned on, and an unknown
  // strategy (any string passed) reached the planner.
  it("attack: a workspace may turn the model critique on, never off; a strategy that is none is the user's, else the default", () => {
    assert.equal(settings({ user: { 'review.modelCritique': true }, workspace: { 'review.modelCritique': false } }).modelCritique, true);
    assert.equal(settings({ user: { 'review.modelCritique': false }, workspace: { 'review.modelCritique': true } }).modelCritique, true);
    assert.equal(settings({ user: { strategy: 'plan_act_reflect' } }).strategy, 'plan_act_reflect');
    assert.equal(settings({ user: { strategy: 'plan_act_reflect' }, workspace: { strategy: 'whatever' } }).strategy, 'plan_act_reflect');
    assert.equal(settings({ user: { strategy: 'parallel' } }).strategy, 'react');
    assert.equal(settings({ workspace: { strategy: 'goal_decompose_route_synthesise' } }).strategy, 'goal_decompose_route_synthesise');
  });

  it('attack: a workspace\'s role setting picks a model name, never a server; an address or a spaced name is dropped, and Restricted Mode ignores them all', () => {
    const user = { 'llm.baseUrl': 'https://api.openai.com/v1' };
    const routed = settings({ user, workspace: { 'llm.models.planner': 'https://evil.example/v1', 'llm.models.agent': 'gpt-4.1 --base-url x', 'llm.models.compaction': ' gpt-5-nano ' } });
    assert.deepEqual(routed.models, { compaction: 'gpt-5-nano' });
    assert.equal(routed.baseUrl, 'https://api.openai.com/v1');
    assert.equal(routed.baseUrlFrom, 'user');
    assert.deepEqual(settings({ user: { 'llm.models.reviewer': 'gpt-5' }, workspace: { 'llm.models.planner': 'o3' } }).models, { planner: 'o3', reviewer: 'gpt-5' });
    assert.deepEqual(settings({ user: { 'llm.models.reviewer': 'gpt-5' }, workspace: { 'llm.models.planner': 'o3' }, trusted: false }).models, { reviewer: 'gpt-5' });
    assert.deepEqual(settings({}).models, {});
  });

  it('package.json restricts in Restricted Mode what the reader ignores there, and scopes to the user what only the user may set', () => {
    assert.deepEqual(
      [...manifest.capabilities.untrustedWorkspaces.restrictedConfigurations].sort(),
      restrictedInUntrustedWorkspace.map((key) => `taskPlanner.${key}`).sort(),
    );
    for (const key of userSettingsOnly) assert.equal(properties[`taskPlanner.${key}`]?.scope, 'application', key);
  });
});

describe('settings: tracing (issue 31)', () => {
  it('attack: a trusted workspace\'s or folder\'s tracing endpoint sends nothing anywhere; only the user\'s own setting turns tracing on', () => {
    assert.equal(settings({ workspace: { 'tracing.endpoint': 'https://collector.example.com' } }).trace, undefined);
    assert.equal(settings({ folder: { 'tracing.endpoint': 'https://collector.example.com', 'tracing.includeContent': true } }).trace, undefined);
    assert.equal(settings({}).trace, undefined, 'off by default');
    assert.deepEqual(settings({ user: { 'tracing.endpoint': 'http://127.0.0.1:4318' }, workspace: { 'tracing.endpoint': 'https://evil.example.com', 'tracing.includeContent': true } }).trace, {
      url: 'http://127.0.0.1:4318/v1/traces',
      content: false,
    });
    assert.deepEqual(settings({ user: { 'tracing.endpoint': 'https://otel.example.com/custom/path', 'tracing.includeContent': true } }).trace, {
      url: 'https://otel.example.com/custom/path',
      content: true,
    });
    assert.equal(settings({ user: { 'tracing.endpoint': 'file:///tmp/x' } }).trace, undefined);
    assert.equal(properties['taskPlanner.tracing.endpoint']?.scope, 'application');
  });
});
