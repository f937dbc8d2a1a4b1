import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CommandSpec } from '../../../src/core/commandPorts';
import { classifyStartFailure } from '../../../src/core/tools/commandFailure';
import { createNodeCommandRunner } from '../../../src/node/nodeCommandRunner';

describe('createNodeCommandRunner: why a program could not start', function () {
  this.timeout(10_000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-start-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const spec = (argv: string[]): CommandSpec => ({ argv, cwd: '', timeoutMs: 5000, maxOutputBytes: 64 * 1024 });
  const never = new AbortController().signal;
  const rejection = async (runner: ReturnType<typeof createNodeCommandRunner>, argv: string[]): Promise<unknown> => {
    try {
      await runner.run(spec(argv), never);
    } catch (error) {
      return error;
    }
    return assert.fail('the program started');
  };

  for (const pidNamespace of [true, false]) {
    it(`rejects a program that is not there with the code ENOENT, not worth another attempt (pidNamespace ${pidNamespace})`, async () => {
      const error = await rejection(createNodeCommandRunner(dir, { pidNamespace }), ['no-such-program-tp-29']);
      assert.equal((error as { code?: unknown }).code, 'ENOENT');
      assert.match((error as Error).message, /Cannot start "no-such-program-tp-29"/);
      assert.deepEqual(classifyStartFailure(error), { kind: 'not_found', transient: false, notRetried: 'another attempt would not find it either.' });
    });
  }
});
