import assert from 'node:assert/strict';
import { summaryLimits } from '../../../../src/core/view/runSummary';
import type { RunState } from '../../../../src/core/engine/runEvents';
import type { ReplanRecord } from '../../../../src/core/engine/replanRecord';
import { buildPanelViewModel } from '../../../../src/core/view/buildPanelViewModel';
import { resultPreviewLength, type RunSource } from '../../../../src/core/view/runViewModel';
import type { RunView } from '../../../../src/shared/panelViewModel';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan = makePlan([
  makeStep('A', { title: 'Read', kind: 'tool', tool: 'read_file', agent: undefined, maxAttempts: 2 }),
  makeStep('B', { title: 'Think' }),
  makeStep('C', { title: 'Ask', kind: 'clarification', agent: undefined }),
  makeStep('D', { title: 'Later' }),
]);
const usage = (requests: number) => ({
  requests,
  promptTokens: 10 * requests,
  completionTokens: 5 * requests,
  totalTokens: 15 * requests,
  cachedTokens: 4 * requests,
  costUsd: 0.01 * requests,
  savedUsd: 0.001 * requests,
  unpricedRequests: 1,
});

function state(patch: Partial<RunState> = {}): RunState {
  return {
    runId: 'run-1',
    status: 'failed',
    plan,
    results: {},
    supplied: {},
    lastSeq: 9,
    warnings: [],
    resumeCount: 0,
    startedAt: 1_000,
    endedAt: 1_900,
    steps: {
      A: {
        id: 'A',
        status: 'completed',
        attempts: 2,
        startedAt: 1_100,
        endedAt: 1_300,
        durationMs: 200,
        result: 'x'.repeat(resultPreviewLength + 50),
        diagnosis: 'second try passed',
      },
      B: { id: 'B', status: 'failed', attempts: 1, startedAt: 1_300, endedAt: 1_500, error: 'boom', result: 'partial' },
      C: { id: 'C', status: 'skipped', attempts: 0, reason: 'B failed' },
    },
    ...patch,
  };
}

function runOf(source: Partial<RunSource> = {}): RunView {
  const body = buildPanelViewModel(undefined, { state: state(), now: 5_000, ...source });
  assert.ok(body.mode === 'run');
  return body.run;
}

describe('buildPanelViewModel: the run the panel shows', () => {
  it('says on a step revising a change you rejected what you said, until it ends (a trial saw only "turn 2 of 12: edit_file")', () => {
    const revising = state({ status: 'running', steps: { ...state().steps, B: { id: 'B', status: 'running', attempts: 1, feedback: 'Keep the search command', progress: 'turn 2 of 12: edit_file' } } });
    assert.equal(runOf({ state: revising }).steps.find((step) => step.id === 'B')?.feedback, 'Keep the search command');
    const ended = state({ steps: { ...state().steps, B: { id: 'B', status: 'failed', attempts: 1, feedback: 'Keep the search command', error: 'boom' } } });
    assert.equal(runOf({ state: ended }).steps.find((step) => step.id === 'B')?.feedback, undefined);
  });

  it('says a run\'s repairs and resumes under its heading, not the status, counts and model use its header says (said three times at the top, a trial)', () => {
    const ended = runOf({ state: state({ resumeCount: 1, replanHistory: [] }), replans: [] });
    assert.equal(ended.summary?.notes, 'Resumed once.');
    const repair = (replan: number): ReplanRecord => ({
      replan, failedRunId: 'run-1', stepIds: ['B'], reason: 'B failed', startedAt: 0, endedAt: 1, keptStepIds: ['A'], newStepIds: [`B${replan}`], repaired: false, planVersion: replan + 1, trials: [],
    });
    const repaired = runOf({ state: state({ resumeCount: 2, modelUsage: usage(3) }), replans: [repair(1), repair(2)] });
    assert.equal(repaired.summary?.notes, '2 repair plans; resumed 2 times.');
    assert.doesNotMatch(JSON.stringify(repaired.summary), /tokens|failed in|of 3 steps/, 'the header says these');
    assert.equal(runOf().summary?.notes, undefined);
  });

  it("says in the run's summary which files tools kept from the model, and nothing when none was", () => {
    assert.equal(runOf({ state: state({ withheldFiles: ['.env', '.git/config'] }) }).summary?.keptFromModel, 'Kept from the model: .env (a credentials file), .git/config (inside .git)');
    assert.equal(runOf().summary && 'keptFromModel' in runOf().summary!, false);
  });

  it('says a step that did not finish in a cancelled or interrupted run is not finished, and the steps that ended as they ended', () => {
    const labels = (status: RunState['status']) => runOf({ state: state({ status }) }).steps.map((step) => step.statusLabel);
    assert.deepEqual(labels('cancelled'), [undefined, undefined, undefined, 'not finished (run cancelled)']);
    assert.deepEqual(labels('interrupted'), [undefined, undefined, undefined, 'not finished (run interrupted)']);
    assert.deepEqual(labels('failed'), [undefined, undefined, undefined, undefined]);
  });

  it('shows each step with its times relative to the run start, its outcome, and a preview of a completed result only', () => {
    const run = runOf();
    assert.deepEqual(run.steps, [
      {
        id: 'A',
        title: 'Read',
        kind: 'tool',
        runner: 'read_file',
        status: 'completed',
        attempts: 2,
        maxAttempts: 2,
        startMs: 100,
        endMs: 300,
        durationMs: 200,
        diagnosis: 'second try passed',
        resultPreview: `${'x'.repeat(resultPreviewLength)}… (50 more characters)`,
      },
      {
        id: 'B',
        title: 'Think',
        kind: 'agent',
        runner: 'agent: default',
        status: 'failed',
        attempts: 1,
        maxAttempts: 1,
        startMs: 300,
        endMs: 500,
        error: 'boom',
      },
      { id: 'C', title: 'Ask', kind: 'clarification', runner: 'clarification', status: 'skipped', attempts: 0, maxAttempts: 1, reason: 'B failed' },
      { id: 'D', title: 'Later', kind: 'agent', runner: 'agent: default', status: 'pending', attempts: 0, maxAttempts: 1 },
    ]);
    assert.deepEqual([run.runId, run.status, run.objective, run.planVersion, run.elapsedMs], ['run-1', 'failed', 'test objective', 1, 900]);
    assert.deepEqual(
      run.timeline.bars.map((bar) => [bar.stepId, bar.startMs, bar.endMs, bar.status]),
      [
        ['A', 100, 300, 'completed'],
        ['B', 300, 500, 'failed'],
      ],
    );
    assert.equal(run.timeline.spanMs, 900, 'an ended run spans to its end, not to now');
  });

  // From a newcomer's trial: "The window was closed or reloaded during the run; resume it to go on." and no button to.
  it('offers Resume for a run that stopped before its end (a reload, a cancel), not for an ended one nor once Undo ran', () => {
    for (const [status, resumable] of [['interrupted', true], ['cancelled', true], ['failed', false], ['completed', false], ['partial', false]] as const) {
      assert.equal(runOf({ state: state({ status }) }).summary?.canResume, resumable, status);
    }
    const undone = runOf({ state: state({ status: 'interrupted' }), undoMessage: 'Restored a.md.' });
    assert.equal(undone.summary?.canResume, false);
  });

  // A second trial: "running · 4 of 5 steps completed, 1 failed" with the failed step's advice to fix it read as the user's to do.
  it('says the run asks the model for a repair plan while it goes on with only steps that asked for one failed, nothing under way', () => {
    const asking = state({ status: 'running' });
    const failedSteps = Object.values(asking.steps).filter((step) => step.status === 'failed');
    assert.ok(failedSteps.length > 0, 'the fixture has no failed step: the test proves nothing');
    for (const step of failedSteps) step.replanRequested = true;
    const underWay = Object.values(asking.steps).filter((step) => step.status === 'running' || step.status.startsWith('awaiting'));
    for (const step of underWay) step.status = 'pending';
    assert.equal(runOf({ state: asking }).activity, `asking the model for a repair plan for ${failedSteps.map((step) => step.id).join(', ')}`);
    assert.equal(runOf({ state: { ...asking, status: 'failed' } }).activity, undefined, 'ended');
    const first = Object.values(asking.steps).find((step) => step.status !== 'failed')!;
    const running = { ...asking, steps: { ...asking.steps, [first.id]: { ...first, status: 'running' as const } } };
    assert.equal(runOf({ state: running }).activity, undefined, 'a step under way: the run is at work, not asking');
  });

  it('offers Resume for a failed run whose steps asked for a repair plan that never came (a cancel while the model was asked)', () => {
    const asking = state();
    const failedSteps = Object.values(asking.steps).filter((step) => step.status === 'failed');
    assert.ok(failedSteps.length > 0, 'the fixture has no failed step: the test proves nothing');
    for (const step of failedSteps) step.replanRequested = true;
    assert.equal(runOf({ state: asking }).summary?.canResume, true);
    assert.equal(runOf({ state: { ...asking, repairGivenUp: true } }).summary?.canResume, false, 'a replan_failed line says none will come');
  });

  it('sums up an ended run: counts, reason, duration, every changed file once, and Undo while nothing was undone', () => {
    const run = runOf({ state: state({ reason: 'B failed', changedFiles: ['a.md', 'b.md'] }), changedFiles: ['b.md', 'c.md'] });
    assert.deepEqual(run.summary, {
      status: 'failed',
      reason: 'B failed',
      durationMs: 900,
      changedFiles: ['a.md', 'b.md', 'c.md'],
      undoneFiles: [],
      ranCommands: false,
      doneByYou: false,
      canUndo: true,
      canResume: false,
      stepLines: [
        {
          id: 'A',
          title: 'Read',
          status: 'completed',
          line: `after 2 attempts: ${'x'.repeat(summaryLimits.line - 1 - 'after 2 attempts: '.length)}…`,
          earlier: 'attempt 1 failed: second try passed',
        },
        { id: 'B', title: 'Think', status: 'failed', line: 'failed: boom' },
        { id: 'C', title: 'Ask', status: 'skipped', line: 'skipped: B failed' },
        { id: 'D', title: 'Later', status: 'pending', line: 'pending' },
      ],
      moreSteps: 0,
      failures: [{ stepId: 'B', title: 'Think', error: 'boom' }],
      moreFailures: 0,
    });
    const undone = runOf({ state: state({ changedFiles: ['a.md'] }), undoMessage: 'Restored a.md.' });
    assert.deepEqual([undone.summary?.canUndo, undone.summary?.undoMessage], [false, 'Restored a.md.']);
    assert.equal(runOf().summary?.canUndo, false, 'nothing changed, nothing to undo');
    // Whether a step ran a command: only then can files have changed that the summary does not list (it said so of every run).
    const base = state();
    const ranOne = runOf({ state: { ...base, steps: { ...base.steps, B: { ...base.steps.B!, commandsStarted: ['["make"]@'] } } } });
    assert.deepEqual([runOf().summary?.ranCommands, ranOne.summary?.ranCommands], [false, true]);
    // A newcomer edited a file by hand for a step of theirs, marked it done, and read "No file was changed."
    const yours = makePlan([makeStep('Y', { kind: 'manual', agent: undefined, title: 'Edit cli.py yourself' })]);
    const doneByYou = runOf({ state: state({ plan: yours, steps: { Y: { id: 'Y', status: 'completed', attempts: 1 } } }) });
    assert.deepEqual([runOf().summary?.doneByYou, doneByYou.summary?.doneByYou], [false, true]);
  });

  it('bounds the reason of an ended run as the summary does: a failed command\'s whole output is not the headline (issue 28 walked again)', () => {
    const output = Array.from({ length: 200 }, (_, index) => `# Subtest: case ${index}`).join('\n');
    const run = runOf({ state: state({ reason: `Critical step Z failed: Command npm test exited with code 1.\n${output}` }) });
    const reason = run.summary?.reason ?? '';
    assert.ok(reason.length <= summaryLimits.reason, `a reason of ${reason.length} characters`);
    assert.match(reason, /^Critical step Z failed: Command npm test exited with code 1\.\n# Subtest: case 0\n/);
    // A critical step whose failure the summary lists: the reason names the step, and the output is said once, under Failures.
    const listed = runOf({ state: state({ reason: `Critical step B failed: boom\n${output}` }) });
    assert.equal(listed.summary?.reason, 'Critical step B failed.');
    assert.deepEqual(listed.summary?.failures, [{ stepId: 'B', title: 'Think', error: 'boom' }]);
  });

  it('after Undo from a step: its steps say their changes are undone, offer no Undo from here, and their files leave the summary (issue 26)', () => {
    const base = state({ changedFiles: ['a.md', 'b.md'] });
    const withFiles = { ...base, steps: { ...base.steps, A: { ...base.steps.A!, filesChanged: ['a.md'] }, B: { ...base.steps.B!, filesChanged: ['b.md'] } } };
    const run = runOf({ state: withFiles, undoMessage: 'From step B: Undo restored 1 file.', undone: { steps: new Set(['B']), paths: new Set(['b.md']), anyLeft: true } });
    const [a, b] = run.steps;
    assert.deepEqual([a?.changedFiles, a?.changesUndone], [1, undefined]);
    assert.deepEqual([b?.changedFiles, b?.changesUndone], [undefined, true]);
    assert.deepEqual(run.summary?.changedFiles, ['a.md']);
    assert.deepEqual(run.summary?.undoneFiles, ['b.md']);
    assert.equal(run.summary?.canUndo, true, 'what is still changed can be undone');
    assert.match(run.summary?.stepLines[1]?.line ?? '', / · changed b\.md, since undone$/);
    assert.doesNotMatch(run.summary?.stepLines[0]?.line ?? '', /undone/);
    assert.equal(run.summary?.notes, undefined, "no repair or resume to say beside the header's counts");
    const all = runOf({ state: withFiles, undoMessage: 'Undo restored 1 file.', undone: { steps: new Set(['A', 'B']), paths: new Set(['a.md', 'b.md']), anyLeft: false } });
    assert.deepEqual([all.summary?.changedFiles, all.summary?.undoneFiles, all.summary?.canUndo], [[], ['a.md', 'b.md'], false]);
    // The header says it, as the Runs view and the CLI's runs do (a newcomer's trial read "completed 4 of 4" after Undo run).
    assert.deepEqual([all.undone, run.undone, runOf({ state: withFiles }).undone], ['all', 'some', undefined]);
    // Opened again later: no message of the Undo, and the files it put back are named (it read "No file was changed").
    const reopened = runOf({ state: withFiles, undone: { steps: new Set(['A', 'B']), paths: new Set(['a.md', 'b.md']), anyLeft: false } });
    assert.deepEqual([reopened.summary?.changedFiles, reopened.summary?.undoneFiles, reopened.summary?.canUndo], [[], ['a.md', 'b.md'], false]);
    assert.ok(all.steps.slice(0, 2).every((step) => step.changesUndone === true && step.changedFiles === undefined));
  });

  it('counts the files each step changed, for its Undo from here, and says nothing of a step that changed none', () => {
    const base = state();
    const run = runOf({
      state: state({ steps: { ...base.steps, A: { ...base.steps.A!, filesChanged: ['a.md', 'b.md'] }, B: { ...base.steps.B!, filesChanged: [] } } }),
    });
    assert.deepEqual(run.steps.map((step) => step.changedFiles), [2, undefined, undefined, undefined]);
    assert.equal('changedFiles' in run.steps[1]!, false);
  });

  it('measures a running run up to now, without a summary, and focuses the latest started active step', () => {
    const running = state({
      status: 'running',
      endedAt: undefined,
      steps: {
        A: { id: 'A', status: 'running', attempts: 1, startedAt: 1_100, progress: 'running pytest -q', percent: 40 },
        B: {
          id: 'B',
          status: 'awaiting_approval',
          attempts: 1,
          startedAt: 1_200,
          pending: { id: 'B@1', fingerprint: 'f', stepId: 'B', kind: 'approval', prompt: 'write a.md' },
        },
        C: { id: 'C', status: 'completed', attempts: 1, startedAt: 1_300, endedAt: 1_400 },
      },
    });
    const run = runOf({ state: running });
    assert.deepEqual([run.elapsedMs, 'summary' in run, run.focusStepId], [4_000, false, 'B']);
    assert.deepEqual(
      run.steps.map((step) => [step.progress, step.percent]),
      [['running pytest -q', 40], [undefined, undefined], [undefined, undefined], [undefined, undefined]],
      'a running step says where it stands, and how far when its work says it',
    );
    assert.deepEqual(run.pending, [{ stepId: 'B', kind: 'approval', prompt: 'write a.md' }]);
    assert.equal(run.timeline.bars.find((bar) => bar.stepId === 'A')?.endMs, 4_000);
  });

  it('focuses the latest started step when none is active, and nothing when none started', () => {
    assert.equal(runOf().focusStepId, 'B');
    const same = state({
      steps: { A: { id: 'A', status: 'completed', attempts: 1, startedAt: 1_100 }, B: { id: 'B', status: 'completed', attempts: 1, startedAt: 1_100 } },
    });
    assert.equal(runOf({ state: same }).focusStepId, 'B', 'of two started together, the later in the plan');
    assert.ok(!('focusStepId' in runOf({ state: state({ steps: {} }) })));
  });

  it('times a run without a recorded start from now, and an ended run without an end to now', () => {
    assert.equal(runOf({ state: state({ startedAt: undefined, endedAt: undefined, steps: {} }) }).elapsedMs, 0);
    assert.equal(runOf({ state: state({ endedAt: undefined }) }).elapsedMs, 4_000);
  });

  it('shows the model use the journal or the host counted, whichever saw more calls, and none without calls', () => {
    assert.deepEqual(runOf({ state: state({ modelUsage: usage(3) }), usage: usage(2) }).usage, {
      requests: 3,
      totalTokens: 45,
      cachedTokens: 12,
      costUsd: 0.03,
      savedUsd: 0.003,
      unpricedRequests: 1,
    });
    assert.deepEqual(runOf({ state: state({ modelUsage: usage(1) }), usage: usage(2) }).usage, {
      requests: 2,
      totalTokens: 30,
      cachedTokens: 8,
      costUsd: 0.02,
      savedUsd: 0.002,
      unpricedRequests: 1,
    });
    assert.deepEqual(runOf({ usage: usage(2) }).usage?.requests, 2);
    assert.ok(!('usage' in runOf({ state: state({ modelUsage: usage(0) }) })));
    assert.ok(!('usage' in runOf()));
  });

  it('lists the replans with their trials, and the last 20 warnings', () => {
    const record: ReplanRecord = {
      replan: 1,
      failedRunId: 'run-0',
      stepIds: ['B'],
      reason: 'B failed twice',
      startedAt: 0,
      endedAt: 1,
      keptStepIds: ['A'],
      newStepIds: ['B2'],
      repaired: false,
      planVersion: 2,
      trials: [
        { stepId: 'B', title: 'Think', approach: 'agent default', attempt: 1, output: 'long output', error: 'boom', time: 0, durationMs: 5 },
        { stepId: 'B', title: 'Think', approach: 'agent default', attempt: 2, output: '', error: 'boom', diagnosis: 'empty', time: 0, durationMs: 5 },
      ],
    };
    // A retry of another step that then passed is not shown as part of this repair (a trial read it so).
    const withRetry = { ...record, trials: [{ stepId: 'A', title: 'Read', approach: 'agent default', attempt: 1, output: '', error: 'flaky', time: 0, durationMs: 5 }, ...record.trials] };
    assert.deepEqual(runOf({ state: state(), replans: [withRetry] }).replans[0]?.trials.map((trial) => trial.stepId), ['B', 'B']);
    const warnings = Array.from({ length: 25 }, (_, index) => `warning ${index}`);
    const run = runOf({ state: state({ warnings }), replans: [record] });
    assert.deepEqual(run.replans, [{ replan: 1, reason: 'B failed twice', stepIds: ['B'], keptStepIds: ['A'], newStepIds: ['B2'], planVersion: 2, trials: [
      { stepId: 'B', attempt: 1, approach: 'agent default', error: 'boom' },
      { stepId: 'B', attempt: 2, approach: 'agent default', error: 'boom', diagnosis: 'empty' },
    ] }]);
    assert.deepEqual(run.warnings, warnings.slice(5));
    assert.deepEqual(runOf().replans, []);
  });

  it('keeps the steps a repair replaced, with their outcome and plan version, apart from the steps now run (issue 28 item 5)', () => {
    const failedB = makeStep('B', { title: 'Think' });
    const run = runOf({ state: state({ replacedSteps: [{ planVersion: 1, step: failedB, state: { id: 'B', status: 'failed', attempts: 2, error: 'boom', startedAt: 1_100, endedAt: 1_300 } }] }) });
    assert.equal(run.replacedSteps?.length, 1);
    assert.deepEqual(
      { id: run.replacedSteps?.[0]?.id, status: run.replacedSteps?.[0]?.status, error: run.replacedSteps?.[0]?.error, planVersion: run.replacedSteps?.[0]?.planVersion },
      { id: 'B', status: 'failed', error: 'boom', planVersion: 1 },
    );
    assert.equal(runOf().replacedSteps, undefined);
  });

  it('shows the review when the run has no plan yet', () => {
    assert.deepEqual(buildPanelViewModel(undefined, { state: state({ plan: undefined }), now: 0 }), { mode: 'empty' });
  });
});
