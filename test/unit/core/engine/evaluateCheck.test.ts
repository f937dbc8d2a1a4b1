import assert from 'node:assert/strict';
import { evaluateCheck, plainText, type CheckEnvironment } from '../../../../src/core/engine/evaluateCheck';
import { resolveRunOptions } from '../../../../src/core/engine/resolveRunOptions';
import { deferAllInteraction } from '../../../../src/core/engine/stepInteraction';
import type { Check } from '../../../../src/core/plan/planSchema';
import type { RunOptions } from '../../../../src/core/engine/runOptions';
import type { CommandResult, CommandRunner } from '../../../../src/core/commandPorts';
import type { Diagnostics, EditorDiagnostic } from '../../../../src/core/editorPorts';
import type { WorkspaceFs } from '../../../../src/core/workspacePorts';
import { runCommandTool } from '../../../../src/core/tools/runCommandTool';
import { ManualClock } from '../../../fakes/manualClock';
import { freshCommandLog } from '../../../fakes/toolContext';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makePlan } from '../../../support/randomPlans';

/** Evaluates `check` directly, as a resumed run of a plan written before validation knew checks could. */
function evaluate(check: Check, workspace: WorkspaceFs = createMemoryWorkspace({ 'a.txt': 'alpha\nbeta\n' }), options: Partial<RunOptions> = {}, patch: Partial<CheckEnvironment> = {}) {
  const env: CheckEnvironment = {
    runId: 'run-1',
    stepId: 's',
    stepTitle: 'Step s',
    options: resolveRunOptions(makePlan([]), { clock: new ManualClock(), workspace, ...options }),
    interaction: deferAllInteraction,
    commandLog: freshCommandLog,
    signal: new AbortController().signal,
    changedFiles: () => [],
    filesChangedInRun: () => [],
    runStartedAt: undefined,
    diagnosticsBefore: undefined,
    ...patch,
  };
  return evaluateCheck(check, env);
}

/** Runs check commands allowed at Start, answering each with `result`. */
function command(result: Partial<CommandResult>, check: Partial<Extract<Check, { kind: 'command' }>> = {}) {
  const runner: CommandRunner = {
    describeCwd: async (cwd) => cwd,
    run: async () => ({ exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 7, ...result }),
  };
  const argv = ['make', 'check'];
  return evaluate({ kind: 'command', argv, ...check }, undefined, {
    tools: [runCommandTool],
    commandRunner: runner,
    checkCommands: { allowed: true, commands: [{ argv, cwd: '' }] },
  });
}

describe('evaluateCheck', () => {
  it('a path the workspace refuses is a failed check with the reason, which no retry changes', async () => {
    const verdict = await evaluate({ kind: 'file_exists', path: '/etc/passwd' });
    assert.equal(verdict.passed, false);
    assert.equal(verdict.retryable, false);
    assert.match(verdict.detail, /^Refused path "\/etc\/passwd": it is an absolute path outside the workspace/);
  });

  // An outside attacker's find (2026-12-01): "^DB_PASSWORD=hu" passed and "^DB_PASSWORD=xx" failed, telling a model the
  // secret a letter at a time.
  it('attack: a check does not read a file no tool reads for a model (.env, inside .git), so its verdict tells nothing of it', async () => {
    const key = '-----BEGIN PRIVATE KEY-----\nMIIEK\n-----END PRIVATE KEY-----\n';
    const workspace = createMemoryWorkspace({ '.env': 'DB_PASSWORD=hunter2\n', '.git/config': '[remote]\n', 'a.txt': 'x', 'keys/sa.txt': key });
    const verdicts = await Promise.all([
      evaluate({ kind: 'file_contains', path: '.env', pattern: '^DB_PASSWORD=hu' }, workspace),
      evaluate({ kind: 'file_contains', path: '.env', pattern: '^DB_PASSWORD=xx' }, workspace),
      evaluate({ kind: 'file_contains', path: '.git/config', text: 'remote' }, workspace),
      evaluate({ kind: 'file_contains', path: 'keys/sa.txt', pattern: '^MIIEK' }, workspace),
    ]);
    assert.deepEqual(verdicts.map((verdict) => [verdict.passed, verdict.retryable]), [[false, false], [false, false], [false, false], [false, false]]);
    assert.match(verdicts[3]?.detail ?? '', /keys\/sa\.txt is not read by checks: it holds a private key/);
    assert.equal(verdicts[0]?.detail, verdicts[1]?.detail?.replace('=xx', '=hu'));
    assert.match(verdicts[0]?.detail ?? '', /\.env is not read by checks: a file of this name holds credentials/);
    assert.match(verdicts[2]?.detail ?? '', /\.git\/config is not read by checks: it is inside \.git/);
  });

  it('attack: nor a file a link was pointed at between the check of where it led and the read', async () => {
    const files = createMemoryWorkspace({ '.env': 'DB_PASSWORD=hunter2\n', 'notes.txt': 'plain\n' });
    // The link `notes.txt` leads to itself when looked at, and to `.env` as the read opens it (a racing process).
    const workspace: WorkspaceFs = {
      ...files,
      locate: (path) => Promise.resolve(path),
      readText: (path, signal, options) => (path === 'notes.txt' ? files.readText('.env', signal, { ...options, refuseTarget: (resolved) => options?.refuseTarget?.(resolved, path) }) : files.readText(path, signal, options)),
    };
    const verdicts = await Promise.all(['^DB_PASSWORD=hu', '^DB_PASSWORD=xx'].map((pattern) => evaluate({ kind: 'file_contains', path: 'notes.txt', pattern }, workspace)));
    assert.deepEqual(verdicts.map((verdict) => [verdict.passed, verdict.retryable]), [[false, false], [false, false]]);
    assert.match(verdicts[0]?.detail ?? '', /^notes\.txt is not read by checks: it leads to \.env: a file of this name holds credentials/);
    assert.equal(verdicts[0]?.detail, verdicts[1]?.detail?.replace('=xx', '=hu'));
  });

  it('a pattern RE2 cannot run is a failed check naming the feature', async () => {
    const verdict = await evaluate({ kind: 'file_contains', path: 'a.txt', pattern: '(a)\\1' });
    assert.deepEqual([verdict.passed, verdict.retryable], [false, false]);
    assert.match(verdict.detail, /^the pattern "\(a\)\\\\1" cannot be used: backreference/);
    const invalid = await evaluate({ kind: 'file_contains', path: 'a.txt', pattern: '(' });
    assert.match(invalid.detail, /^the pattern "\(" cannot be used: Invalid regular expression/);
  });

  it('patterns are multi-line and a file too large to read fails with the reason', async () => {
    assert.equal((await evaluate({ kind: 'file_contains', path: 'a.txt', pattern: '^beta$' })).passed, true);
    const big = createMemoryWorkspace({ 'big.txt': 'x'.repeat(5 * 1024 * 1024) });
    const verdict = await evaluate({ kind: 'file_contains', path: 'big.txt', text: 'y' }, big);
    assert.equal(verdict.passed, false);
    assert.match(verdict.detail, /big\.txt/);
  });

  it('a directory counts as existing, and says so', async () => {
    const verdict = await evaluate({ kind: 'file_exists', path: 'src' }, createMemoryWorkspace({ 'src/a.ts': '' }));
    assert.deepEqual(verdict, { kind: 'file_exists', passed: true, detail: 'src exists (a directory)', retryable: true });
  });

  it('says how a command ended: timed out, killed by a signal, or with no output at all', async () => {
    assert.equal((await command({ timedOut: true, exitCode: null, signal: 'SIGKILL', stdout: 'slow' })).detail, 'timed out after 7 ms and was stopped; last output: slow');
    assert.equal((await command({ exitCode: null, signal: 'SIGSEGV' })).detail, 'killed by SIGSEGV, expected 0; no output');
    assert.equal((await command({ exitCode: 3, stdout: 'out', stderr: 'err' })).detail, 'exit code 3, expected 0; last output: out\nerr');
    assert.equal((await command({ exitCode: 3, stderr: 'only err' })).detail, 'exit code 3, expected 0; last output: only err');
    assert.deepEqual(await command({ exitCode: 0 }), { kind: 'command', passed: true, detail: 'exit code 0', retryable: true });
  });

  it('runs a check command an allow rule allows without asking; without the rule nobody could answer', async () => {
    const runs: string[][] = [];
    const runner: CommandRunner = {
      describeCwd: async (cwd) => cwd,
      run: async (spec) => {
        runs.push(spec.argv);
        return { exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 1 };
      },
    };
    const check: Check = { kind: 'command', argv: ['npm', 'test', '--', '--ci'] };
    const allowed = await evaluate(check, undefined, { tools: [runCommandTool], commandRunner: runner, allowedCommands: { rules: () => [['npm', 'test', '...']] } });
    assert.deepEqual([allowed.passed, allowed.detail], [true, 'exit code 0']);
    const exactly = await evaluate(check, undefined, { tools: [runCommandTool], commandRunner: runner, allowedCommands: { rules: () => [['npm', 'test']] } });
    assert.match(exactly.detail, /not run: it needs your approval/, 'a rule without ... allows only npm test itself');
    const lookAlike = await evaluate(check, undefined, { tools: [runCommandTool], commandRunner: runner, allowedCommands: { rules: () => [['npm', 'tests']] } });
    assert.equal(lookAlike.passed, false);
    assert.match(lookAlike.detail, /not run: it needs your approval and nobody could answer/);
    assert.deepEqual(runs, [['npm', 'test', '--', '--ci']]);
  });

  it('G7: a check command allowed at Start asks again when this run changed its Makefile, and fails unasked when nobody can answer', async () => {
    const runs: string[][] = [];
    const runner: CommandRunner = {
      describeCwd: async (cwd) => cwd,
      run: async (spec) => {
        runs.push(spec.argv);
        return { exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 1 };
      },
    };
    const check: Check = { kind: 'command', argv: ['make', 'check'] };
    const options = { tools: [runCommandTool], commandRunner: runner, checkCommands: { allowed: true, commands: [{ argv: ['make', 'check'], cwd: '' }] } };
    const changed = () => [{ path: 'Makefile', stepIds: ['s'] }];
    const unanswered = await evaluate(check, undefined, options, { filesChangedInRun: changed });
    assert.deepEqual([unanswered.passed, unanswered.retryable], [false, false]);
    assert.equal(unanswered.detail, 'not run: it needs your approval and nobody could answer (this run changed a file that decides what it runs)');
    assert.deepEqual(runs, []);
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
    const approved = await evaluate(check, undefined, options, { filesChangedInRun: changed, interaction });
    assert.equal(approved.passed, true);
    assert.deepEqual(interaction.approvals().map((request) => request.kind === 'command' && request.changedInRun), [[{ path: 'Makefile', stepIds: ['s'] }]]);
    const unchanged = await evaluate(check, undefined, options, { filesChangedInRun: () => [{ path: 'src/a.c', stepIds: ['s'] }] });
    assert.equal(unchanged.passed, true, 'allowed at Start, nothing it reads changed: it runs without asking');
    assert.deepEqual(runs, [['make', 'check'], ['make', 'check']]);
  });

  it('keeps only the tail of a long output, marked as cut', async () => {
    const detail = (await command({ exitCode: 1, stdout: `${'a'.repeat(3000)}THE END` })).detail;
    assert.ok(detail.startsWith('exit code 1, expected 0; last output: …a'), detail.slice(0, 60));
    assert.ok(detail.endsWith('THE END'));
    assert.equal(detail.length, 'exit code 1, expected 0; last output: …'.length + 1500);
    const fits = (await command({ exitCode: 1, stdout: 'b'.repeat(1500) })).detail;
    assert.equal(fits, `exit code 1, expected 0; last output: ${'b'.repeat(1500)}`);
  });

  describe('no_new_diagnostics', () => {
    const diagnostics = (errors: EditorDiagnostic[]): Diagnostics & { asked: (readonly string[])[] } => {
      const asked: (readonly string[])[] = [];
      return { asked, snapshot: async () => ({ errors: [] }), errorsSince: async (_before, paths) => (asked.push(paths), errors) };
    };
    const run = (port: Diagnostics, check: Check, changed: string[] = []) =>
      evaluate(check, undefined, { diagnostics: port }, { changedFiles: () => changed, diagnosticsBefore: port.snapshot(undefined, new AbortController().signal) });

    it('looks at the paths it names, normalised, else at the changed files, and passes when there are none', async () => {
      const port = diagnostics([]);
      assert.equal((await run(port, { kind: 'no_new_diagnostics', paths: ['./src//a.ts'] }, ['other.ts'])).detail, 'no new errors in src/a.ts');
      assert.equal((await run(port, { kind: 'no_new_diagnostics' }, ['x.ts', 'y.ts'])).detail, 'no new errors in x.ts, y.ts');
      assert.deepEqual(await run(port, { kind: 'no_new_diagnostics' }), { kind: 'no_new_diagnostics', passed: true, detail: 'no files to look at: the step changed none', retryable: true });
      assert.deepEqual(port.asked, [['src/a.ts'], ['x.ts', 'y.ts']]);
    });

    it('lists at most ten new errors and counts the rest', async () => {
      const errors = Array.from({ length: 12 }, (_, index) => ({ path: 'a.ts', line: index + 1, message: `e${index + 1}` }));
      const verdict = await run(diagnostics(errors), { kind: 'no_new_diagnostics' }, ['a.ts']);
      assert.equal(verdict.detail, `12 new errors: ${errors.slice(0, 10).map((error) => `a.ts:${error.line} ${error.message}`).join('; ')}; and 2 more`);
      const ten = await run(diagnostics(errors.slice(0, 10)), { kind: 'no_new_diagnostics' }, ['a.ts']);
      assert.ok(ten.detail.startsWith('10 new errors: a.ts:1 e1;') && ten.detail.endsWith('a.ts:10 e10'), ten.detail);
    });

    it('is not available without a snapshot of the errors before the step', async () => {
      const verdict = await evaluate({ kind: 'no_new_diagnostics' }, undefined, { diagnostics: diagnostics([]) });
      assert.deepEqual([verdict.passed, verdict.retryable], [false, false]);
      assert.match(verdict.detail, /^not available/);
    });
  });

  it('plainText drops colour sequences and escapes the other control characters', () => {
    assert.equal(plainText('\u001b[1;31mFAIL\u001b[0m a\r\nb\rc\u0000\u009b'), 'FAIL a\nb\\u000dc\\u0000\\u009b');
    assert.equal(plainText('\u001b]0;title\u0007after'), 'after');
  });

  it('plainText shows text-direction controls from a command\'s output as escapes: a diagnosis cannot reverse the panel\'s text', () => {
    assert.equal(plainText('report.\u202eexe.txt \u2066x\u2069 \u200f'), 'report.\\u202eexe.txt \\u2066x\\u2069 \\u200f');
  });

  it('a text or pattern a file lacks is quoted with its direction controls shown as escapes', async () => {
    const verdict = await evaluate({ kind: 'file_contains', path: 'a.txt', text: 'gamma\u202e', pattern: 'delta\u2067' });
    assert.equal(verdict.detail, 'a.txt does not contain the text "gamma\\u202e" nor a match of "delta\\u2067"');
  });
});
