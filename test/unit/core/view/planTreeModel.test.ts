import assert from 'node:assert/strict';
import { initialRunState, reduceRunEvent } from '../../../../src/core/engine/reduceRunEvent';
import type { RunState } from '../../../../src/core/engine/runEvents';
import { planTreeModel, spokenRow, type StepNodeCache } from '../../../../src/core/view/planTreeModel';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan = makePlan([
  makeStep('a', { title: 'Read', kind: 'tool', tool: 'read_file', args: { path: 'x' }, agent: undefined }),
  makeStep('b', { title: 'Think', agent: 'coder', dependsOn: ['a'] }),
  makeStep('c', { title: 'Ask', kind: 'clarification', agent: undefined, skipped: true }),
]);

describe('planTreeModel', () => {
  it('lists steps flat, numbered, with runner, icon and context value', () => {
    const nodes = planTreeModel(plan);
    assert.deepEqual(nodes.map((node) => [node.label, node.description, node.icon, node.contextValue]), [
      ['1. Read', 'read_file', 'tools', 'step.tool'],
      ['2. Think', 'agent: coder', 'hubot', 'step.agent'],
      ['3. Ask', 'clarification · skipped', 'circle-slash', 'step.clarification'],
    ]);
  });

  it("shows a skipped step with the skipped icon, before and after a run: not the debugger's step-over arrow, which the workbench paints blue and a newcomer read as running", () => {
    const skippedRun: RunState = { ...initialRunState('r'), plan, steps: { c: { id: 'c', status: 'skipped', attempts: 0, skipCause: 'plan' } } };
    for (const node of [planTreeModel(plan)[2]!, planTreeModel(plan, 'flat', skippedRun)[2]!]) {
      assert.equal(node.icon, 'circle-slash');
      assert.doesNotMatch(node.icon, /^debug-/, 'the debug codicons take the debug toolbar\'s colours');
    }
    assert.equal(planTreeModel(plan, 'flat', skippedRun)[2]!.color, 'disabledForeground');
  });

  it('after a repair, keeps the failed step and the steps the repair dropped under their plan version, with their outcome (issue 28 item 5)', () => {
    const failed = makeStep('b', { title: 'Think' });
    const dropped = makeStep('d', { title: 'Summarise', dependsOn: ['b'] });
    const run: RunState = {
      ...initialRunState('r'),
      plan,
      replacedSteps: [
        { planVersion: 1, step: failed, state: { id: 'b', status: 'failed', attempts: 2, error: 'boom' } },
        { planVersion: 1, step: dropped, state: { id: 'd', status: 'skipped', attempts: 0, reason: 'its dependency b failed' } },
      ],
    };
    for (const layout of ['flat', 'levels'] as const) {
      const group = planTreeModel(plan, layout, run).at(-1)!;
      assert.equal(group.label, 'Replaced by a repair: plan version 1', layout);
      assert.deepEqual(group.children.map((node) => [node.id, node.label, node.stepId, node.contextValue]), [
        ['replaced:1:b', '1. Think', undefined, 'replacedStep'],
        ['replaced:1:d', '2. Summarise', undefined, 'replacedStep'],
      ]);
      assert.match(group.children[0]!.description, /failed/);
      assert.match(group.children[0]!.tooltip, /Error: boom/);
      assert.match(group.children[1]!.description, /skipped/);
    }
    assert.equal(planTreeModel(plan, 'flat', { ...run, replacedSteps: undefined }).length, plan.steps.length);
  });

  // A newcomer's trial (2026-12-02): a step paused by the cost limit read "awaiting approval", and its row offered Approve
  // and Reject, which answered "no step is waiting for approval".
  it('shows a step paused for a higher budget as such, with no Approve or Reject on its row', () => {
    let run = reduceRunEvent(initialRunState('r'), { type: 'run_started', plan, runId: 'r', seq: 1, time: 0 });
    run = reduceRunEvent(run, { type: 'step_started', stepId: 'b', attempt: 1, runId: 'r', seq: 2, time: 5 });
    const request = { id: 'b@budget', fingerprint: 'f', stepId: 'b', kind: 'budget' as const, prompt: "The run's cost limit of $1.00 cannot be kept", request: undefined };
    run = reduceRunEvent(run, { type: 'budget_exhausted', stepId: 'b', request, usage: run.budgetUsage ?? { requests: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, cachedTokens: 0, costUsd: 0, savedUsd: 0, unpricedRequests: 0 }, runId: 'r', seq: 3, time: 6 });
    const node = planTreeModel(plan, 'flat', run)[1]!;
    assert.equal(node.contextValue, 'step.agent.awaiting_budget');
    assert.doesNotMatch(node.contextValue, /\.(awaiting_approval|awaiting_review)$/, "package.json's Approve and Reject match the row");
    assert.match(node.description, /waiting for a higher budget/);
    assert.equal(node.icon, 'credit-card');
    assert.match(node.tooltip, /Waiting for: The run's cost limit of \$1\.00 cannot be kept/);
  });

  it('shows a step a person does as yours, with its own icon', () => {
    const [node] = planTreeModel(makePlan([makeStep('m', { title: 'Update the README', kind: 'manual', agent: undefined })]));
    assert.deepEqual([node!.description, node!.icon, node!.contextValue], ['you', 'person', 'step.manual']);
  });

  it('names each row for screen readers by what it shows, then its status', () => {
    assert.deepEqual(planTreeModel(plan).map((node) => node.accessibilityLabel), ['1. Read, read_file, not started', '2. Think, agent: coder, not started', '3. Ask, clarification, skipped']);
    assert.deepEqual(planTreeModel(plan, 'levels').map((node) => node.accessibilityLabel), ['Level 1, 2 steps, in parallel', 'Level 2, 1 step']);
    let run = reduceRunEvent(initialRunState('r'), { type: 'run_started', plan, runId: 'r', seq: 1, time: 0 });
    run = reduceRunEvent(run, { type: 'step_started', stepId: 'a', attempt: 1, runId: 'r', seq: 2, time: 5 });
    const running = planTreeModel(plan, 'flat', run)[0]!;
    assert.equal(running.accessibilityLabel, '1. Read, read_file, running');
    assert.ok(!running.accessibilityLabel.includes(running.tooltip.split('\n')[0]!), 'the tooltip is not read instead of the row');
  });

  it('shows where a running step stands in its row, and no longer once it ended', () => {
    let run = reduceRunEvent(initialRunState('r'), { type: 'run_started', plan, runId: 'r', seq: 1, time: 0 });
    run = reduceRunEvent(run, { type: 'step_started', stepId: 'a', attempt: 1, runId: 'r', seq: 2, time: 5 });
    run = reduceRunEvent(run, { type: 'step_progress', stepId: 'a', message: 'turn 3 of 12: write_file', runId: 'r', seq: 3, time: 6 });
    const running = planTreeModel(plan, 'flat', run)[0]!;
    assert.equal(running.description, 'read_file · running · turn 3 of 12: write_file');
    assert.equal(running.accessibilityLabel, '1. Read, read_file, running, turn 3 of 12: write_file');
    run = reduceRunEvent(run, { type: 'step_completed', stepId: 'a', result: 'x', runId: 'r', seq: 4, time: 8 });
    assert.equal(planTreeModel(plan, 'flat', run)[0]!.description, 'read_file · completed · 3 ms');
  });

  it("puts a running step's percentage first in its row when its work says it, and nothing of it once the line has none or the step ended", () => {
    let run = reduceRunEvent(initialRunState('r'), { type: 'run_started', plan, runId: 'r', seq: 1, time: 0 });
    run = reduceRunEvent(run, { type: 'step_started', stepId: 'a', attempt: 1, runId: 'r', seq: 2, time: 5 });
    run = reduceRunEvent(run, { type: 'step_progress', stepId: 'a', message: 'running pytest -q', percent: 45, runId: 'r', seq: 3, time: 6 });
    assert.equal(run.steps['a']?.percent, 45);
    assert.equal(planTreeModel(plan, 'flat', run)[0]!.description, '45% · read_file · running · running pytest -q');
    run = reduceRunEvent(run, { type: 'step_progress', stepId: 'a', message: 'turn 2 of 12', runId: 'r', seq: 4, time: 7 });
    assert.equal(run.steps['a']?.percent, undefined, 'a line without a percentage is indeterminate, not the last one');
    assert.equal(planTreeModel(plan, 'flat', run)[0]!.description, 'read_file · running · turn 2 of 12');
    run = reduceRunEvent(run, { type: 'step_progress', stepId: 'a', message: 'running pytest -q', percent: 90, runId: 'r', seq: 5, time: 8 });
    run = reduceRunEvent(run, { type: 'step_completed', stepId: 'a', result: 'x', runId: 'r', seq: 6, time: 9 });
    assert.equal(run.steps['a']?.percent, undefined);
    assert.equal(planTreeModel(plan, 'flat', run)[0]!.description, 'read_file · completed · 4 ms');
  });

  it('says a step whose changes Undo took back is undone, in its row and tooltip, and rebuilds a cached node for it (issue 26)', () => {
    let run = reduceRunEvent(initialRunState('r'), { type: 'run_started', plan, runId: 'r', seq: 1, time: 0 });
    run = reduceRunEvent(run, { type: 'step_started', stepId: 'a', attempt: 1, runId: 'r', seq: 2, time: 5 });
    run = reduceRunEvent(run, { type: 'step_completed', stepId: 'a', result: 'x', runId: 'r', seq: 3, time: 8 });
    const cache: StepNodeCache = new WeakMap();
    const before = planTreeModel(plan, 'flat', run, cache)[0]!;
    assert.equal(before.description, 'read_file · completed · 3 ms');
    const after = planTreeModel(plan, 'flat', run, cache, new Set(['a']))[0]!;
    assert.equal(after.description, 'read_file · completed · changes undone · 3 ms');
    assert.equal(after.accessibilityLabel, '1. Read, read_file, completed, changes undone, 3 ms');
    assert.match(after.tooltip, /Undo took back every change this step made to files\./);
    // Not green: the files no longer hold its work (a newcomer's trial saw the Plan view all green after Undo run).
    assert.deepEqual([before.icon, after.icon], ['pass-filled', 'discard']);
    assert.notEqual(after.color, 'testing.iconPassed');
    assert.equal(planTreeModel(plan, 'flat', run, cache, new Set(['a']))[0], after, 'unchanged, the node is kept');
  });

  it('says a step that did not finish in a cancelled or interrupted run is not finished, not pending, and rebuilds its cached node', () => {
    let run = reduceRunEvent(initialRunState('r'), { type: 'run_started', plan, runId: 'r', seq: 1, time: 0 });
    run = reduceRunEvent(run, { type: 'step_started', stepId: 'a', attempt: 1, runId: 'r', seq: 2, time: 5 });
    run = reduceRunEvent(run, { type: 'step_completed', stepId: 'a', result: 'x', runId: 'r', seq: 3, time: 8 });
    const cache: StepNodeCache = new WeakMap();
    assert.equal(planTreeModel(plan, 'flat', run, cache)[1]!.description, 'agent: coder · waits for earlier steps');
    const cancelled = reduceRunEvent(run, { type: 'run_cancelled', reason: 'Cancelled by you', runId: 'r', seq: 4, time: 9 });
    const rows = planTreeModel(plan, 'flat', cancelled, cache);
    assert.deepEqual(rows.map((row) => row.description), ['read_file · completed · 3 ms', 'agent: coder · not finished (run cancelled)', 'clarification · not finished (run cancelled)']);
    assert.match(rows[1]!.tooltip, /Status: not finished \(run cancelled\)/);
    const interrupted = reduceRunEvent(run, { type: 'run_cancelled', reason: 'The editor closed', interrupted: true, runId: 'r', seq: 4, time: 9 });
    assert.equal(planTreeModel(plan, 'flat', interrupted, cache)[1]!.description, 'agent: coder · not finished (run interrupted)');
  });

  it('shows a stop sign on a step the stop cut short as it ran, and the circle of one that never started (an editor trial)', () => {
    let run = reduceRunEvent(initialRunState('r'), { type: 'run_started', plan, runId: 'r', seq: 1, time: 0 });
    run = reduceRunEvent(run, { type: 'step_started', stepId: 'a', attempt: 1, runId: 'r', seq: 2, time: 5 });
    run = reduceRunEvent(run, { type: 'run_cancelled', reason: 'Cancelled by you', runId: 'r', seq: 3, time: 900 });
    const rows = planTreeModel(plan, 'flat', run);
    assert.deepEqual(rows.map((row) => [row.icon, row.description]), [
      ['stop-circle', 'read_file · not finished (run cancelled) · 895 ms'],
      ['debug-pause', 'agent: coder · not finished (run cancelled)'],
      ['circle-large-outline', 'clarification · not finished (run cancelled)'],
    ]);
  });

  it('explains a step in its tooltip', () => {
    const tooltip = planTreeModel(plan)[1]!.tooltip;
    assert.match(tooltip, /Input: do b/);
    assert.match(tooltip, /Depends on: a/);
  });

  it('nests steps under their dependency level', () => {
    const nodes = planTreeModel(plan, 'levels');
    assert.deepEqual(nodes.map((node) => [node.label, node.description, node.children.map((child) => child.id)]), [
      ['Level 1', '2 steps, in parallel', ['step:a', 'step:c']],
      ['Level 2', '1 step', ['step:b']],
    ]);
  });

  it('falls back to flat when the plan has a cycle', () => {
    const cyclic = makePlan([makeStep('a', { dependsOn: ['b'] }), makeStep('b', { dependsOn: ['a'] })]);
    assert.equal(planTreeModel(cyclic, 'levels').length, 2);
  });

  it('with a cache, rebuilds only the nodes of steps whose state, step or position changed', () => {
    const plan = makePlan([makeStep('a'), makeStep('b'), makeStep('c')]);
    let run = reduceRunEvent(initialRunState('r'), { type: 'run_started', plan, runId: 'r', seq: 1, time: 0 });
    const cache: StepNodeCache = new WeakMap();
    const first = planTreeModel(plan, 'flat', run, cache);
    run = reduceRunEvent(run, { type: 'step_started', stepId: 'b', attempt: 1, runId: 'r', seq: 2, time: 5 });
    const second = planTreeModel(plan, 'flat', run, cache);
    assert.equal(second[0], first[0], 'an unchanged step keeps its node');
    assert.notEqual(second[1], first[1]);
    assert.match(second[1]!.description, /running/);
    assert.deepEqual(second, planTreeModel(plan, 'flat', run), 'the cache changes nothing that is shown');
    const reordered = { ...plan, steps: [plan.steps[1]!, plan.steps[0]!, plan.steps[2]!] };
    const third = planTreeModel(reordered, 'flat', run, cache);
    assert.equal(third[0]!.label, '1. Step b');
    assert.equal(third[2], second[2], 'c kept its place and its node');
  });

  it('says a skipped step\'s error once, and a reason that adds something', () => {
    const plan = makePlan([makeStep('a', { critical: false }), makeStep('b', { dependsOn: ['a'] })]);
    let run = reduceRunEvent(initialRunState('r'), { type: 'run_started', plan, runId: 'r', seq: 1, time: 0 });
    run = reduceRunEvent(run, { type: 'step_started', stepId: 'a', attempt: 1, runId: 'r', seq: 2, time: 1 });
    run = reduceRunEvent(run, { type: 'step_failed', stepId: 'a', attempt: 1, error: 'disk full', disposition: 'skip', runId: 'r', seq: 3, time: 2 });
    run = reduceRunEvent(run, { type: 'step_skipped', stepId: 'a', reason: 'failed: disk full', runId: 'r', seq: 4, time: 3 });
    run = reduceRunEvent(run, { type: 'step_skipped', stepId: 'b', reason: 'its dependency a was skipped', runId: 'r', seq: 5, time: 4 });
    const [a, b] = planTreeModel(plan, 'flat', run);
    assert.equal(a!.tooltip.split('disk full').length - 1, 1, a!.tooltip);
    assert.match(b!.tooltip, /Reason: its dependency a was skipped/);
  });
});


describe('planTreeModel: what a tooltip and a row tell', () => {
  const detailed = makePlan([
    makeStep('a', { title: 'Fetch', kind: 'tool', tool: 'read_file', args: { path: 'x' }, agent: undefined, maxAttempts: 3, onFailure: 'retry', verification: 'result.length > 0', attachments: [{ kind: 'link', ref: 'https://x.test' }, { kind: 'file', ref: 'a.md' }] }),
    makeStep('b', { title: 'Think', dependsOn: ['a'] }),
    makeStep('c', { title: 'Ask', kind: 'clarification', agent: undefined, skipped: true, input: '' }),
  ]);
  const aTooltip = 'a · tool\nInput: do a\nArguments: {"path":"x"}\nVerification: result.length > 0\nAttachments: https://x.test, a.md\nOn failure: retry (up to 3 attempts)';

  it('shows a step\'s checks on one line, after its verification', () => {
    const plan = makePlan([makeStep('w', { verification: 'true', checks: [{ kind: 'file_exists', path: 'notes.md' }, { kind: 'command', argv: ['npm', 'test'] }] }), makeStep('n', { checks: [] })]);
    const [checked, none] = planTreeModel(plan).map((node) => node.tooltip);
    assert.equal(checked, 'w · agent\nInput: do w\nVerification: true\nChecks: file exists notes.md; command npm test exits 0\nOn failure: stop');
    assert.equal(none, 'n · agent\nInput: do n\nOn failure: stop');
  });

  it('before a run: everything the step will do, one line each, and only the lines that apply', () => {
    assert.deepEqual(planTreeModel(detailed).map((node) => node.tooltip), [aTooltip, 'b · agent\nInput: do b\nDepends on: a\nOn failure: stop', 'c · clarification (skipped)\nOn failure: stop']);
  });

  it('during a run: status, duration and attempts in the row; result, diagnosis, error and reason in the tooltip, each said once', () => {
    const run: RunState = {
      runId: 'r', status: 'running', plan: detailed, results: {}, supplied: {}, lastSeq: 1, warnings: [], resumeCount: 0,
      steps: {
        a: { id: 'a', status: 'completed', attempts: 2, durationMs: 1_500, result: { n: 1 }, diagnosis: 'looked fine' },
        b: { id: 'b', status: 'failed', attempts: 1, error: 'boom', reason: 'boom happened', result: 'partial' },
        c: { id: 'c', status: 'skipped', attempts: 0, error: 'late', reason: 'a dependency failed' },
      },
    };
    const nodes = planTreeModel(detailed, 'flat', run);
    assert.deepEqual(nodes.map((node) => [node.description, node.icon, node.color, node.contextValue]), [
      ['read_file · completed · 1.5 s · attempt 2/3', 'pass-filled', 'testing.iconPassed', 'step.tool.completed'],
      ['agent: default · failed', 'error', 'testing.iconFailed', 'step.agent.failed'],
      ['clarification · skipped', 'circle-slash', 'disabledForeground', 'step.clarification.skipped'],
    ]);
    assert.deepEqual(nodes.map((node) => node.tooltip), [
      `${aTooltip}\n\nStatus: completed\nResult: n: 1\nAn earlier attempt failed: looked fine`,
      'b · agent\nInput: do b\nDepends on: a\nOn failure: stop\n\nStatus: failed\nError: boom',
      'c · clarification (skipped)\nOn failure: stop\n\nStatus: skipped\nError: late\nReason: a dependency failed',
    ]);
  });

  it('counts attempts once a step made one, and says nothing of attempts for a single-attempt step', () => {
    const plan = makePlan([makeStep('a', { maxAttempts: 2 }), makeStep('b')]);
    const run: RunState = { runId: 'r', status: 'running', plan, results: {}, supplied: {}, lastSeq: 1, warnings: [], resumeCount: 0, steps: { a: { id: 'a', status: 'pending', attempts: 1 }, b: { id: 'b', status: 'running', attempts: 1 } } };
    assert.deepEqual(planTreeModel(plan, 'flat', run).map((node) => node.description), ['agent: default · pending · attempt 1/2', 'agent: default · running']);
    // One not started says none: "waits for earlier steps · attempt 1/3" read against the panel's 0 / 3 (a trial).
    const waiting: RunState = { ...run, steps: { ...run.steps, a: { id: 'a', status: 'blocked', attempts: 0 } } };
    assert.equal(planTreeModel(plan, 'flat', waiting)[0]?.description, 'agent: default · waits for earlier steps');
    // From a newcomer's trial: a step skipped before it ran read "attempt 1/2", as if tried once.
    const skipped: RunState = { ...run, steps: { ...run.steps, a: { id: 'a', status: 'skipped', attempts: 0 } } };
    assert.equal(planTreeModel(plan, 'flat', skipped)[0]?.description, 'agent: default · skipped');
  });

  it('says a retried step\'s last failure as its earlier attempt\'s, and a diagnosis only when it says more (a trial read a stale error under "awaiting approval")', () => {
    const plan = makePlan([makeStep('a', { maxAttempts: 3 })]);
    const failure = 'Check 1 (contents of `src/cli.js`) failed: no "remove"';
    const state = (step: RunState['steps'][string]): RunState => ({ runId: 'r', status: 'running', plan, results: {}, supplied: {}, lastSeq: 1, warnings: [], resumeCount: 0, steps: { a: step } });
    const retry = planTreeModel(plan, 'flat', state({ id: 'a', status: 'awaiting_approval', attempts: 2, error: failure, diagnosis: failure }))[0]!.tooltip;
    assert.match(retry, new RegExp(`^Attempt 1 failed: ${failure.replace(/[()`.]/g, '\\$&')}$`, 'm'));
    assert.doesNotMatch(retry, /^(Error|Diagnosis):/m);
    const failed = planTreeModel(plan, 'flat', state({ id: 'a', status: 'failed', attempts: 3, error: 'Verification failed', diagnosis: failure }))[0]!.tooltip;
    assert.match(failed, /^Error: Verification failed$/m);
    assert.match(failed, /^Diagnosis: Check 1/m);
  });

  // A trial: a completed step's tooltip said "Status: completed" over "Error: Check 1 … failed" from an earlier attempt,
  // with no word that it was an earlier attempt's; the panel says "An earlier attempt failed: …" (webview/stepFailureLines.ts).
  it('says a completed step\'s error as an earlier attempt\'s, once, as the panel does', () => {
    const plan = makePlan([makeStep('a', { maxAttempts: 3 })]);
    const failure = 'Check 1 (contents of `notes.md`) failed: no "usage"';
    const state = (step: RunState['steps'][string]): RunState => ({ runId: 'r', status: 'completed', plan, results: {}, supplied: {}, lastSeq: 1, warnings: [], resumeCount: 0, steps: { a: step } });
    const tooltip = planTreeModel(plan, 'flat', state({ id: 'a', status: 'completed', attempts: 2, error: failure, diagnosis: `${failure} (the file lacks it)` }))[0]!.tooltip;
    assert.match(tooltip, /^Status: completed$/m);
    assert.equal(tooltip.split('\n').filter((line) => line === `An earlier attempt failed: ${failure}`).length, 1, tooltip);
    assert.doesNotMatch(tooltip, /^(Error|Diagnosis):/m);
    const diagnosed = planTreeModel(plan, 'flat', state({ id: 'a', status: 'completed', attempts: 2, diagnosis: failure }))[0]!.tooltip;
    assert.match(diagnosed, /^An earlier attempt failed: Check 1/m);
    assert.doesNotMatch(diagnosed, /^Diagnosis:/m);
  });

  it('explains what each dependency level holds', () => {
    const levels = planTreeModel(detailed, 'levels');
    assert.deepEqual(levels.map((node) => [node.id, node.tooltip, node.icon, node.contextValue]), [
      ['level:0', 'Steps with no dependencies', 'layers', 'level'],
      ['level:1', 'Steps whose dependencies are all in earlier levels', 'layers', 'level'],
    ]);
  });
});

describe('spokenRow', () => {
  it('says the label, then each part of the description, then the rest, skipping blank parts', () => {
    assert.equal(spokenRow('1. Read', 'read_file · running', undefined, '  ', 'waiting for you'), '1. Read, read_file, running, waiting for you');
  });
});
