import assert from 'node:assert/strict';
import { foldRunEvents, initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import { stampEvent, type RunEventBody, type RunState } from '../../../../src/core/engine/runEvents';
import { runSummary, summaryLimits } from '../../../../src/core/view/runSummary';
import { describeCost, describeTokens } from '../../../../src/core/view/runHeadline';
import { makePlan, makeStep } from '../../../support/randomPlans';

/** The state after `bodies`, one second apart from t = 1000 s. */
function stateOf(bodies: RunEventBody[]): RunState {
  return foldRunEvents(bodies.map((body, index) => stampEvent(body, 'run-1', index + 1, 1_000_000 + index * 1000)));
}

const plan = makePlan([
  makeStep('read', { title: 'Read the data' }),
  makeStep('write', { title: 'Write the report', dependsOn: ['read'] }),
  makeStep('check', { title: 'Check it', dependsOn: ['write'] }),
  makeStep('tidy', { title: 'Tidy up', dependsOn: ['check'] }),
]);

describe('runSummary: how a run ended, once for every view', () => {
  it('says a command\'s exit code and last line of output, not its result\'s JSON; other results as their fields', () => {
    const run = (result: unknown): string => {
      const state = stateOf([
        { type: 'run_started', plan: makePlan([makeStep('cmd')]) },
        { type: 'step_started', stepId: 'cmd', attempt: 1 },
        { type: 'step_completed', stepId: 'cmd', result },
        { type: 'run_completed' },
      ]);
      return runSummary(state).steps[0]?.line ?? '';
    };
    assert.equal(run({ exitCode: 0, signal: null, stdout: '\n> notes test\n\nok 1 - adds\n# pass 4\n\n', stderr: '' }), 'exit code 0, last output: # pass 4');
    assert.equal(run({ exitCode: 2, stdout: '  \n', stderr: 'npm ERR! missing script: testx\n' }), 'exit code 2, last output: npm ERR! missing script: testx');
    assert.equal(run({ exitCode: 0, stdout: '' }), 'exit code 0');
    assert.equal(run({ exitCode: 0, stdout: `${'x'.repeat(5_000_000)}\n\u001b[31mred\u0007` }).length <= summaryLimits.line, true);
    assert.equal(run({ exitCode: 'zero', stdout: 'x' }), 'exitCode: zero, stdout: x');
    // A file tool's result in words (a newcomer read "path: CHANGELOG.md, operation: edited, changed: true, bytes: 196").
    assert.equal(run({ path: 'CHANGELOG.md', operation: 'edited', changed: true, bytes: 196 }), 'edited CHANGELOG.md');
    assert.equal(run({ path: 'notes.md', operation: 'unchanged', changed: false, bytes: 0 }), 'left notes.md unchanged');
    assert.equal(run({ path: 'a.md', operation: 'edited', changed: 'yes' }), 'path: a.md, operation: edited, changed: yes');
  });

  it('says first which folders a listing or search could not read, which its JSON would cut off', () => {
    const run = (result: unknown): string => {
      const state = stateOf([
        { type: 'run_started', plan: makePlan([makeStep('find')]) },
        { type: 'step_started', stepId: 'find', attempt: 1 },
        { type: 'step_completed', stepId: 'find', result },
        { type: 'run_completed' },
      ]);
      return runSummary(state).steps[0]?.line ?? '';
    };
    const matches = [{ path: 'src/a.ts', line: 1, column: 1, text: 'TODO '.repeat(100) }];
    assert.equal(run({ matches, filesSearched: 1, filesSkipped: 0, truncated: false, unreadableFolders: ['secret'] }), '1 match; could not read 1 folder (secret)');
    assert.equal(
      run({ files: ['a.txt', 'b.txt'], total: 2, truncated: false, unreadableFolders: ['a', 'b', 'c', 'd'].map((name) => `locked/${name}`), unreadableFoldersNotNamed: 56 }),
      '2 files; could not read 60 folders (locked/a, locked/b, locked/c, …)',
    );
    assert.equal(run({ unreadableFolders: ['x'] }), 'could not read 1 folder (x)');
    assert.equal(run({ matches: [], filesSearched: 3, filesSkipped: 0, truncated: false }), 'matches: [], filesSearched: 3, filesSkipped: 0, truncated: false', 'every folder read: its fields');
  });

  it('says of a step you did yourself that Undo run does not take back what you changed in it (a newcomer expected it to)', () => {
    const state = stateOf([
      { type: 'run_started', plan: makePlan([makeStep('doc', { kind: 'manual', title: 'Document the API' }), makeStep('never', { kind: 'manual' })]) },
      { type: 'step_started', stepId: 'doc', attempt: 1 },
      { type: 'step_completed', stepId: 'doc', result: 'Done by you.' },
      { type: 'step_started', stepId: 'never', attempt: 1 },
      { type: 'step_failed', stepId: 'never', attempt: 1, error: 'You marked step never as failed: no time.', disposition: 'fail' },
      { type: 'run_failed', reason: 'Step never failed' },
    ]);
    const [doc, never] = runSummary(state).steps;
    assert.equal(doc?.line, 'Done by you. · what you changed yourself is not in Undo run');
    assert.doesNotMatch(never?.line ?? '', /Undo/, 'a step you did not do changed nothing to speak of');
    const tool = runSummary(stateOf([{ type: 'run_started', plan }, { type: 'step_started', stepId: 'read', attempt: 1 }, { type: 'step_completed', stepId: 'read', result: 'ok' }]));
    assert.equal(tool.steps[0]?.line, 'ok', 'a step the run did is in Undo run already');
  });

  it('says when a step completed only after more than one attempt', () => {
    const state = stateOf([
      { type: 'run_started', plan: makePlan([makeStep('fix'), makeStep('once')]) },
      { type: 'step_started', stepId: 'fix', attempt: 1 },
      { type: 'verification_failed', stepId: 'fix', attempt: 1, diagnosis: 'Check 1 (command `npm test`) failed: exit code 1, expected 0' },
      { type: 'step_failed', stepId: 'fix', attempt: 1, error: 'Check 1 failed', disposition: 'retry', retryInMs: 1000 },
      { type: 'step_started', stepId: 'fix', attempt: 2 },
      { type: 'step_completed', stepId: 'fix', result: 'Fixed add.' },
      { type: 'step_started', stepId: 'once', attempt: 1 },
      { type: 'step_completed', stepId: 'once', result: 'Done.' },
      { type: 'run_completed' },
    ]);
    assert.deepEqual(runSummary(state).steps.map((step) => step.line), ['after 2 attempts: Fixed add.', 'Done.']);
    assert.deepEqual(
      runSummary(state).steps.map((step) => step.earlier),
      ['attempt 1 failed: Check 1 failed', undefined],
      'the attempt that failed is shown with its reason; a step done at once has none',
    );
  });

  it('says what each step produced, the failures with their diagnoses, the changed files and the model use', () => {
    const state = stateOf([
      { type: 'run_started', plan },
      { type: 'step_started', stepId: 'read', attempt: 1 },
      { type: 'model_called', stepId: 'read', model: 'gpt-4o-mini', promptTokens: 1000, completionTokens: 234, costUsd: 0.0021 },
      { type: 'step_completed', stepId: 'read', result: { path: 'data.json', content: '{\n  "a": 1\n}\n' } },
      { type: 'step_started', stepId: 'write', attempt: 1 },
      { type: 'file_changed', stepId: 'write', path: 'report.md', operation: 'write' },
      { type: 'step_completed', stepId: 'write', result: 'Wrote report.md\n\nwith   two sections.' },
      { type: 'step_started', stepId: 'check', attempt: 1 },
      { type: 'verification_failed', stepId: 'check', attempt: 1, diagnosis: 'Expected items, got 0' },
      { type: 'step_failed', stepId: 'check', attempt: 1, error: 'Verification failed: Expected items, got 0', disposition: 'fail' },
      { type: 'step_skipped', stepId: 'tidy', reason: 'dependency check failed' },
      { type: 'run_failed', reason: 'Critical step check failed.' },
    ]);
    const summary = runSummary(state);
    assert.equal(summary.headline, 'failed in 11.0 s: 2 of 4 steps completed, 1 failed, 1 skipped; 1 file changed; 1,234 tokens, $0.0021.');
    assert.deepEqual(
      summary.steps.map((step) => [step.id, step.status, step.line]),
      [
        ['read', 'completed', 'path: data.json, content: { "a": 1 }'],
        ['write', 'completed', 'Wrote report.md with two sections. · changed report.md'],
        ['check', 'failed', 'failed: Expected items, got 0'],
        ['tidy', 'skipped', 'skipped: dependency check failed'],
      ],
    );
    assert.deepEqual(summary.failures, [{ stepId: 'check', title: 'Check it', error: 'Verification failed: Expected items, got 0', diagnosis: 'Expected items, got 0' }]);
    assert.deepEqual(summary.changedFiles, ['report.md']);
    assert.equal(summary.reason, 'Critical step check failed.');
    assert.deepEqual(summary.usage, { requests: 1, promptTokens: 1000, completionTokens: 234, totalTokens: 1234, cachedTokens: 0, costUsd: 0.0021, savedUsd: 0, unpricedRequests: 0 });
  });

  // A newcomer's trial: a run reloaded twice read "completed in 1 min 43 s", nothing saying it had stopped and gone on.
  it('says a waiting run has waited after its time, not "waiting in 35 ms" (a trial read it as a wait of 35 ms)', () => {
    const waiting = runSummary(stateOf([{ type: 'run_started', plan }, { type: 'step_started', stepId: 'read', attempt: 1 }, { type: 'run_waiting', pending: [] }]));
    assert.match(waiting.headline, /^waiting after \d/);
    const ended = runSummary(stateOf([{ type: 'run_started', plan }, { type: 'step_started', stepId: 'read', attempt: 1 }, { type: 'run_failed', reason: 'no' }]));
    assert.match(ended.headline, /^failed in \d/);
  });

  it('says how often the run was resumed: its time spans the pauses', () => {
    const interrupted = { type: 'run_cancelled', interrupted: true } as const;
    const resumed = { type: 'run_resumed', supplied: {} } as const;
    const events = [{ type: 'run_started', plan: makePlan([makeStep('a')]) }, interrupted, resumed, interrupted, resumed, { type: 'step_completed', stepId: 'a', result: 'ok' }, { type: 'run_completed' }];
    const summary = runSummary(stateOf(events as Parameters<typeof stateOf>[0]));
    assert.equal(summary.resumeCount, 2);
    assert.match(summary.headline, /: 1 of 1 step completed; resumed 2 times\.$/);
    assert.match(runSummary(stateOf(events.slice(0, 3).concat(events.slice(5)) as Parameters<typeof stateOf>[0])).headline, /; resumed once\.$/);
    assert.doesNotMatch(runSummary(stateOf([events[0]!, events[5]!, events[6]!] as Parameters<typeof stateOf>[0])).headline, /resumed/);
  });

  it('takes the host\'s count of model use when it saw more calls (a replanner\'s), and the repairs it knows of', () => {
    const state = stateOf([{ type: 'run_started', plan: makePlan([makeStep('a')]) }, { type: 'step_completed', stepId: 'a', result: 'ok' }, { type: 'run_completed' }]);
    const usage = { requests: 3, promptTokens: 10, completionTokens: 5, totalTokens: 15, cachedTokens: 0, costUsd: 0, savedUsd: 0, unpricedRequests: 3 };
    const summary = runSummary(state, { usage, replanCount: 2 });
    assert.equal(summary.headline, 'completed in 2.0 s: 1 of 1 step completed; 2 repair plans; 15 tokens, cost unknown (no price is known for the model).');
    // Never "$0" beside a call without a price: it read as free (a trial).
    assert.equal(describeCost({ ...usage, unpricedRequests: 1 }), 'cost unknown (1 call without a known price)');
    const cached = { ...usage, promptTokens: 12_000, totalTokens: 12_500, cachedTokens: 9_216, costUsd: 0.0123, savedUsd: 0.0042, unpricedRequests: 0 };
    assert.equal(runSummary(state, { usage: cached }).headline, 'completed in 2.0 s: 1 of 1 step completed; 12,500 tokens (9,216 cached), $0.012 (saved $0.0042 by cached input).');
    assert.equal(describeCost({ ...cached, unpricedRequests: 2 }), '$0.012 (saved $0.0042 by cached input; 2 calls without a known price)');
    assert.equal(describeTokens({ ...cached, cachedTokens: 0 }), '12,500 tokens');
    // The second newcomer's find (2026-12-01): a repair run that completed said "Reason: Step read failed and asked for a repair plan."
    assert.equal(runSummary({ ...state, reason: 'Step read failed and asked for a repair plan.' }, { replanCount: 1 }).reason, undefined);
  });

  // From a newcomer's trial: asked to lint with ruff, the repair byte-compiled instead; "completed … 1 repair plan" read as done.
  it('names the steps repairs left out that were never done, the first two by title', () => {
    const repaired = makePlan([makeStep('compile', { title: 'Byte-compile the package' })]);
    const state = stateOf([{ type: 'run_started', plan: repaired }, { type: 'step_completed', stepId: 'compile', result: 'ok' }, { type: 'run_completed' }]);
    const replaced = (id: string, title: string, status: 'failed' | 'skipped' | 'completed') => ({
      planVersion: 1,
      step: makeStep(id, { title }),
      state: { id, status, attempts: status === 'skipped' ? 0 : 1 },
    });
    const lint = replaced('lint', 'Lint with ruff', 'failed');
    const fix = replaced('fix', 'Fix what ruff reports', 'skipped');
    const summary = runSummary({ ...state, replacedSteps: [lint, fix, replaced('read', 'Read the code', 'completed'), { ...lint, planVersion: 2 }] }, { replanCount: 1 });
    assert.deepEqual(summary.leftOutByRepairs, ['Lint with ruff', 'Fix what ruff reports']);
    assert.equal(
      summary.headline,
      'completed in 2.0 s: 1 of 1 step completed; 1 repair plan, which left out 2 steps, not done: "Lint with ruff", "Fix what ruff reports".',
    );
    const many = runSummary({ ...state, replacedSteps: [lint, fix, replaced('docs', 'Document it', 'skipped')] }, { replanCount: 1 });
    assert.match(many.headline, /which left out 3 steps, not done: "Lint with ruff", "Fix what ruff reports" and 1 more\.$/);
    // A replaced step that the repair plan kept (the same id) is its own line, not left out.
    assert.deepEqual(runSummary({ ...state, replacedSteps: [replaced('compile', 'Byte-compile the package', 'failed')] }, { replanCount: 1 }).leftOutByRepairs, []);
  });

  // A second trial (2026-12-07): "which left out 1 step, not done: "Run the tests"" after the repair ran them again and they passed.
  it('does not call a step left out that a completed step of the repair did again: the same tool call, or its title continued', () => {
    const again = makePlan([
      makeStep('S7', { title: 'Run the tests again', kind: 'tool', tool: 'run_command', args: { argv: ['npm', 'test'] }, agent: undefined }),
      makeStep('S8', { title: 'Check the docs' }),
    ]);
    const state = stateOf([
      { type: 'run_started', plan: again },
      { type: 'step_completed', stepId: 'S7', result: 'ok' },
      { type: 'step_completed', stepId: 'S8', result: 'ok' },
      { type: 'run_completed' },
    ]);
    const replaced = (step: ReturnType<typeof makeStep>) => ({ planVersion: 1, step, state: { id: step.id, status: 'failed' as const, attempts: 1 } });
    const byTitle = replaced(makeStep('S5', { title: 'Run the tests' }));
    const byCall = replaced(makeStep('S4', { title: 'Test it', kind: 'tool', tool: 'run_command', args: { argv: ['npm', 'test'] }, agent: undefined }));
    const other = replaced(makeStep('S3', { title: 'Lint with ruff', kind: 'tool', tool: 'run_command', args: { argv: ['ruff', 'check'] }, agent: undefined }));
    assert.deepEqual(runSummary({ ...state, replacedSteps: [byTitle, byCall, other] }, { replanCount: 1 }).leftOutByRepairs, ['Lint with ruff']);
    const notDone = { ...state, steps: { ...state.steps, S7: { id: 'S7', status: 'failed' as const, attempts: 1 } } };
    assert.deepEqual(runSummary({ ...notDone, replacedSteps: [byTitle] }, { replanCount: 1 }).leftOutByRepairs, ['Run the tests'], 'done again only if that step completed');
  });

  it('shows a live run up to now, and names what a step waits for', () => {
    const state = stateOf([{ type: 'run_started', plan: makePlan([makeStep('a'), makeStep('b')]) }, { type: 'step_started', stepId: 'a', attempt: 1 }]);
    const summary = runSummary(state, { now: 1_005_000 });
    assert.equal(summary.durationMs, 5000);
    assert.deepEqual(summary.steps.map((step) => step.line), ['running', 'pending']);
    assert.equal(summary.usage, undefined);
  });

  it('bounds every text: a 5 MB result, a huge error, a thousand steps and files', () => {
    const huge = 'x'.repeat(5 * 1024 * 1024);
    const many = makePlan(Array.from({ length: 1000 }, (_, index) => makeStep(`s${index}`, { title: `${'t'.repeat(500)}` })));
    const bodies: RunEventBody[] = [{ type: 'run_started', plan: many }];
    for (let index = 0; index < 1000; index++) {
      const stepId = `s${index}`;
      if (index % 2 === 0) bodies.push({ type: 'step_completed', stepId, result: { data: huge } });
      else bodies.push({ type: 'step_failed', stepId, attempt: 1, error: huge, disposition: 'fail' });
      bodies.push({ type: 'file_changed', stepId, path: `f${index}.txt`, operation: 'write' });
    }
    const summary = runSummary(stateOf(bodies));
    assert.equal(summary.steps.length, summaryLimits.steps);
    assert.equal(summary.moreSteps, 900);
    assert.equal(summary.failures.length, summaryLimits.failures);
    assert.equal(summary.moreFailures, 480);
    assert.equal(summary.changedFiles.length, summaryLimits.files);
    assert.equal(summary.moreChangedFiles, 950);
    const listed = new Set(summary.failures.map((failure) => failure.stepId));
    for (const step of summary.steps) {
      assert.ok(step.line.length <= summaryLimits.line && step.title.length <= summaryLimits.line, step.id);
      // A failure listed under the failures is said there; a step's line past them is cut as any other.
      if (listed.has(step.id)) assert.match(step.line, /^failed \(see Failures\) · changed f\d+\.txt$/, step.id);
      else assert.ok(step.line.endsWith('…'), step.id);
    }
    for (const failure of summary.failures) assert.ok(failure.error.length <= summaryLimits.failure);
    assert.ok(JSON.stringify(summary).length < 200_000);
  });

  it('says what a tool step produced as its fields in words, not as a JSON object (issue 28, polish)', () => {
    const state = stateOf([
      { type: 'run_started', plan: makePlan([makeStep('w'), makeStep('l')]) },
      { type: 'step_completed', stepId: 'w', result: { path: 'src/a.ts', bytes: 12, created: true, lines: { added: 3 } } },
      { type: 'step_completed', stepId: 'l', result: ['a.ts', 'b.ts'] },
      { type: 'run_completed' },
    ]);
    const [written, listed] = runSummary(state).steps;
    assert.equal(written?.line, 'path: src/a.ts, bytes: 12, created: true, lines: {"added":3}');
    assert.equal(listed?.line, '["a.ts","b.ts"]');
  });

  it('keeps control characters for each view to make safe, and never cuts a surrogate pair in two', () => {
    const emoji = '😀'.repeat(200);
    const state = stateOf([
      { type: 'run_started', plan: makePlan([makeStep('a'), makeStep('b')]) },
      { type: 'step_completed', stepId: 'a', result: 'evil\u001b]0;title\u0007 text' },
      { type: 'step_completed', stepId: 'b', result: emoji },
      { type: 'run_completed' },
    ]);
    const [first, second] = runSummary(state).steps;
    const cyclic: Record<string, unknown> = { name: 'loop', list: [1, 2] };
    cyclic['self'] = cyclic;
    const looped = stateOf([{ type: 'run_started', plan: makePlan([makeStep('c')]) }, { type: 'step_completed', stepId: 'c', result: cyclic }]);
    assert.equal(runSummary(looped).steps[0]?.line, 'name: loop, list: [1,2], self: "[cycle]"');
    assert.equal(first?.line, 'evil\u001b]0;title\u0007 text');
    assert.ok(second !== undefined && !/[\ud800-\udbff]…$/.test(second.line), 'no lone high surrogate before the ellipsis');
  });
});

describe('runSummary: the files each step changed (issue 26)', () => {
  it('names them on the step\'s line, and those outside the files it planned to change', () => {
    const plan = makePlan([makeStep('A', { writes: ['src/**'] }), makeStep('B')]);
    const state = initialRunState('r');
    state.plan = plan;
    state.status = 'completed';
    state.steps['A'] = { id: 'A', status: 'completed', attempts: 1, result: 'done', filesChanged: ['src/a.ts', 'README.md'] };
    state.steps['B'] = { id: 'B', status: 'completed', attempts: 1, result: 'done' };
    const lines = runSummary(state).steps.map((step) => step.line);
    assert.deepEqual(lines, ['done · changed src/a.ts, README.md (not planned: README.md)', 'done']);
  });

  it('counts the tick of its task file as planned (a newcomer read "not planned: tasks.md" on every step of run --tick)', () => {
    const input = 'Write the notes\n\nFrom specs/tasks.md, line 3:\n- Task: T001\n- Tick in the source file when done: yes';
    const plan = makePlan([makeStep('T001', { writes: ['notes.md'], input })]);
    const state = initialRunState('r');
    state.plan = plan;
    state.status = 'completed';
    state.steps['T001'] = { id: 'T001', status: 'completed', attempts: 1, result: 'done', filesChanged: ['notes.md', 'specs/tasks.md', 'x.md'] };
    assert.deepEqual(runSummary(state).steps.map((step) => step.line), ['done · changed notes.md, specs/tasks.md, x.md (not planned: x.md)']);
  });

  it('does not name again the file its result names ("overwritten README.md · changed README.md" read as two changes)', () => {
    const plan = makePlan([makeStep('A'), makeStep('B', { writes: ['docs/**'] }), makeStep('C'), makeStep('D')]);
    const state = initialRunState('r');
    state.plan = plan;
    state.status = 'completed';
    const change = (path: string, operation: string) => ({ path, operation, changed: true });
    state.steps['A'] = { id: 'A', status: 'completed', attempts: 1, result: change('README.md', 'overwritten'), filesChanged: ['README.md'] };
    state.steps['B'] = { id: 'B', status: 'completed', attempts: 1, result: change('README.md', 'created'), filesChanged: ['README.md'] };
    state.steps['C'] = { id: 'C', status: 'completed', attempts: 1, result: change('a.txt', 'edited'), filesChanged: ['a.txt', 'b.txt'] };
    state.steps['D'] = { id: 'D', status: 'completed', attempts: 1, result: change('d.txt', 'deleted'), filesChanged: ['d.txt'] };
    const lines = runSummary(state, { undoneSteps: new Set(['D']) }).steps.map((step) => step.line);
    assert.deepEqual(lines, ['overwrote README.md', 'created README.md (not planned: README.md)', 'edited a.txt · changed b.txt', 'deleted d.txt, since undone']);
  });
});

describe('runSummary: the files tools kept from the model', () => {
  it('names them once each, in the order they were kept, a handful at most, and counts the rest', () => {
    const kept = (paths: string[]): RunState =>
      stateOf([
        { type: 'run_started', plan: makePlan([makeStep('a'), makeStep('b')]) },
        ...paths.map((path, index): RunEventBody => ({ type: 'file_withheld', stepId: index % 2 === 0 ? 'a' : 'b', path })),
        { type: 'run_completed' },
      ]);
    assert.equal(runSummary(kept([])).keptFromModel, undefined);
    const one = kept(['.env', '.env']);
    assert.deepEqual(one.withheldFiles, ['.env']);
    assert.equal(runSummary(one).keptFromModel, 'Kept from the model: .env (a credentials file)');
    const many = kept(['.env', '.git/config', 'deploy/id_rsa', 'a.pem', 'b.key', '.env', 'c.p12', '.task-planner/runs/r.jsonl']);
    assert.equal(
      runSummary(many).keptFromModel,
      'Kept from the model: .env (a credentials file), .git/config (inside .git), deploy/id_rsa (a credentials file), a.pem (a credentials file), b.key (a credentials file) and 2 more',
    );
    assert.ok((runSummary(kept([`${'d/'.repeat(400)}.env`])).keptFromModel?.length ?? 0) <= summaryLimits.checks, 'bounded');
  });
});
