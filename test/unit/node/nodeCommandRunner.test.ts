import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CommandSpec } from '../../../src/core/tools/commandRunner';
import { PathRefusedError } from '../../../src/core/workspace/resolveInRoot';
import { createNodeCommandRunner } from '../../../src/node/nodeCommandRunner';

/** Alive and not a zombie (a container's PID 1 may never reap orphans). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/**
 * Whether `pid` is gone within `ms`: a SIGKILLed process closes its pipes (which settles the
 * run) a moment before the kernel marks it dead, so one immediate probe would race.
 */
async function diesWithin(pid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited <= ms; waited += 10) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

async function waitForFile(file: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').trim() !== '') return fs.readFileSync(file, 'utf8').trim();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${file} never appeared`);
}

describe('createNodeCommandRunner', function () {
  this.timeout(10_000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-cmd-'));
    fs.mkdirSync(path.join(dir, 'sub'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const spec = (argv: string[], extra: Partial<CommandSpec> = {}): CommandSpec => ({ argv, cwd: '', timeoutMs: 5000, maxOutputBytes: 64 * 1024, ...extra });
  const never = new AbortController().signal;

  it('runs argv without a shell in the confined cwd, with stdin', async () => {
    const runner = createNodeCommandRunner(dir);
    const result = await runner.run(spec([process.execPath, '-e', 'process.stdin.pipe(process.stdout); console.error(process.cwd())', '$HOME; echo injected'], { cwd: 'sub', stdin: 'from stdin' }), never);
    assert.equal(result.exitCode, 0);
    assert.equal(result.stdout, 'from stdin');
    assert.equal(result.stderr.trim(), fs.realpathSync(path.join(dir, 'sub')));
    assert.equal(await runner.describeCwd('sub'), fs.realpathSync(path.join(dir, 'sub')));
    await assert.rejects(runner.run(spec(['ls'], { cwd: '../' }), never), PathRefusedError);
  });

  it('kills the whole process tree on timeout', async () => {
    const pidFile = path.join(dir, 'grandchild.pid');
    const started = Date.now();
    const result = await createNodeCommandRunner(dir).run(spec(['sh', '-c', `sleep 30 & echo $! > ${pidFile}; wait`], { timeoutMs: 300 }), never);
    const grandchild = Number(await waitForFile(pidFile));
    assert.equal(result.timedOut, true);
    assert.equal(result.exitCode, null);
    assert.ok(Date.now() - started < 2000);
    assert.equal(await diesWithin(grandchild, 500), true, 'the grandchild sleep was killed too');
  });

  it('kills the process tree within 1 s of an abort', async () => {
    const pidFile = path.join(dir, 'grandchild.pid');
    const controller = new AbortController();
    const running = createNodeCommandRunner(dir).run(spec(['sh', '-c', `trap '' TERM; sleep 30 & echo $! > ${pidFile}; wait`], { timeoutMs: 60_000 }), controller.signal);
    const grandchild = Number(await waitForFile(pidFile));
    const abortedAt = Date.now();
    controller.abort(new Error('cancelled'));
    const result = await running;
    assert.ok(Date.now() - abortedAt < 1000, `took ${Date.now() - abortedAt} ms`);
    assert.equal(result.timedOut, false);
    assert.equal(await diesWithin(grandchild, 500), true, 'the grandchild sleep was killed too');
  });

  it('caps output per stream, keeping head and tail', async () => {
    const script = "process.stdout.write('HEAD' + 'x'.repeat(1_000_000) + 'TAIL'); process.stderr.write('e'.repeat(10))";
    const result = await createNodeCommandRunner(dir).run(spec([process.execPath, '-e', script], { maxOutputBytes: 1000 }), never);
    assert.equal(result.truncated, true);
    assert.ok(result.stdout.startsWith('HEADxxx'));
    assert.ok(result.stdout.endsWith('xxxTAIL'));
    assert.match(result.stdout, /\[… 999008 bytes of output omitted …\]/);
    assert.ok(result.stdout.length < 1100);
    assert.equal(result.stderr, 'e'.repeat(10));
  });

  it('removes secret-looking variables from the child environment', async () => {
    const env = { PATH: process.env.PATH, HOME: '/home/u', OPENAI_API_KEY: 'sk-abcdefghijklmnopqrstuvwx', MY_SERVICE_TOKEN: 'abc', DB_PASSWORD: 'pw', INNOCENT_NAME: 'ghp_abcdefghijklmnopqrstuvwxyz012345', KEEP_ME: 'yes' };
    const result = await createNodeCommandRunner(dir, { env }).run(spec([process.execPath, '-e', 'console.log(JSON.stringify(Object.keys(process.env).sort()))']), never);
    const names = JSON.parse(result.stdout) as string[];
    assert.ok(names.includes('KEEP_ME') && names.includes('HOME') && names.includes('PATH'));
    for (const secret of ['OPENAI_API_KEY', 'MY_SERVICE_TOKEN', 'DB_PASSWORD', 'INNOCENT_NAME']) assert.ok(!names.includes(secret), secret);
  });

  it('streams output as it arrives', async () => {
    const chunks: string[] = [];
    await createNodeCommandRunner(dir).run(spec([process.execPath, '-e', "console.log('one'); console.error('two')"], { onOutput: (text) => chunks.push(text) }), never);
    assert.deepEqual(chunks.join('').split('\n').filter(Boolean).sort(), ['one', 'two']);
  });

  it('reports exit codes, and a program that does not exist clearly', async () => {
    const runner = createNodeCommandRunner(dir);
    assert.equal((await runner.run(spec([process.execPath, '-e', 'process.exit(3)']), never)).exitCode, 3);
    await assert.rejects(runner.run(spec(['definitely-not-a-program-xyz']), never), /Cannot start "definitely-not-a-program-xyz": no such program on PATH/);
  });

  it('does not wait for background children that keep the output open after the command exits', async () => {
    const started = Date.now();
    const result = await createNodeCommandRunner(dir).run(spec(['sh', '-c', 'sleep 30 & echo done']), never);
    assert.equal(result.exitCode, 0);
    assert.equal(result.stdout.trim(), 'done');
    assert.ok(Date.now() - started < 2000);
  });
});
