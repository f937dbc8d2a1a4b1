import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CommandSpec } from '../../../src/core/commandPorts';
import { PathRefusedError } from '../../../src/core/workspace/resolveInRoot';
import { createNodeCommandRunner } from '../../../src/node/nodeCommandRunner';
import { pidNamespaceLauncher } from '../../../src/node/pidNamespace';
import { escapes, pidsWith, startedWith, survivorsAfter, uniqueSleep } from '../../support/processWatch';

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
    const marker = uniqueSleep();
    // Without the time-out the command waits for a 300 s sleep: the suite's time-out fails the test.
    const result = await createNodeCommandRunner(dir).run(spec(['sh', '-c', `sleep ${marker} & wait`], { timeoutMs: 300 }), never);
    assert.equal(result.timedOut, true);
    assert.deepEqual(await survivorsAfter(marker, 500), [], 'the grandchild sleep was killed too');
  });

  it('kills the process tree on an abort, even what ignores SIGTERM', async () => {
    const marker = uniqueSleep();
    const controller = new AbortController();
    const running = createNodeCommandRunner(dir).run(spec(['sh', '-c', `trap '' TERM; sleep ${marker} & wait`], { timeoutMs: 60_000 }), controller.signal);
    await startedWith(marker);
    controller.abort(new Error('cancelled'));
    // Without the SIGKILL the shell that ignores SIGTERM waits for a 300 s sleep: the suite's time-out fails the test.
    const result = await running;
    assert.equal(result.timedOut, false);
    assert.deepEqual(await survivorsAfter(marker, 500), [], 'the grandchild sleep was killed too');
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
    const marker = uniqueSleep();
    try {
      // The background sleep (300 s) holds the output open: waiting for it would fail the test at the suite's time-out.
      const result = await createNodeCommandRunner(dir).run(spec(['sh', '-c', `sleep ${marker} & echo done`]), never);
      assert.equal(result.exitCode, 0);
      assert.equal(result.stdout.trim(), 'done');
    } finally {
      for (const pid of pidsWith(marker)) process.kill(pid, 'SIGKILL');
    }
  });
  it('in a PID namespace, a command sees only its own processes, not the runner', async function () {
    if ((await pidNamespaceLauncher()) === undefined) this.skip();
    const result = await createNodeCommandRunner(dir).run(spec(['sh', '-c', 'echo $PPID; ls /proc']), never);
    const [parent, ...entries] = result.stdout.trim().split('\n');
    assert.equal(parent, '0', 'the parent is outside the namespace');
    const pids = entries.filter((entry) => /^\d+$/.test(entry)).map(Number);
    assert.ok(pids.includes(1) && !pids.includes(process.pid), `visible: ${pids.join(' ')}`);
  });

  describe('commands that try to outlive their run', () => {
    const started: string[] = [];
    const track = (marker: string): string => (started.push(marker), marker);
    afterEach(() => {
      for (const marker of started.splice(0)) for (const pid of pidsWith(marker)) process.kill(pid, 'SIGKILL');
    });
    for (const [name, script] of Object.entries(escapes)) {
      it(`kills ${name} within 1 s of the timeout`, async () => {
        const marker = track(uniqueSleep());
        const result = await createNodeCommandRunner(dir).run(spec(['sh', '-c', script(marker)], { timeoutMs: 1000 }), never);
        assert.equal(result.timedOut, true);
        assert.deepEqual(await survivorsAfter(marker, 1000), [], `${name} survived`);
      });

      it(`kills ${name} within 1 s of an abort`, async () => {
        const marker = track(uniqueSleep());
        const controller = new AbortController();
        const running = createNodeCommandRunner(dir).run(spec(['sh', '-c', script(marker)], { timeoutMs: 60_000 }), controller.signal);
        await startedWith(marker);
        controller.abort(new Error('cancelled'));
        await running;
        assert.deepEqual(await survivorsAfter(marker, 1000), [], `${name} survived`);
      });
    }

    it('without a PID namespace, still kills a setsid grandchild whose parent lives', async () => {
      const marker = track(uniqueSleep());
      const result = await createNodeCommandRunner(dir, { pidNamespace: false }).run(spec(['sh', '-c', escapes['a setsid grandchild'](marker)], { timeoutMs: 500 }), never);
      assert.equal(result.timedOut, true);
      const left = await survivorsAfter(marker, 1000);
      assert.deepEqual(left.map((pid) => fs.readFileSync(`/proc/${pid}/stat`, 'utf8')), []);
    });

    it('kills what a command left behind when it exits', async () => {
      const marker = track(uniqueSleep());
      const result = await createNodeCommandRunner(dir).run(spec(['sh', '-c', `(setsid sleep ${marker} > /dev/null 2>&1 &); echo started`]), never);
      assert.equal(result.stdout.trim(), 'started');
      assert.deepEqual(await survivorsAfter(marker, 1000), []);
    });
  });
});
