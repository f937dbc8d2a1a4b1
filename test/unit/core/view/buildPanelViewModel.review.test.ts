import assert from 'node:assert/strict';
import type { Critique } from '../../../../src/core/plan/critiquePlan';
import type { Diagnostic, Plan } from '../../../../src/core/plan/planSchema';
import { buildPanelViewModel, type ReviewSource } from '../../../../src/core/view/buildPanelViewModel';
import type { ReviewView } from '../../../../src/shared/panelViewModel';
import { makePlan, makeStep } from '../../../support/randomPlans';

const critique: Critique = {
  score: 72,
  summary: 'Mostly sound.',
  issues: [
    {
      check: 'missing_gate',
      name: 'No synthesis gate',
      severity: 'warning',
      stepId: 'B',
      message: 'Nothing combines the results.',
      recommendation: 'Add a gate.',
    },
  ],
  recommendations: ['Add a gate.'],
};

function reviewOf(source: Partial<ReviewSource> & { plan: Plan }): ReviewView {
  const body = buildPanelViewModel({ critique, diagnostics: [], ...source });
  assert.ok(body.mode === 'review');
  return body.review;
}

describe('buildPanelViewModel: the review the panel shows', () => {
  it('shows every field of every step, and only the fields a step has', () => {
    const plan = makePlan([
      makeStep('W', {
        title: 'Write',
        kind: 'tool',
        tool: 'write_file',
        args: { path: 'a.md', content: 'x' },
        agent: undefined,
        input: undefined,
        when: 'depends.R.ok',
      }),
      makeStep('R', { title: 'Read', kind: 'tool', tool: 'read_file', args: { path: 'a.md' }, agent: undefined, input: undefined, requiresApproval: true }),
      makeStep('A', {
        title: 'Think',
        agent: undefined,
        dependsOn: ['R'],
        verification: 'result !== ""',
        onVerificationFailure: 'retry',
        maxAttempts: 3,
        critical: false,
        skipped: true,
      }),
      makeStep('M', { title: 'Check', kind: 'manual', agent: undefined, input: 'look at it' }),
      makeStep('C', { title: 'Run', kind: 'tool', tool: 'run_command', args: { argv: ['ls'] }, agent: undefined, input: undefined, requiresApproval: false }),
    ]);
    const steps = reviewOf({ plan }).steps;
    assert.deepEqual(steps[0], {
      id: 'W',
      index: 0,
      title: 'Write',
      kind: 'tool',
      runner: 'write_file',
      tool: 'write_file',
      args: 'path: a.md\ncontent: x',
      arguments: [
        { name: 'path', text: 'a.md', block: false },
        { name: 'content', text: 'x', block: false },
      ],
      dependsOn: [],
      onFailure: 'stop',
      maxAttempts: 1,
      critical: true,
      onVerificationFailure: 'stop',
      when: { text: 'depends.R.ok', code: true },
      skipped: false,
      approval: 'asks',
      problems: [],
    });
    assert.deepEqual(steps[2], {
      id: 'A',
      index: 2,
      title: 'Think',
      kind: 'agent',
      runner: 'agent: default',
      agent: 'default',
      input: 'do A',
      dependsOn: ['R'],
      onFailure: 'stop',
      maxAttempts: 3,
      critical: false,
      verification: 'result !== ""',
      onVerificationFailure: 'retry',
      skipped: true,
      approval: 'mayAsk',
      problems: [],
    });
    assert.deepEqual(steps[3], {
      id: 'M', index: 3, title: 'Check', kind: 'manual', runner: 'you', input: 'look at it',
      dependsOn: [], onFailure: 'stop', maxAttempts: 1, critical: true, onVerificationFailure: 'stop', skipped: false, approval: 'none', problems: [],
    });
    assert.deepEqual(
      steps.map((step) => step.approval),
      ['asks', 'none', 'mayAsk', 'none', 'asks'],
      'what the tools will do under the policy, whatever the plan\'s requiresApproval says: a read never asks, a command always does, the default agent may',
    );
  });

  // A newcomer's find (2026-12-01): skipping S003 showed only S003 as skipped; the run then skipped S004 and S005 too.
  it('marks the steps that wait on a skipped step, directly or through others, as skipped with it', () => {
    const plan = makePlan([
      makeStep('S1'),
      makeStep('S2', { skipped: true }),
      makeStep('S3', { dependsOn: ['S1', 'S2'] }),
      makeStep('S4', { dependsOn: ['S3'] }),
      makeStep('S5', { dependsOn: ['S1'] }),
    ]);
    assert.deepEqual(reviewOf({ plan }).steps.map((step) => [step.id, step.skipped, step.skippedWith]), [
      ['S1', false, undefined],
      ['S2', true, undefined],
      ['S3', false, 'S2'],
      ['S4', false, 'S2'],
      ['S5', false, undefined],
    ]);
    assert.equal(reviewOf({ plan }).startBlockedReason, undefined, 'S1 and S5 still run');
    // The second newcomer's find (2026-12-01): with the first of a chain skipped, Start ran "0 of 4 steps completed, 4 skipped".
    const chain = makePlan([makeStep('S1', { skipped: true }), makeStep('S2', { dependsOn: ['S1'] }), makeStep('S3', { dependsOn: ['S2'] })]);
    assert.equal(reviewOf({ plan: chain }).startBlockedReason, 'Every step is skipped, or waits on a skipped one: unskip at least one.');
  });

  it('shows the files a step may change on one line, with control characters escaped', () => {
    const review = reviewOf({
      plan: makePlan([
        makeStep('S', { writes: ['src/**', 'README.md'] }),
        makeStep('N', { writes: [] }),
        makeStep('E', { writes: ['evil\u001b[31m\u202etxt.exe'] }),
        makeStep('U'),
      ]),
    });
    const steps = review.steps;
    assert.equal(steps[0]?.writes, 'src/**, README.md');
    assert.deepEqual(steps[0]?.writePatterns, ['src/**', 'README.md'], 'as written, for the edit form');
    assert.equal(steps[1]?.writes, 'no file');
    assert.deepEqual(steps[1]?.writePatterns, []);
    assert.doesNotMatch(steps[2]?.writes ?? '', /[\u001b\u202e]/);
    assert.equal(steps[3]?.writes, undefined);
    assert.equal(steps[3]?.writePatterns, undefined);
  });

  it('shows a step\'s checks in plain words, bounded, with control characters escaped', () => {
    const many = Array.from({ length: 10_000 }, (_, index) => ({ kind: 'file_exists' as const, path: `f${index}` }));
    const plan = makePlan([
      makeStep('S', {
        checks: [
          { kind: 'file_exists', path: 'src/a.ts' },
          { kind: 'command', argv: ['npm', 'test'] },
        ],
      }),
      makeStep('E', {
        checks: [
          { kind: 'file_absent', path: 'evil\u001b]0;pwned\u0007\n\u202etxt.exe' },
          { kind: 'file_contains', path: 'a', pattern: 'x'.repeat(1_000_000) },
        ],
      }),
      makeStep('M', { checks: many }),
      makeStep('N'),
    ]);
    const steps = reviewOf({ plan }).steps;
    assert.equal(steps[0]?.checks, 'file exists src/a.ts; command npm test exits 0');
    assert.match(steps[1]?.checks ?? '', /^file absent evil\\u001b\]0;pwned\\u0007\\u000a\\u202etxt\.exe; a matches \/x+…\/$/);
    assert.ok((steps[1]?.checks ?? '').length < 300);
    assert.match(steps[2]?.checks ?? '', /^file exists f0; .*; file exists f4; and 9995 more$/);
    assert.equal('checks' in steps[3]!, false);
  });

  it('carries the critic, the versions and the tools, with defaults when the host gives none', () => {
    const plan = makePlan([makeStep('A')], { version: 4, objective: 'Ship it' });
    const view = reviewOf({ plan });
    assert.deepEqual(
      [
        view.planId,
        view.planVersion,
        view.objective,
        view.score,
        view.summary,
        view.findings,
        view.recommendations,
        view.planProblems,
        view.tools,
        view.versions,
        view.regenerating,
      ],
      ['plan-test', 4, 'Ship it', 72, 'Mostly sound.', critique.issues, ['Add a gate.'], [], [], [{ version: 4, label: 'v4' }], false],
    );
    assert.ok(
      !('changes' in view) && !('startBlockedReason' in view) && !('modelNeeded' in view) && !('manualSummary' in view) && !('regenerateBlockedReason' in view),
    );
    const versions = [{ version: 4, label: 'v4 · edited A' }, { version: 3, label: 'v3 · planned' }];
    const withHost = reviewOf({ plan, tools: ['read_file'], versions, previousPlan: { ...plan, version: 3, steps: [] } });
    assert.deepEqual([withHost.tools, withHost.versions, withHost.changes?.added], [['read_file'], versions, ['A']]);
  });

  it('puts problems on their step or on the plan, errors and warnings named, and blocks Start with the first error', () => {
    const plan = makePlan([makeStep('A'), makeStep('B')]);
    const diagnostics: Diagnostic[] = [
      { code: 'empty_plan', severity: 'warning', message: 'Plan-wide warning.' },
      { code: 'missing_dependency', severity: 'error', stepId: 'B', message: 'B depends on Z.' },
      { code: 'duplicate_id', severity: 'warning', stepId: 'B', message: 'B is odd.' },
      { code: 'duplicate_id', severity: 'error', message: 'Two steps are called A.' },
    ];
    const view = reviewOf({ plan, diagnostics });
    assert.deepEqual(view.planProblems, ['Warning: Plan-wide warning.', 'Error: Two steps are called A.']);
    assert.deepEqual(view.steps.map((step) => step.problems), [[], ['Error: B depends on Z.', 'Warning: B is odd.']]);
    assert.equal(view.startBlockedReason, 'Fix the 2 errors first: B depends on Z.');
    assert.equal(reviewOf({ plan, diagnostics: diagnostics.slice(0, 2) }).startBlockedReason, 'Fix the error first: B depends on Z.');
    assert.equal(reviewOf({ plan, diagnostics: [diagnostics[0]!] }).startBlockedReason, undefined, 'warnings never block');
  });

  it('blocks Start while the plan is regenerated, and says so', () => {
    const view = reviewOf({ plan: makePlan([makeStep('A')]), regenerating: true });
    assert.deepEqual([view.regenerating, view.startBlockedReason], [true, 'The plan is being regenerated.']);
  });

  it('names the steps that need a model when none is set up, one or several; steps a person does or tools do not', () => {
    const one = reviewOf({
      plan: makePlan([makeStep('A'), makeStep('R', { kind: 'tool', tool: 'read_file', agent: undefined })]),
      regenerateBlockedReason: 'No model.',
    });
    assert.deepEqual(one.modelNeeded, { message: 'Step A needs a language model and none is set up. Do it yourself, or set up a model.', stepIds: ['A'] });
    assert.equal(one.startBlockedReason, one.modelNeeded?.message);
    assert.equal(one.regenerateBlockedReason, 'No model.');
    const two = reviewOf({
      plan: makePlan([makeStep('A'), makeStep('G', { kind: 'synthesis_gate', agent: undefined }), makeStep('H', { kind: 'human_review', agent: undefined })]),
      regenerateBlockedReason: 'No model.',
    });
    assert.deepEqual(two.modelNeeded?.stepIds, ['A', 'G']);
    assert.match(two.modelNeeded?.message ?? '', /^2 steps \(A, G\) need a language model/);
    const none = reviewOf({ plan: makePlan([makeStep('M', { kind: 'manual', agent: undefined })]), regenerateBlockedReason: 'No model.' });
    assert.ok(!('modelNeeded' in none) && !('startBlockedReason' in none));
  });

  it('says how many steps are the user\'s and how many run by themselves', () => {
    const manual = (id: string) => makeStep(id, { kind: 'manual', agent: undefined });
    const tool = (id: string) => makeStep(id, { kind: 'tool', tool: 'read_file', agent: undefined });
    const noModel = { regenerateBlockedReason: 'No model.' };
    assert.equal(reviewOf({ plan: makePlan([manual('M1')]), ...noModel }).manualSummary, '1 step is yours to do. Set up a model to let agents do your steps.');
    assert.equal(
      reviewOf({ plan: makePlan([manual('M1'), manual('M2'), tool('T1')]), ...noModel }).manualSummary,
      '2 steps are yours to do; 1 step runs by itself. Set up a model to let agents do your steps.',
    );
    assert.equal(
      reviewOf({ plan: makePlan([manual('M1'), tool('T1'), tool('T2')]), ...noModel }).manualSummary,
      '1 step is yours to do; 2 steps run by themselves. Set up a model to let agents do your steps.',
    );
  });

  it('without a model, an agent\'s step is said to need one, never to run by itself (a newcomer\'s trial: Add step, Agent)', () => {
    const manual = makeStep('M1', { kind: 'manual', agent: undefined });
    const agent = makeStep('A1', { kind: 'agent' });
    const tool = makeStep('T1', { kind: 'tool', tool: 'read_file', agent: undefined });
    assert.equal(
      reviewOf({ plan: makePlan([manual, agent, tool]), regenerateBlockedReason: 'No model.' }).manualSummary,
      '1 step is yours to do; 1 step runs by itself; 1 needs a model. Set up a model to let agents do your steps.',
    );
    assert.equal(reviewOf({ plan: makePlan([manual, agent, tool]) }).manualSummary, '1 step is yours to do; 1 step runs by itself, 1 may ask you to approve a change.', 'with a model it runs, asking before a change');
  });

  it('does not tell to set up a model when one is set up (issue 28 walked again: it said so after Set up a model)', () => {
    const manual = makeStep('M1', { kind: 'manual', agent: undefined });
    const tool = makeStep('T1', { kind: 'tool', tool: 'read_file', agent: undefined });
    assert.equal(reviewOf({ plan: makePlan([manual, tool]) }).manualSummary, '1 step is yours to do; 1 step runs by itself.');
  });

  it('never says a step that asks for approval first runs by itself (an editor trial was asked for a command "that runs by itself")', () => {
    const manual = makeStep('M1', { kind: 'manual', agent: undefined });
    const read = makeStep('T1', { kind: 'tool', tool: 'read_file', agent: undefined });
    const command = (id: string) => makeStep(id, { kind: 'tool', tool: 'run_command', args: { command: 'npm test' }, agent: undefined });
    assert.equal(reviewOf({ plan: makePlan([manual, read, command('C1')]) }).manualSummary, '1 step is yours to do; 1 step runs by itself, 1 after you approve it.');
    assert.equal(reviewOf({ plan: makePlan([manual, command('C1'), command('C2')]) }).manualSummary, '1 step is yours to do; 2 steps run after you approve them.');
    // A file write asks under the default policy, and not when only commands ask.
    const write = makeStep('W1', { kind: 'tool', tool: 'write_file', args: { path: 'a.txt', content: 'a' }, agent: undefined });
    assert.equal(reviewOf({ plan: makePlan([manual, write, command('C1')]) }).manualSummary, '1 step is yours to do; 2 steps run after you approve them.');
    const commandsOnly = { approvalSetting: { policy: 'commandsOnly' as const, trusted: true } };
    assert.equal(reviewOf({ plan: makePlan([manual, write, command('C1')]), ...commandsOnly }).manualSummary, '1 step is yours to do; 1 step runs by itself, 1 after you approve it.');
    // Nothing of yours but approvals is said too; a plan that asks nothing of you says nothing.
    assert.equal(reviewOf({ plan: makePlan([write, command('C1')]) }).manualSummary, '2 steps run after you approve them.');
    assert.equal(reviewOf({ plan: makePlan([read, command('C1')]) }).manualSummary, '1 step runs by itself, 1 after you approve it.');
    assert.equal(reviewOf({ plan: makePlan([command('C1')]) }).manualSummary, '1 step runs after you approve it.');
    assert.equal(reviewOf({ plan: makePlan([read]) }).manualSummary, undefined);
    // An agent's step that may change files asks before each change: counted apart, never as running by itself (a trial
    // read "4 steps run by themselves" over four steps marked "may ask approval"). Alone, its mark says it.
    const agent = (id: string) => makeStep(id, { kind: 'agent' });
    assert.equal(reviewOf({ plan: makePlan([command('C1'), agent('A1'), agent('A2')]) }).manualSummary, '1 step runs after you approve it, 2 may ask you to approve a change.');
    assert.equal(reviewOf({ plan: makePlan([read, command('C1'), agent('A1')]) }).manualSummary, '1 step runs by itself, 1 after you approve it, 1 may ask you to approve a change.');
    assert.equal(reviewOf({ plan: makePlan([agent('A1'), agent('A2')]) }).manualSummary, undefined);
  });

  it('counts a question as the user\'s to answer, never as a step that runs by itself (issue 28 walked again)', () => {
    const manual = (id: string) => makeStep(id, { kind: 'manual', agent: undefined });
    const tool = (id: string) => makeStep(id, { kind: 'tool', tool: 'read_file', agent: undefined });
    const question = (id: string) => makeStep(id, { kind: 'clarification', agent: undefined, input: 'Which one?' });
    assert.equal(
      reviewOf({ plan: makePlan([question('Q1'), tool('T1'), manual('M1'), tool('T2')]), regenerateBlockedReason: 'No model.' }).manualSummary,
      '1 step is yours to do, 1 question is yours to answer; 2 steps run by themselves. Set up a model to let agents do your steps.',
    );
    assert.equal(
      reviewOf({ plan: makePlan([question('Q1'), question('Q2'), manual('M1')]), regenerateBlockedReason: 'No model.' }).manualSummary,
      '1 step is yours to do, 2 questions are yours to answer. Set up a model to let agents do your steps.',
    );
  });
});

describe('buildPanelViewModel: what the plan is based on', () => {
  it('says "Read N files, M searches", lists each entry safe to show, and each step\'s files', () => {
    const plan: Plan = {
      ...makePlan([makeStep('A', { basedOn: ['src/a.ts', 'src/b.ts'] })]),
      basis: { files: ['src/a.ts', 'src/\u001b[2Jb.ts'], searches: ['parse('], answers: [{ question: 'Which?', answer: 'MIT' }] },
    };
    const review = reviewOf({ plan });
    assert.equal(review.basis?.summary, 'Read 2 files, 1 search');
    assert.deepEqual(review.basis?.files, ['src/a.ts', 'src/\\u001b[2Jb.ts']);
    assert.deepEqual(review.basis?.answers, [{ question: 'Which?', answer: 'MIT' }]);
    assert.equal(review.steps[0]?.basedOn, 'src/a.ts, src/b.ts');
    const single = reviewOf({ plan: { ...plan, basis: { files: ['a'], searches: [], answers: [] } } });
    assert.equal(single.basis?.summary, 'Read 1 file', 'what was not done is not said ("0 searches")');
    assert.equal(reviewOf({ plan: { ...plan, basis: { files: [], searches: ['x', 'y'], answers: [] } } }).basis?.summary, '2 searches');
    assert.equal(reviewOf({ plan: { ...plan, basis: { files: [], searches: [], answers: [{ question: 'Which?', answer: 'MIT' }] } } }).basis?.summary, 'Your answers');
    assert.equal(reviewOf({ plan: makePlan([makeStep('A')]) }).basis, undefined);
  });
});
