import assert from 'node:assert/strict';
import { z } from 'zod';
import { foldRunEvents } from '../../../../src/core/engine/reduceRunEvent';
import type { RunEvent, RunEventBody } from '../../../../src/core/engine/runEvents';
import { critiquePlan } from '../../../../src/core/plan/critiquePlan';
import { validatePlan } from '../../../../src/core/plan/validatePlan';
import { buildPanelViewModel } from '../../../../src/core/view/buildPanelViewModel';
import { diffPlans } from '../../../../src/core/view/planDiff';
import { runTimeline } from '../../../../src/core/view/runTimeline';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import type { Tool, ToolEffect } from '../../../../src/core/tools/tool';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan = makePlan([
  makeStep('read', { title: 'Read', kind: 'tool', tool: 'read_file', args: { path: 'a.txt' }, agent: undefined, input: undefined }),
  makeStep('list', { title: 'List', kind: 'tool', tool: 'list_files', args: {}, agent: undefined, input: undefined }),
  makeStep('sum', { title: 'Summarise', dependsOn: ['read', 'list'], verification: 'result.length > 0', maxAttempts: 2, onFailure: 'retry' }),
]);
const review = () => ({ plan, critique: critiquePlan(plan), diagnostics: validatePlan(plan, { tools: ['read_file', 'list_files'] }), tools: ['read_file', 'list_files'] });

function events(bodies: (RunEventBody & { time: number })[]): RunEvent[] {
  return bodies.map((body, index) => ({ ...body, runId: 'run-1', seq: index + 1 }));
}

describe('buildPanelViewModel', () => {
  it('is empty without a plan', () => {
    assert.deepEqual(buildPanelViewModel(undefined), { mode: 'empty' });
  });

  it('reviews a plan: steps with runner, args, dependencies, policy and verification; critic score', () => {
    const body = buildPanelViewModel(review());
    assert.equal(body.mode, 'review');
    if (body.mode !== 'review') return;
    const { review: view } = body;
    assert.equal(view.planVersion, 1);
    assert.equal(view.score, critiquePlan(plan).score);
    assert.deepEqual(view.steps.map((step) => [step.index, step.id, step.runner]), [[0, 'read', 'read_file'], [1, 'list', 'list_files'], [2, 'sum', 'agent: default']]);
    assert.equal(view.steps[0]!.args, 'path: a.txt');
    assert.deepEqual(view.steps[2]!.dependsOn, ['read', 'list']);
    assert.equal(view.steps[2]!.verification, 'result.length > 0');
    assert.equal(view.steps[2]!.onFailure, 'retry');
    assert.equal(view.startBlockedReason, undefined);
    assert.deepEqual(view.tools, ['read_file', 'list_files']);
  });

  it('blocks Start with the first error, and attaches step problems', () => {
    const broken = makePlan([makeStep('a', { dependsOn: ['ghost'] })]);
    const body = buildPanelViewModel({ plan: broken, critique: critiquePlan(broken), diagnostics: validatePlan(broken) });
    assert.ok(body.mode === 'review');
    assert.match(body.review.startBlockedReason ?? '', /Fix the error first: .*ghost/);
    assert.match(body.review.steps[0]!.problems[0] ?? '', /^Error: .*ghost/);
  });

  it('says how many steps are yours to do and how many run by themselves (skipped steps left out)', () => {
    const manual = (id: string, patch = {}) => makeStep(id, { kind: 'manual', agent: undefined, input: `do ${id}`, ...patch });
    const summary = (steps: ReturnType<typeof makeStep>[]) => {
      const mixed = makePlan(steps);
      const body = buildPanelViewModel({ plan: mixed, critique: critiquePlan(mixed), diagnostics: [], regenerateBlockedReason: 'No model.' });
      assert.ok(body.mode === 'review');
      return body.review.manualSummary;
    };
    assert.equal(summary([manual('a'), manual('b'), manual('c'), plan.steps[0]!, plan.steps[1]!]), '3 steps are yours to do; 2 steps run by themselves. Set up a model to let agents do your steps.');
    assert.equal(summary([manual('a'), plan.steps[0]!, manual('b', { skipped: true })]), '1 step is yours to do; 1 step runs by itself. Set up a model to let agents do your steps.');
    assert.equal(summary([manual('a'), manual('b')]), '2 steps are yours to do. Set up a model to let agents do your steps.');
    assert.equal(summary([...plan.steps]), undefined);
    const body = buildPanelViewModel({ plan: makePlan([manual('a')]), critique: critiquePlan(makePlan([manual('a')])), diagnostics: [] });
    assert.ok(body.mode === 'review');
    assert.equal(body.review.steps[0]!.runner, 'you');
  });

  it('blocks Start when every step is skipped', () => {
    const skipped = makePlan([makeStep('a', { skipped: true })]);
    const body = buildPanelViewModel({ plan: skipped, critique: critiquePlan(skipped), diagnostics: [] });
    assert.ok(body.mode === 'review');
    assert.match(body.review.startBlockedReason ?? '', /Every step is skipped/);
  });

  it('shows what Regenerate changed', () => {
    const next = makePlan([plan.steps[1]!, { ...plan.steps[0]!, title: 'Read again' }, makeStep('new')], { version: 2 });
    const body = buildPanelViewModel({ ...review(), plan: next, previousPlan: plan });
    assert.ok(body.mode === 'review');
    assert.deepEqual(body.review.changes, {
      fromVersion: 1,
      toVersion: 2,
      added: ['new'],
      removed: ['sum'],
      changed: [{ id: 'read', fields: ['title', 'position'] }, { id: 'list', fields: ['position'] }],
      objectiveChanged: false,
    });
  });

  it('builds the run view: statuses, attempts, diagnoses, pending requests, timeline lanes and summary', () => {
    const state = foldRunEvents(
      events([
        { type: 'run_started', plan, time: 1000 },
        { type: 'step_started', stepId: 'read', attempt: 1, time: 1000 },
        { type: 'step_started', stepId: 'list', attempt: 1, time: 1010 },
        { type: 'step_completed', stepId: 'read', result: 'hello', time: 1100 },
        { type: 'step_completed', stepId: 'list', result: ['a.txt'], time: 1200 },
        { type: 'step_started', stepId: 'sum', attempt: 1, time: 1200 },
        { type: 'verification_failed', stepId: 'sum', attempt: 1, diagnosis: 'empty result', time: 1250 },
        { type: 'step_failed', stepId: 'sum', attempt: 1, error: 'verification failed', disposition: 'retry', time: 1250 },
        { type: 'step_started', stepId: 'sum', attempt: 2, time: 1300 },
        { type: 'approval_requested', stepId: 'sum', request: { id: 'sum@1', fingerprint: 'f', stepId: 'sum', kind: 'approval', prompt: 'Write x?' }, time: 1310 },
      ]),
    );
    const live = buildPanelViewModel(review(), { state, now: 1400 });
    assert.ok(live.mode === 'run');
    const run = live.run;
    assert.equal(run.status, 'running');
    assert.equal(run.elapsedMs, 400);
    assert.deepEqual(run.progress, { total: 3, completed: 2, failed: 0, rejected: 0, skipped: 0, notNeeded: 0, doneInSource: 0 });
    assert.deepEqual(run.steps.map((step) => [step.id, step.status, step.attempts]), [['read', 'completed', 1], ['list', 'completed', 1], ['sum', 'awaiting_approval', 2]]);
    assert.equal(run.steps[2]!.diagnosis, 'empty result');
    assert.equal(run.steps[1]!.resultPreview, '["a.txt"]');
    assert.deepEqual(run.pending, [{ stepId: 'sum', kind: 'approval', prompt: 'Write x?' }]);
    assert.equal(run.focusStepId, 'sum');
    assert.equal(run.timeline.lanes, 2);
    assert.deepEqual(run.timeline.bars.map((bar) => [bar.stepId, bar.lane, bar.startMs, bar.endMs]), [['read', 0, 0, 100], ['list', 1, 10, 200], ['sum', 0, 200, 400]], 'a retried step\'s bar starts at its first attempt');
    assert.equal(run.summary, undefined);

    const finished = foldRunEvents(events([{ type: 'step_completed', stepId: 'sum', result: 'done', time: 1500 }, { type: 'run_completed', time: 1500 }]).map((event, index) => ({ ...event, seq: state.lastSeq + index + 1 })), state);
    const end = buildPanelViewModel(review(), { state: finished, now: 9999, changedFiles: ['notes.md'], usage: { requests: 2, promptTokens: 10, completionTokens: 5, totalTokens: 15, cachedTokens: 0, costUsd: 0.001, savedUsd: 0, unpricedRequests: 0 } });
    assert.ok(end.mode === 'run');
    assert.equal(end.run.elapsedMs, 500);
    // Its two attempts and the time between them: 1200 to 1500 (the last attempt alone took 200 ms).
    assert.equal(end.run.steps.find((step) => step.id === 'sum')?.durationMs, 300);
    assert.equal(end.run.steps.find((step) => step.id === 'read')?.durationMs, 100);
    assert.deepEqual(end.run.summary, {
      status: 'completed',
      durationMs: 500,
      changedFiles: ['notes.md'],
      undoneFiles: [],
      ranCommands: false,
      doneByYou: false,
      canUndo: true,
      canResume: false,
      stepLines: [
        { id: 'read', title: 'Read', status: 'completed', line: 'hello' },
        { id: 'list', title: 'List', status: 'completed', line: '["a.txt"]' },
        {
          id: 'sum',
          title: 'Summarise',
          status: 'completed',
          line: 'after 2 attempts: done',
          earlier: 'attempt 1 failed: verification failed',
          checks: 'passed: verification result.length > 0',
        },
      ],
      moreSteps: 0,
      failures: [],
      moreFailures: 0,
    });
    assert.deepEqual(end.run.usage, { requests: 2, totalTokens: 15, cachedTokens: 0, costUsd: 0.001, savedUsd: 0, unpricedRequests: 0 });
    const undone = buildPanelViewModel(review(), { state: finished, now: 9999, changedFiles: ['notes.md'], undoMessage: 'Restored 1 file.' });
    assert.ok(undone.mode === 'run');
    assert.equal(undone.run.summary?.canUndo, false);
  });
  it('shows tool arguments as text: strings as they are, a multi-line string as a block, other values as JSON', () => {
    const write = makePlan([makeStep('W1', { kind: 'tool', tool: 'write_file', args: { path: 'notes.md', content: '# Notes\n\n"quoted" and \\ back\n' }, agent: undefined, input: undefined })]);
    const body = buildPanelViewModel({ plan: write, critique: critiquePlan(write), diagnostics: [], tools: ['write_file'] });
    assert.ok(body.mode === 'review');
    assert.deepEqual(body.review.steps[0]!.arguments, [
      { name: 'path', text: 'notes.md', block: false },
      { name: 'content', text: '# Notes\n\n"quoted" and \\ back\n', block: true },
    ]);
    const command = makePlan([makeStep('C1', { kind: 'tool', tool: 'run_command', args: { argv: ['npm', 'test'], timeoutMs: 5000 }, agent: undefined, input: undefined })]);
    const run = buildPanelViewModel({ plan: command, critique: critiquePlan(command), diagnostics: [], tools: ['run_command'] });
    assert.ok(run.mode === 'review');
    assert.deepEqual(run.review.steps[0]!.arguments, [
      { name: 'argv', text: '["npm","test"]', block: false },
      { name: 'timeoutMs', text: '5000', block: false },
    ]);
  });

  it("shows a value holding objects (edit_file's edits) as YAML, one entry to a line, a text of several lines under |", () => {
    const edit = makePlan([
      makeStep('E1', {
        kind: 'tool',
        tool: 'edit_file',
        args: { path: 'notes.txt', edits: [{ search: 'alpha', replace: 'ALPHA' }, { search: 'one\ntwo', replace: 'ONE\nTWO' }], options: { dryRun: false } },
        agent: undefined,
        input: undefined,
      }),
    ]);
    const body = buildPanelViewModel({ plan: edit, critique: critiquePlan(edit), diagnostics: [], tools: ['edit_file'] });
    assert.ok(body.mode === 'review');
    assert.deepEqual(body.review.steps[0]!.arguments, [
      { name: 'path', text: 'notes.txt', block: false },
      { name: 'edits', text: '- search: alpha\n  replace: ALPHA\n- search: |-\n    one\n    two\n  replace: |-\n    ONE\n    TWO', block: true },
      { name: 'options', text: 'dryRun: false', block: false },
    ]);
  });

  it('marks the steps that ask for approval by what their tool declares it does, the built-in tools without a registry', () => {
    const named = (name: string, effects: ToolEffect): Tool => ({ name, description: name, inputSchema: z.unknown(), effects, run: () => Promise.resolve(null) });
    const steps = ['scribble', 'peek', 'write_file', 'create_directory', 'run_command', 'read_file'].map((tool) => makeStep(tool, { kind: 'tool', tool, args: {}, agent: undefined, input: undefined }));
    const asking = (tools?: ReturnType<typeof createToolRegistry>): string[] => {
      const body = buildPanelViewModel({ plan: makePlan(steps), critique: critiquePlan(makePlan(steps)), diagnostics: [], ...(tools ? { tools } : {}) });
      assert.ok(body.mode === 'review');
      return body.review.steps.filter((step) => step.approval === 'asks').map((step) => step.id);
    };
    assert.deepEqual(asking(createToolRegistry([named('scribble', 'write'), named('peek', 'read'), named('write_file', 'read'), named('run_command', 'command')])), ['scribble', 'run_command']);
    assert.deepEqual(asking(), ['write_file', 'create_directory', 'run_command']);
    const registry = createToolRegistry([named('peek', 'read'), named('scribble', 'write')]);
    const body = buildPanelViewModel({ plan: makePlan(steps), critique: critiquePlan(makePlan(steps)), diagnostics: [], tools: registry });
    assert.ok(body.mode === 'review');
    assert.deepEqual(body.review.tools, ['peek', 'scribble']);
  });

  it('counts no failed or skipped step as done: a run where nothing completed says so', () => {
    const state = foldRunEvents(
      events([
        { type: 'run_started', plan, time: 1000 },
        { type: 'step_started', stepId: 'read', attempt: 1, time: 1000 },
        { type: 'step_failed', stepId: 'read', attempt: 1, error: 'no such file', disposition: 'fail', time: 1100 },
        { type: 'step_skipped', stepId: 'list', reason: 'Rejected by the user', time: 1100 },
        { type: 'step_skipped', stepId: 'sum', reason: 'its dependency read failed', time: 1100 },
        { type: 'run_failed', reason: 'read failed', time: 1100 },
      ]),
    );
    const body = buildPanelViewModel(review(), { state, now: 1200 });
    assert.ok(body.mode === 'run');
    assert.deepEqual(body.run.progress, { total: 3, completed: 0, failed: 1, rejected: 1, skipped: 1, notNeeded: 0, doneInSource: 0 });
  });
});

describe('runTimeline', () => {
  it('packs bars onto the fewest lanes; steps starting together never share one', () => {
    const timeline = runTimeline(
      [
        { stepId: 'a', title: 'a', status: 'completed', startedAt: 0, endedAt: 0 },
        { stepId: 'b', title: 'b', status: 'completed', startedAt: 0, endedAt: 50 },
        { stepId: 'c', title: 'c', status: 'running', startedAt: 50 },
        { stepId: 'd', title: 'd', status: 'pending' },
      ],
      0,
      80,
    );
    assert.deepEqual(timeline.bars.map((bar) => [bar.stepId, bar.lane, bar.endMs]), [['a', 0, 0], ['b', 1, 50], ['c', 0, 80]]);
    assert.equal(timeline.lanes, 2);
    assert.equal(timeline.spanMs, 80);
  });
});

describe('diffPlans', () => {
  it('notices a changed objective', () => {
    assert.equal(diffPlans(plan, { ...plan, objective: 'other', version: 2 }).objectiveChanged, true);
  });
});

describe('buildPanelViewModel: steps that need a model when none is set up', () => {
  const mixed = makePlan([
    makeStep('A1', { input: 'Summarise the notes' }),
    makeStep('R1', { kind: 'tool', tool: 'read_file', args: { path: 'README.md' }, agent: undefined, input: undefined }),
    makeStep('G1', { kind: 'synthesis_gate', dependsOn: ['A1'] }),
    makeStep('A2', { skipped: true }),
  ]);
  const source = (regenerateBlockedReason?: string) => ({
    plan: mixed,
    critique: critiquePlan(mixed),
    diagnostics: validatePlan(mixed, { tools: ['read_file'] }),
    tools: ['read_file'],
    ...(regenerateBlockedReason === undefined ? {} : { regenerateBlockedReason }),
  });

  it('blocks Start with one notice naming the steps (skipped ones left out) and what to do', () => {
    const body = buildPanelViewModel(source('Regenerate needs a language model.'));
    assert.equal(body.mode, 'review');
    if (body.mode !== 'review') return;
    assert.deepEqual(body.review.modelNeeded?.stepIds, ['A1', 'G1']);
    assert.match(body.review.modelNeeded?.message ?? '', /2 steps \(A1, G1\) need a language model and none is set up\. Do them yourself, or set up a model\./);
    assert.equal(body.review.startBlockedReason, body.review.modelNeeded?.message);
  });

  it('says nothing and lets Start run when a model is available', () => {
    const body = buildPanelViewModel(source());
    if (body.mode !== 'review') assert.fail('expected a review');
    assert.equal(body.review.modelNeeded, undefined);
    assert.equal(body.review.startBlockedReason, undefined);
  });
});
