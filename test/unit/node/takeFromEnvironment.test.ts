import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const module = resolve(__dirname, '../../../src/node/takeFromEnvironment.ts');

/**
 * Runs `script` in a fresh Node process started with `env` (the block /proc shows) and
 * returns what it printed; `take` is the module under test.
 */
function inFreshProcess(script: string, env: Record<string, string>): string {
  const program = `const { takeFromEnvironment: take } = require(${JSON.stringify(module)}); ${script}`;
  return execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', program], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
}

describe('takeFromEnvironment', function () {
  this.timeout(20_000);
  const parentEnvironment = "require('node:child_process').execFileSync('sh', ['-c', \"tr '\\\\0' '\\\\n' < /proc/$PPID/environ\"], { env: {}, encoding: 'utf8' })";

  it('a child reading /proc/$PPID/environ no longer finds what was taken; the rest stays', function () {
    if (process.platform !== 'linux') this.skip();
    const output = inFreshProcess(
      `const taken = take((name) => name === 'MY_SECRET'); console.log(JSON.stringify({ taken, env: process.env.MY_SECRET ?? null, other: process.env.OTHER, parent: ${parentEnvironment} }));`,
      { MY_SECRET: 'sk-do-not-leak-123456789', OTHER: 'visible' },
    );
    const result = JSON.parse(output) as { taken: { values: Record<string, string>; hidden: boolean }; env: string | null; other: string; parent: string };
    assert.deepEqual(result.taken, { values: { MY_SECRET: 'sk-do-not-leak-123456789' }, hidden: true });
    assert.equal(result.env, null, 'process.env forgot it');
    assert.equal(result.other, 'visible');
    assert.ok(!result.parent.includes('sk-do-not-leak'), 'the child read the secret from its parent');
    assert.match(result.parent, /^OTHER=visible$/m);
  });

  it('only deleting from process.env leaves the value in /proc/PID/environ (why the block is cleared)', function () {
    if (process.platform !== 'linux') this.skip();
    const output = inFreshProcess(`delete process.env.MY_SECRET; console.log(${parentEnvironment})`, { MY_SECRET: 'sk-still-there-123456789' });
    assert.match(output, /MY_SECRET=sk-still-there-123456789/);
  });

  it('takes nothing and reports it hidden when no variable matches', () => {
    const output = inFreshProcess("console.log(JSON.stringify(take(() => false)))", { A: '1' });
    assert.deepEqual(JSON.parse(output), { values: {}, hidden: true });
  });
});
