// Attacks on "two processes never hold a run at once" where the two do not see each other's process ids: a workspace
// shared by two machines (a network folder), or by a container (a bind mount, a dev container, a sandboxed editor) and
// the machine it runs on. A process id names a process only in its own PID namespace, on its own machine: a holder
// there looked gone from here, so its lock was taken over while it ran.
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const root = resolve(__dirname, '../../..');
const builtCli = process.env['TASK_PLANNER_TEST_CLI'];
const cliCommand = builtCli ? [builtCli] : ['--import', 'tsx', join(root, 'src/cli/cli.ts')];
const holderCommand = ['--import', 'tsx', join(root, 'test/support/runLockHolder.ts')];

/** `unshare` options that start a program in a new PID namespace (with its own /proc), and a new host name when `uts`. */
function namespaceOptions(uts: boolean): string[] {
  const user = process.getuid?.() === 0 ? [] : ['--user', '--map-root-user'];
  return [...user, ...(uts ? ['--uts'] : []), '--pid', '--fork', '--mount-proc', '--'];
}

/** The argv that runs `argv` in a new PID namespace; on a machine of another name (`host`) when given. */
function elsewhere(argv: string[], host?: string): string[] {
  if (host === undefined) return ['unshare', ...namespaceOptions(false), ...argv];
  return ['unshare', ...namespaceOptions(true), 'sh', '-c', 'hostname "$0" && exec "$@"', host, ...argv];
}

const namespacesWork = spawnSync('unshare', [...namespaceOptions(true), 'sh', '-c', 'hostname other-machine'], { stdio: 'ignore' }).status === 0;

/** Runs `argv` to its end; its exit code and output. */
function finished(argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const [program, ...args] = argv as [string, ...string[]];
    const env = { ...process.env };
    delete env['OPENAI_API_KEY'];
    delete env['TASK_PLANNER_API_KEY'];
    const child = spawn(program, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** Starts a process that takes the lock of `runId` in `runs` and holds it until its standard input ends; resolves with its "held <pid>" pid. */
function startHolder(argv: string[], children: ChildProcessWithoutNullStreams[]): Promise<{ child: ChildProcessWithoutNullStreams; pid: number }> {
  const [program, ...args] = argv as [string, ...string[]];
  const child = spawn(program, args, { cwd: root });
  children.push(child);
  return new Promise((settle, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const held = /^held (\d+)$/m.exec(out);
      if (held) settle({ child, pid: Number(held[1]) });
      else if (/^refused/m.test(out)) reject(new Error(`the holder could not take the lock: ${out}`));
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('close', (code) => reject(new Error(`the holder ended (${code}) before it held the lock: ${err}`)));
  });
}

/** Ends a holder (its standard input) and waits until it is gone. */
function endHolder(child: ChildProcessWithoutNullStreams): Promise<void> {
  return new Promise((settle) => {
    if (child.exitCode !== null || child.signalCode !== null) return settle();
    child.once('close', () => settle());
    child.stdin.end();
  });
}

describe('attack: a run held by a process on another machine or in another container is never taken over', function () {
  this.timeout(120_000);
  const dir = temporaryDirectory('run-lock-elsewhere-');
  const children: ChildProcessWithoutNullStreams[] = [];
  let count = 0;

  before(function () {
    // Needs PID and host name namespaces (util-linux unshare; user namespaces when not root).
    if (!namespacesWork) this.skip();
  });
  afterEach(async () => {
    await Promise.all(children.splice(0).map(endHolder));
  });

  /** A workspace whose run waits at its one edit's approval; its id, journal and the runs folder. */
  async function waitingRun(): Promise<{ ws: string; runs: string; runId: string; journal: string }> {
    const ws = join(dir.path, `ws${++count}`);
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, 'shared.txt'), 'x=1\n');
    const planFile = join(ws, '..', `plan${count}.json`);
    writeFileSync(planFile, JSON.stringify({ objective: 'held elsewhere', steps: [{ id: 'e1', tool: 'edit_file', args: { path: 'shared.txt', edits: [{ search: 'x=1', replace: 'x=2' }] } }] }));
    // No terminal, no --yes: the run stops waiting at e1's approval.
    const started = await runCli(['run', planFile, '--workspace', ws, '--json']);
    assert.equal(started.code, 3, started.stderr);
    const runs = join(ws, '.task-planner', 'runs');
    const runId = (readdirSync(runs).find((name) => name.endsWith('.jsonl')) ?? '').slice(0, -'.jsonl'.length);
    return { ws, runs, runId, journal: readFileSync(join(runs, `${runId}.jsonl`), 'utf8') };
  }

  /** Asserts `outcome` was refused for the run in use and changed nothing. */
  function assertRefused(outcome: { code: number | null; stdout: string; stderr: string }, run: { ws: string; runs: string; runId: string; journal: string }, pid: number): void {
    assert.equal(readFileSync(join(run.ws, 'shared.txt'), 'utf8'), 'x=1\n', `the change was made while the holder ran: ${outcome.stderr}`);
    assert.equal(readFileSync(join(run.runs, `${run.runId}.jsonl`), 'utf8'), run.journal, 'the journal was written while the holder ran');
    assert.equal(outcome.code, 1, outcome.stderr);
    assert.match(outcome.stderr, new RegExp(`Run ${run.runId} is in use by another task-planner \\(process ${pid} [^)]+\\): nothing was done\\. .*delete `));
  }

  it('a resume on another machine (another host name, its own process ids) is refused while this machine\'s holder runs', async () => {
    const run = await waitingRun();
    const holder = await startHolder([process.execPath, ...holderCommand, run.runs, run.runId], children);
    // Seen before the fix: the holder's id means nothing there, so its entry was removed as a killed run's, and the run resumed.
    const resumed = await finished(elsewhere([process.execPath, ...cliCommand, 'resume', run.runId, '--workspace', run.ws, '--yes'], 'other-machine'));
    assertRefused(resumed, run, holder.pid);
    assert.match(resumed.stderr, /on the machine "[^"]+"/);
    // And an undo there likewise.
    const undone = await finished(elsewhere([process.execPath, ...cliCommand, 'undo', run.runId, '--workspace', run.ws], 'other-machine'));
    assertRefused(undone, run, holder.pid);
    // Once the holder ended, the run is resumed, its change made once.
    await endHolder(holder.child);
    const later = await runCli(['resume', run.runId, '--workspace', run.ws, '--yes']);
    assert.equal(later.code, 0, later.stderr);
    assert.equal(readFileSync(join(run.ws, 'shared.txt'), 'utf8'), 'x=2\n');
  });

  it('a resume in a container of this machine (same host name, another PID namespace) is refused while the holder outside runs', async () => {
    const run = await waitingRun();
    const holder = await startHolder([process.execPath, ...holderCommand, run.runs, run.runId], children);
    const resumed = await finished(elsewhere([process.execPath, ...cliCommand, 'resume', run.runId, '--workspace', run.ws, '--yes']));
    assertRefused(resumed, run, holder.pid);
    assert.match(resumed.stderr, /in another container/);
  });

  it('two containers whose processes have the same id (each the first of its own): the second is refused, not taken for the first', async () => {
    const run = await waitingRun();
    // Each is process 1 of its own namespace, so both name their lock entry "1".
    const holder = await startHolder(elsewhere([process.execPath, ...holderCommand, run.runs, run.runId]), children);
    assert.equal(holder.pid, 1);
    // Seen before the fix: the entry "1" read as its own, so it held the run beside the first.
    const resumed = await finished(elsewhere([process.execPath, ...cliCommand, 'resume', run.runId, '--workspace', run.ws, '--yes']));
    assertRefused(resumed, run, 1);
    await endHolder(holder.child);
    assert.deepEqual(readdirSync(run.runs).filter((name) => name.endsWith('.lock')).flatMap((name) => readdirSync(join(run.runs, name))), [], 'an entry outlived its process');
  });
});
