import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { temporaryDirectory } from '../../support/temporaryDirectory';
import { loadPlanFile, terminalIo, UsageError } from '../../../src/cli/cliIo';

function collect(stream: PassThrough): () => string {
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

describe('terminalIo', () => {
  it('escapes control characters in results, messages and questions, and reads the answer', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out = collect(stdout);
    const err = collect(stderr);
    const io = terminalIo({ stdin, stdout, stderr, interactive: true });
    io.out('result \u001b[8mhidden');
    io.err('progress \u001b]0;title\u0007');
    const answer = io.ask('Write notes.txt?\n+\u001b[8mrm -rf ~\u001b[0m\nApprove? ', new AbortController().signal);
    stdin.write('  y \n');
    assert.equal(await answer, 'y');
    assert.equal(out(), 'result \\u001b[8mhidden\n');
    assert.equal(err(), 'progress \\u001b]0;title\\u0007\nWrite notes.txt?\n+\\u001b[8mrm -rf ~\\u001b[0m\nApprove? ');
  });

  // A newcomer's find (2026-12-01): Ctrl+C at "Approve?" failed the step ("Aborted with Ctrl+C") and a repair plan went on.
  it('takes Ctrl+C at a question for the user\'s Ctrl+C: the process is interrupted, the question not answered', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
    const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
    let interrupted = 0;
    const io = terminalIo({ stdin, stdout: new PassThrough(), stderr, interactive: true, onInterrupt: () => interrupted++ });
    const stop = new AbortController();
    const answer = io.ask('Approve? [y]es / [n]o / [d]efer: ', stop.signal);
    await new Promise((settle) => setImmediate(settle));
    stdin.write('\u0003');
    await new Promise((settle) => setImmediate(settle));
    assert.equal(interrupted, 1);
    stop.abort(new Error('Interrupted (Ctrl+C).'));
    await assert.rejects(answer);
  });

  it('takes Ctrl+D (the end of input) at a question as Ctrl+C: the run stops to resume, the step that asked does not fail', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
    const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
    let interrupted = 0;
    const io = terminalIo({ stdin, stdout: new PassThrough(), stderr, interactive: true, onInterrupt: () => interrupted++ });
    const stop = new AbortController();
    let settled = false;
    const answer = io.ask('Done? [y]es / [n]o / [l]ater: ', stop.signal).finally(() => (settled = true));
    await new Promise((settle) => setImmediate(settle));
    stdin.write('\u0004');
    await new Promise((settle) => setImmediate(settle));
    assert.equal(interrupted, 1);
    assert.equal(settled, false, 'the question failed on its own, before the run stopped');
    stop.abort(new Error('Interrupted (Ctrl+C).'));
    await assert.rejects(answer, /Interrupted \(Ctrl\+C\)\./);
  });

  it('holds progress that comes while a question waits and writes it after the answer, never onto the question\'s line (issue 28 item 12)', async () => {
    const stdin = new PassThrough();
    const stderr = new PassThrough();
    const err = collect(stderr);
    const io = terminalIo({ stdin, stdout: new PassThrough(), stderr, interactive: true });
    const answer = io.ask('Step S2 wants to run:\n  "pytest"\nApprove? [y]es / [n]o / [d]efer: ', new AbortController().signal);
    await new Promise((settle) => setImmediate(settle));
    io.err('[1/3] ✔ S1 Read the readme in 3 ms');
    for (let index = 0; index < 205; index++) io.err(`line ${index}`);
    await new Promise((settle) => setImmediate(settle));
    assert.match(err(), /Approve\? \[y\]es \/ \[n\]o \/ \[d\]efer: $/, 'progress was written onto the waiting question');
    stdin.write('y\n');
    assert.equal(await answer, 'y');
    // The answer's Enter ends the question's line on a terminal; the held progress follows it, each message on its own line.
    const after = err().slice(err().indexOf('[d]efer: ') + '[d]efer: '.length).split('\n');
    assert.equal(after[0], '[1/3] ✔ S1 Read the readme in 3 ms');
    assert.equal(after[1], 'line 0');
    assert.ok(after.includes('line 198'));
    assert.ok(!after.includes('line 199'), 'more messages were held than the limit');
    assert.ok(after.includes('… 6 more messages came while the question waited (see the run\'s journal)'));
    io.err('after');
    assert.equal(err().split('\n').at(-2), 'after');
  });

  it('stops writing to an output whose reader went away (`task-planner runs | head`) instead of crashing', async () => {
    const written: string[] = [];
    const closedPipe = () =>
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          written.push(chunk.toString());
          done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
        },
      });
    const io = terminalIo({ stdin: new PassThrough(), stdout: closedPipe(), stderr: closedPipe(), interactive: false });
    io.out('first result');
    io.err('first message');
    await new Promise((settle) => setImmediate(settle));
    io.out('second result');
    io.err('second message');
    await new Promise((settle) => setImmediate(settle));
    assert.deepEqual(written, ['first result\n', 'first message\n']);
  });

  it('goes on without writing once its terminal is closed (EIO), instead of dying before the run is journaled', async () => {
    const written: string[] = [];
    const closedTerminal = () =>
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          written.push(chunk.toString());
          done(Object.assign(new Error('write EIO'), { code: 'EIO' }));
        },
      });
    const io = terminalIo({ stdin: new PassThrough(), stdout: closedTerminal(), stderr: closedTerminal(), interactive: false });
    io.err('[0/1] ▶ s');
    io.out('summary');
    await new Promise((settle) => setImmediate(settle));
    io.err('Run r1 interrupted: Its terminal was closed (SIGHUP).');
    io.out('more summary');
    await new Promise((settle) => setImmediate(settle));
    assert.deepEqual(written, ['[0/1] ▶ s\n', 'summary\n']);
  });
});

describe('loadPlanFile', () => {
  const folder = temporaryDirectory('cli-plan-file-');
  const plan = JSON.stringify({ objective: 'Say hi', steps: [{ id: 'S1', title: 'Say hi', tool: 'run_command', args: { argv: ['echo', 'hi'] } }] });

  it('stops reading a plan file without end at the limit, counting the bytes read: /dev/zero', async () => {
    await assert.rejects(
      loadPlanFile('/dev/zero'),
      (error: unknown) => error instanceof UsageError && error.message === 'The plan file /dev/zero is larger than 10000000 bytes, the most read; is it the right file?',
    );
  });

  it('reads a plan file given as a pipe, as process substitution gives one', async function () {
    if (process.platform === 'win32') this.skip();
    const fifo = join(folder.path, 'plan.fifo');
    spawnSync('mkfifo', [fifo]);
    writeFileSync(join(folder.path, 'plan.json'), plan);
    const writer = spawn('sh', ['-c', `cat '${join(folder.path, 'plan.json')}' > '${fifo}'`]);
    try {
      assert.equal((await loadPlanFile(fifo)).plan.objective, 'Say hi');
    } finally {
      writer.kill();
    }
  });
});
