import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import '../../fakes/vscodeL10n';
import { defaultAgentLimits, resolveAgentLimits } from '../../../src/core/agent/agentLimits';
import { maxReplanCooldownMs } from '../../../src/core/engine/runPolicy';
import { toolSectionBudget } from '../../../src/core/tools/toolOffer';
import { settingsFrom } from '../../../src/vscode/settings';
import type { InspectedSetting } from '../../../src/vscode/settingValues';

// Attacks on docs/security.md §4.3: a trusted repository's `.vscode/settings.json` (or `.code-workspace` settings) may
// "lower a limit (... the smaller of yours and its own is in force)" and may "never ... raise or lift a limit". The limit
// in force is what the user's own settings give, and where the user's value is 0 for a limit that has no "none" (a time
// limit, the summary's size, the model's context), that is the default, not "anything the workspace says".

interface Manifest {
  contributes: { configuration: { properties: Record<string, { default?: unknown; maximum?: number }> } };
}
const properties = (JSON.parse(readFileSync('package.json', 'utf8')) as Manifest).contributes.configuration.properties;

/** The settings as `inspect` reports them: package.json's defaults, the user's values and a trusted workspace's. */
function settings(user: Record<string, unknown>, workspace: Record<string, unknown> = {}) {
  return settingsFrom({
    trusted: true,
    inspect: (key): InspectedSetting => ({
      defaultValue: properties[`taskPlanner.${key}`]?.default,
      globalValue: user[key],
      workspaceValue: workspace[key],
    }),
  });
}

/** Node's largest timer delay: a longer one fires after 1 ms (with a TimeoutOverflowWarning). */
const largestTimerDelayMs = 2 ** 31 - 1;

describe('attack: a repository raises a limit the user left at 0', () => {
  // Each of these falls back to its default when the user's value is 0: the default is what the user has, and a workspace
  // value above it raised it (an hour per step attempt instead of five minutes, a summary of a billion tokens in every
  // step's prompt, a request that may run for a day).
  it('attack: time limits and the summary budget the user set to 0 stay at their defaults, whatever larger value the workspace gives', () => {
    const user = { 'timeouts.llmRequestMs': 0, 'timeouts.agentStepMs': 0, 'compaction.tokenBudget': 0 };
    const own = settings(user);
    assert.equal(own.requestTimeoutMs, properties['taskPlanner.timeouts.llmRequestMs']?.default, 'the user\'s 0 is the default');
    assert.equal(resolveAgentLimits(own.agentLimits).timeoutMs, defaultAgentLimits.timeoutMs);
    assert.equal(resolveAgentLimits(own.agentLimits).summaryBudgetTokens, defaultAgentLimits.summaryBudgetTokens);

    const raised = settings(user, { 'timeouts.llmRequestMs': 86_400_000, 'timeouts.agentStepMs': 3_600_000, 'compaction.tokenBudget': 1e9 });
    assert.equal(raised.requestTimeoutMs, own.requestTimeoutMs);
    assert.equal(resolveAgentLimits(raised.agentLimits).timeoutMs, defaultAgentLimits.timeoutMs);
    assert.equal(resolveAgentLimits(raised.agentLimits).summaryBudgetTokens, defaultAgentLimits.summaryBudgetTokens);

    // A lower value is stricter, and still counts.
    const lowered = settings(user, { 'timeouts.llmRequestMs': 30_000, 'timeouts.agentStepMs': 60_000, 'compaction.tokenBudget': 200 });
    assert.deepEqual([lowered.requestTimeoutMs, lowered.agentLimits.timeoutMs, lowered.agentLimits.summaryBudgetTokens], [30_000, 60_000, 200]);
  });

  // The model's context is unknown (0) by default: the tool list is then held to `toolSectionBudget(0)` and the model Task
  // Planner offers VS Code's chat announces 16 384 tokens. A workspace's 1e9 lifted both: every tool listed in every
  // request, and a chat that fills prompts a billion tokens long, on the user's key.
  it("attack: with the model's context unknown, a workspace's huge context is not in force; a smaller one is", () => {
    const raised = settings({}, { 'llm.contextTokens': 1e9 });
    assert.equal(raised.contextTokens, 0);
    assert.equal(toolSectionBudget(raised.contextTokens), toolSectionBudget(0));
    assert.equal(settings({}, { 'llm.contextTokens': 100_000 }).contextTokens, 0);
    assert.equal(settings({}, { 'llm.contextTokens': 8_000 }).contextTokens, 8_000, 'a small local model\'s context is stricter');
    assert.equal(settings({ 'llm.contextTokens': 200_000 }, { 'llm.contextTokens': 1e9 }).contextTokens, 200_000);
    assert.equal(settings({ 'llm.contextTokens': 200_000 }).contextTokens, 200_000, 'the user\'s own larger context counts');
  });
});

describe('attack: a repository gives a wait or a time limit past what a timer can hold', () => {
  // `replan.cooldownSeconds` is a wait a workspace may lengthen. 1e7 s is 1e10 ms, past Node's largest timer delay: the
  // timer fired after 1 ms, so the "longer" wait skipped the user's 60 s cooldown (kept for a model's rate limit).
  it("attack: a workspace's repair cooldown of 1e7 s is held to the setting's maximum, never past a timer's range", () => {
    assert.equal(maxReplanCooldownMs, (properties['taskPlanner.replan.cooldownSeconds']?.maximum ?? Number.NaN) * 1000, 'package.json says the same');
    const waited = settings({ 'replan.cooldownSeconds': 60 }, { 'replan.cooldownSeconds': 1e7 }).replan.replanCooldownMs;
    assert.equal(waited, maxReplanCooldownMs);
    assert.ok(waited <= largestTimerDelayMs);
    assert.equal(settings({ 'replan.cooldownSeconds': 1e9 }).replan.replanCooldownMs, maxReplanCooldownMs, 'the user\'s own value too');
    assert.equal(settings({ 'replan.cooldownSeconds': 60 }, { 'replan.cooldownSeconds': 120 }).replan.replanCooldownMs, 120_000, 'a longer wait in range counts');
  });

  it('a time limit past what a timer can wait is held to the largest delay, not turned into 1 ms', () => {
    const huge = settings({ 'timeouts.llmRequestMs': 1e12, 'timeouts.agentStepMs': 1e12 });
    assert.equal(huge.requestTimeoutMs, largestTimerDelayMs);
    assert.equal(huge.agentLimits.timeoutMs, largestTimerDelayMs);
  });
});

describe('attack: a repository sends the work of a user who chose no model to a model', () => {
  // `llm.provider: heuristic` plans and runs without any model: nothing of the workspace leaves the machine. A trusted
  // repository's `llm.provider: vscode` (or `openai`, `auto`) made the next plan go to Copilot, with no word to the user.
  it("attack: the user's heuristic planner stays in force whatever provider the workspace names", () => {
    for (const named of ['vscode', 'openai', 'auto']) {
      assert.equal(settings({ 'llm.provider': 'heuristic' }, { 'llm.provider': named }).provider, 'heuristic', named);
    }
    assert.equal(settings({}, { 'llm.provider': 'heuristic' }).provider, 'heuristic', 'a workspace may still choose no model');
    assert.equal(settings({ 'llm.provider': 'auto' }, { 'llm.provider': 'vscode' }).provider, 'vscode', 'and a model where the user left it to the workspace');
  });
});
