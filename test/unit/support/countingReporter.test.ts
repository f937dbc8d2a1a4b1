import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const root = resolve(__dirname, '..', '..', '..');

interface Stats {
  passed: number;
  failed: number;
  skipped: number;
  failedTests: { title: string; message: string }[];
  flakyTests: { title: string; message: string }[];
}

/** Runs mocha with the counting reporter over `spec` (a CommonJS test file) with `--retries 1` in `folder`; its stats. */
function runSpec(folder: string, spec: string): Stats {
  const file = join(folder, 'spec.cjs');
  const statsFile = join(folder, 'stats.json');
  writeFileSync(file, spec);
  spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--reporter', join(root, 'test', 'support', 'countingReporter.cjs'), '--retries', '1', file],
    {
      cwd: folder,
      env: { ...process.env, TEST_STATS_FILE: statsFile },
      encoding: 'utf8',
    },
  );
  return JSON.parse(readFileSync(statsFile, 'utf8')) as Stats;
}

describe('the counting reporter (scripts/test.mjs sums its stats into the closing line)', function () {
  this.timeout(30_000);
  const folder = temporaryDirectory('counting-reporter-');

  it('names a test that passed only on its second try, with why its first try failed, and counts it passed once', () => {
    const stats = runSpec(
      folder.path,
      `let tries = 0;
it('steady', () => {});
it('wobbly', () => { tries += 1; if (tries === 1) throw new Error('missed a moment'); });
`,
    );
    assert.equal(stats.passed, 2);
    assert.equal(stats.failed, 0);
    assert.deepEqual(
      stats.flakyTests.map((test) => [test.title, test.message]),
      [['wobbly', 'missed a moment']],
    );
  });

  it('fails a test that fails on both tries, and does not call it flaky', () => {
    const stats = runSpec(
      folder.path,
      `it('broken', () => { throw new Error('always'); });
`,
    );
    assert.equal(stats.passed, 0);
    assert.equal(stats.failed, 1);
    assert.deepEqual(
      stats.failedTests.map((test) => [test.title, test.message]),
      [['broken', 'always']],
    );
    assert.deepEqual(stats.flakyTests, []);
  });

  it('keeps why the first try failed when the second fails otherwise (on what the first left behind)', () => {
    const stats = runSpec(
      folder.path,
      `let tries = 0;
it('stateful', () => { tries += 1; throw new Error(tries === 1 ? 'the real failure' : 'what it left behind'); });
`,
    );
    assert.equal(stats.failed, 1);
    assert.deepEqual(
      stats.failedTests.map((test) => [test.title, test.message]),
      [['stateful', 'what it left behind\nfirst try: the real failure']],
    );
  });

  it('keeps what reproduces a failed property: its seed and path, the counterexample and the error it got', () => {
    const stats = runSpec(
      folder.path,
      `const fc = require(${JSON.stringify(join(root, 'node_modules', 'fast-check'))});
it('property', () => fc.assert(fc.property(fc.nat(), (n) => { if (n > 5) throw new Error('too big: ' + n); }), { seed: 42 }));
`,
    );
    assert.equal(stats.failed, 1);
    const lines = stats.failedTests[0]?.message.split('\n') ?? [];
    assert.match(lines[0] ?? '', /^Property failed after \d+ tests$/);
    assert.match(lines[1] ?? '', /^\{ seed: 42, path: "[\d:]+"/);
    assert.equal(lines[2], 'Counterexample: [6]');
    assert.equal(lines.at(-1), 'Caused by: too big: 6');
    assert.ok(lines.length <= 6, lines.join('\n'));
  });

  it("keeps an assertion's actual and expected values, not only its first line", () => {
    const stats = runSpec(
      folder.path,
      `it('equal', () => require('node:assert/strict').equal(null, 'SIGKILL'));
`,
    );
    assert.deepEqual(stats.failedTests[0]?.message.split('\n'), ['Expected values to be strictly equal:', '+ actual - expected', '+ null', "- 'SIGKILL'"]);
  });
});
