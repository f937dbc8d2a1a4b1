import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { orphanRefusal, parentDeathLauncher } from '../../../src/node/pidNamespace';

describe('orphanRefusal (a command whose runner died as it started it does not run)', () => {
  const run = (prefix: readonly string[], ...argv: string[]) => {
    const [program, ...args] = [...prefix, ...argv] as [string, ...string[]];
    return spawnSync(program, args, { encoding: 'utf8' });
  };

  it('runs the program, with its arguments as they are, while its parent is the one named', () => {
    const ran = run(orphanRefusal(process.pid), 'printf', '%s|', 'a b', '$HOME', '"');
    assert.deepEqual([ran.status, ran.stdout], [0, 'a b|$HOME|"|']);
  });

  it('attack: does not start the program when its parent is another process (the runner died first: init took the orphan)', () => {
    const ran = run(orphanRefusal(1), 'echo', 'ran');
    assert.deepEqual([ran.status, ran.stdout], [125, '']);
  });

  it('is part of the parent-death launcher where the system has one', async function () {
    const launcher = await parentDeathLauncher();
    if (launcher.length === 0) this.skip();
    assert.deepEqual(launcher.slice(-orphanRefusal(process.pid).length), orphanRefusal(process.pid));
  });
});
