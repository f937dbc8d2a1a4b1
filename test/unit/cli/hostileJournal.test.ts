import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

/**
 * Attacks from a hostile repository that commits a finished run into `.task-planner/runs` (journal + checkpoint log):
 * the user runs `task-planner undo <run>` on it. Undo must never write or delete outside the workspace, nor in `.git`
 * or `.task-planner`.
 */
const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const runId = 'hostile-run-1';

function commitRun(ws: string, records: object[]): void {
  const runs = join(ws, '.task-planner', 'runs');
  mkdirSync(runs, { recursive: true });
  const plan = {
    id: 'plan-x',
    version: 1,
    objective: 'w',
    createdAt: '1970-01-01T00:00:00.000Z',
    agents: {},
    steps: [
      {
        id: 'w1',
        title: 'write',
        kind: 'tool',
        dependsOn: [],
        tool: 'write_file',
        args: { path: 'a.txt', content: 'hello\n' },
        input: 'write',
        onFailure: 'stop',
        maxAttempts: 1,
        critical: true,
        onVerificationFailure: 'stop',
      },
    ],
  };
  const events = [
    { type: 'run_started', plan },
    { type: 'step_ready', stepId: 'w1' },
    { type: 'step_started', stepId: 'w1', attempt: 1 },
    { type: 'step_completed', stepId: 'w1', result: { path: 'a.txt', changed: true } },
    { type: 'run_completed' },
  ].map((event, index) => ({ ...event, runId, seq: index + 1, time: 1_000 + index }));
  writeFileSync(join(runs, `${runId}.jsonl`), events.map((event) => `${JSON.stringify(event)}\n`).join(''));
  const lines = records.map((record, index) => JSON.stringify({ record: { runId, stepId: 'w1', seq: index + 1, state: 'applied', ...record } }));
  writeFileSync(join(runs, `${runId}.checkpoints.json`), lines.map((line) => `${line}\n`).join(''));
}

/** A forged record of a deletion: Undo "brings back" the file with `text`. */
const deleted = (path: string, text: string, mode?: number): object => ({
  path,
  operation: 'delete',
  before: { exists: true, text, sha256: sha(text), ...(mode === undefined ? {} : { mode }) },
  afterSha256: undefined,
});
/** A forged record of a creation: Undo deletes the file while it holds `text`. */
const created = (path: string, text: string): object => ({ path, operation: 'write', before: { exists: false }, afterSha256: sha(text) });

describe('attack: a committed run whose checkpoints name paths out of the workspace or into .git/.task-planner, then undo', function () {
  this.timeout(60_000);
  const dir = temporaryDirectory('hostile-undo-');
  const env = (): Record<string, string> => ({ HOME: join(dir.path, 'home'), XDG_CACHE_HOME: join(dir.path, 'home', '.cache') });

  it('undo writes and deletes nothing outside the workspace (../, absolute, a committed link to a folder outside)', async () => {
    const ws = join(dir.path, 'ws');
    const outside = join(dir.path, 'outside');
    mkdirSync(ws, { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'victim.txt'), 'precious\n');
    writeFileSync(join(dir.path, 'victim2.txt'), 'precious\n');
    symlinkSync(outside, join(ws, 'linkout'));
    commitRun(ws, [
      deleted('../planted-dotdot.txt', 'evil\n'),
      deleted(join(dir.path, 'planted-absolute.txt'), 'evil\n'),
      deleted('linkout/planted-link.txt', 'evil\n'),
      deleted('sub/../../planted-sub.txt', 'evil\n'),
      created('../victim2.txt', 'precious\n'),
      created('linkout/victim.txt', 'precious\n'),
      created(join(outside, 'victim.txt'), 'precious\n'),
    ]);
    const undone = await runCli(['undo', runId, '--workspace', ws, '--json'], env());
    assert.ok(undone.code !== null, undone.stderr);
    assert.equal(existsSync(join(dir.path, 'planted-dotdot.txt')), false, 'undo wrote ../planted-dotdot.txt');
    assert.equal(existsSync(join(dir.path, 'planted-absolute.txt')), false, 'undo wrote an absolute path');
    assert.equal(existsSync(join(outside, 'planted-link.txt')), false, 'undo wrote through a link out');
    assert.equal(existsSync(join(dir.path, 'planted-sub.txt')), false, 'undo wrote sub/../../');
    assert.equal(readFileSync(join(dir.path, 'victim2.txt'), 'utf8'), 'precious\n', 'undo deleted ../victim2.txt');
    assert.equal(readFileSync(join(outside, 'victim.txt'), 'utf8'), 'precious\n', 'undo deleted a file outside');
  });

  it('undo writes nothing into .git (a hook) or .task-planner (a journal), in any letter case', async () => {
    const ws = join(dir.path, 'ws');
    mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(ws, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    commitRun(ws, [
      deleted('.git/hooks/pre-commit', '#!/bin/sh\ntouch OWNED\n', 0o755),
      deleted('.GIT/hooks/post-checkout', '#!/bin/sh\ntouch OWNED\n', 0o755),
      deleted('.git/config', '[core]\n\tfsmonitor = ./evil.sh\n'),
      deleted('.task-planner/runs/planted.jsonl', '{}\n'),
      created('.git/HEAD', 'ref: refs/heads/main\n'),
    ]);
    const undone = await runCli(['undo', runId, '--workspace', ws, '--json'], env());
    assert.ok(undone.code !== null, undone.stderr);
    assert.equal(existsSync(join(ws, '.git', 'hooks', 'pre-commit')), false, 'undo planted a git hook');
    assert.equal(existsSync(join(ws, '.git', 'hooks', 'post-checkout')), false, 'undo planted a git hook through .GIT');
    assert.equal(existsSync(join(ws, '.git', 'config')), false, 'undo wrote .git/config');
    assert.equal(existsSync(join(ws, '.task-planner', 'runs', 'planted.jsonl')), false, 'undo wrote into .task-planner');
    assert.equal(existsSync(join(ws, '.git', 'HEAD')), true, 'undo deleted .git/HEAD');
  });
});

/** A committed interrupted run whose first step's result is `depth` arrays deep; its second step writes b.txt. */
function commitDeepRun(ws: string, id: string, depth: number): void {
  const runs = join(ws, '.task-planner', 'runs');
  mkdirSync(runs, { recursive: true });
  const step = (stepId: string, tool: string, args: object, dependsOn: string[]) => ({
    id: stepId,
    title: stepId,
    kind: 'tool',
    dependsOn,
    tool,
    args,
    input: stepId,
    onFailure: 'stop',
    maxAttempts: 1,
    critical: true,
    onVerificationFailure: 'stop',
  });
  const plan = {
    id: 'plan-deep',
    version: 1,
    objective: 'deep',
    createdAt: '1970-01-01T00:00:00.000Z',
    agents: {},
    steps: [step('s1', 'read_file', { path: 'a.txt' }, []), step('w1', 'write_file', { path: 'b.txt', content: 'x\n' }, ['s1'])],
  };
  const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const lines = [
    JSON.stringify({ type: 'run_started', plan, runId: id, seq: 1, time: 1 }),
    JSON.stringify({ type: 'step_ready', stepId: 's1', runId: id, seq: 2, time: 2 }),
    JSON.stringify({ type: 'step_started', stepId: 's1', attempt: 1, runId: id, seq: 3, time: 3 }),
    `{"type":"step_completed","stepId":"s1","result":${deep},"runId":"${id}","seq":4,"time":4}`,
    JSON.stringify({ type: 'run_cancelled', reason: 'stopped', interrupted: true, runId: id, seq: 5, time: 5 }),
  ];
  writeFileSync(join(runs, `${id}.jsonl`), `${lines.join('\n')}\n`);
  writeFileSync(join(ws, 'a.txt'), 'a\n');
}

describe('attack: bounded: a committed journal nested 200,000 levels deep, and a journal of one garbled line', function () {
  this.timeout(60_000);
  const dir = temporaryDirectory('hostile-deep-');
  const env = (): Record<string, string> => ({ HOME: join(dir.path, 'home'), XDG_CACHE_HOME: join(dir.path, 'home', '.cache') });

  it('trace of a deeply nested journal fails clearly (naming the run or its journal) or works, never with a bare stack overflow', async () => {
    const ws = join(dir.path, 'ws');
    commitDeepRun(ws, 'deep-run', 200_000);
    const traced = await runCli(['trace', 'deep-run', '--workspace', ws], env());
    assert.doesNotMatch(traced.stderr, /Maximum call stack size exceeded/, `trace: exit ${traced.code}, ${traced.stderr.trim()}`);
    assert.match(traced.stderr, /Line 4 of the run journal .*deep-run\.jsonl holds values nested more than 1000 levels deep, which no run writes/);
    // From a newcomer's trial: the listing cut the reason to fit its row; it is said in full below.
    const listed = await runCli(['runs', '--workspace', ws], env());
    assert.match(listed.stdout, /^deep-run +unreadable +0\/0 .*…$/m);
    assert.match(listed.stdout, /^deep-run cannot be read: Line 4 of the run journal .*deep-run\.jsonl holds values nested more than 1000 levels deep, which no run writes/m);
  });

  it('resume --json of a deeply nested journal prints its result as JSON or fails clearly, never with a bare stack overflow', async () => {
    const ws = join(dir.path, 'ws');
    commitDeepRun(ws, 'deep-run', 200_000);
    const resumed = await runCli(['resume', 'deep-run', '--workspace', ws, '--json'], env());
    assert.doesNotMatch(resumed.stderr, /Maximum call stack size exceeded/, `resume --json: exit ${resumed.code}, ${resumed.stderr.trim().slice(-300)}`);
  });

  it('a journal that is one garbled line (no run_started) is not listed as an interrupted run to resume', async () => {
    const ws = join(dir.path, 'ws');
    mkdirSync(join(ws, '.task-planner', 'runs'), { recursive: true });
    writeFileSync(join(ws, '.task-planner', 'runs', 'g1.jsonl'), 'garbage, not a journal line');
    const listed = await runCli(['runs', '--workspace', ws, '--json'], env());
    const entry = (JSON.parse(listed.stdout) as { runId: string; status: string; objective: string }[]).find((run) => run.runId === 'g1');
    assert.notEqual(entry?.status, 'interrupted', `runs lists the garbled journal as ${JSON.stringify(entry)}`);
    assert.deepEqual([entry?.status, entry?.objective], ['unreadable', 'its journal holds no start of a run (no plan): it was not written by Task Planner, or its first line was lost']);
    const traced = await runCli(['trace', 'g1', '--workspace', ws], env());
    assert.notEqual(traced.code, 0);
    assert.match(traced.stderr, /Run "g1" has nothing to trace: its journal holds no start of a run/);
  });
});
