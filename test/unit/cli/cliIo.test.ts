import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { terminalIo } from '../../../src/cli/cliIo';

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
});
