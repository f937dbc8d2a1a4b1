#!/usr/bin/env node
// Runs every test suite in order and prints one closing line "N passed, N failed, N skipped"
// summing them all; exits non-zero when anything failed. Usage: node scripts/test.mjs [--only NAME,...]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mutationGroups } from '../test/mutation/mutationGroups.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex > 0 ? new Set((process.argv[onlyIndex + 1] ?? '').split(',')) : undefined;
const statsDir = mkdtempSync(join(tmpdir(), 'task-planner-test-'));
const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Each suite: a name, and how to run it. Counted suites write mocha stats; checks count as one test each. */
const suites = [
  { name: 'types', checks: [
    ['tsc src', bin('tsc'), ['-p', 'tsconfig.json']],
    ['tsc webview', bin('tsc'), ['-p', 'webview/tsconfig.json']],
    ['tsc test', bin('tsc'), ['-p', 'test/tsconfig.json']],
  ] },
  { name: 'build', checks: [['esbuild', process.execPath, ['esbuild.mjs']]] },
  // The real VS Code host (code-server, Node 24, chromium): installed on first use, about a second once it is.
  // Before the unit tests, which use the ripgrep it ships (test/unit/node/ripgrepSearcher.test.ts).
  { name: 'host', checks: [
    ['host setup', 'bash', ['test/host/setup.sh']],
    ['tsc test/host (harness, e2e)', bin('tsc'), ['-p', 'test/host/tsconfig.json']],
  ] },
  { name: 'unit', mocha: ['--require', 'tsx/cjs', '--timeout', '20000', 'test/unit/**/*.test.ts', 'test/arch/**/*.test.ts'] },
  // Mutation testing of the safety-critical modules, one check per group at its threshold; incremental
  // from the committed results (test/mutation/incremental/), so only mutants whose code or tests changed run again.
  { name: 'mutation', checks: mutationGroups.filter((group) => group.ci).map((group) => [`mutation ${group.name}`, process.execPath, ['scripts/mutation.mjs', '--keep-baseline', group.name]]) },
  // ESLint's type-checked rules over src, webview, test and scripts (eslint.config.mjs); after the host
  // setup, since the e2e tests are typed against the browser driver it installs.
  { name: 'lint', checks: [['eslint', bin('eslint'), ['.']]] },
  { name: 'integration', command: [process.execPath, '--import', 'tsx', 'test/integration/runIntegration.ts'] },
  { name: 'e2e', mocha: ['--require', 'tsx/cjs', '--timeout', '120000', '--exit', 'test/e2e/**/*.test.ts'] },
  // `npm run package` as a user runs it, then its .vsix listed against the allowlist (test/arch/vsixContents.ts). Last, since
  // it leaves the production bundles in dist/ as `npm run package` does; the .vsix goes to a temporary folder.
  { name: 'package', mocha: ['--require', 'tsx/cjs', '--timeout', '180000', 'test/package/**/*.test.ts'] },
];

const totals = { passed: 0, failed: 0, skipped: 0 };

/** Ctrl-C reaches the suite's processes too; stop here instead of starting the next suite. */
function stopIfInterrupted(outcome) {
  if (outcome.signal !== 'SIGINT' && outcome.signal !== 'SIGTERM' && outcome.status !== 130) return;
  rmSync(statsDir, { recursive: true, force: true });
  console.log(`\nInterrupted (${outcome.signal ?? 'exit 130'}); later suites were not run.`);
  process.exit(130);
}
for (const suite of suites) {
  if (only && !only.has(suite.name)) continue;
  console.log(`\n=== ${suite.name} ===`);
  if (suite.checks) {
    for (const [label, command, args] of suite.checks) {
      const outcome = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
      stopIfInterrupted(outcome);
      const ok = outcome.status === 0;
      console.log(`${ok ? '✔' : '✘'} ${label}`);
      totals[ok ? 'passed' : 'failed']++;
    }
    continue;
  }
  const statsFile = join(statsDir, `${suite.name}.json`);
  const command = suite.command ?? [bin('mocha'), '--reporter', join(root, 'test/support/countingReporter.cjs'), ...suite.mocha];
  const outcome = spawnSync(command[0], command.slice(1), {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TEST_STATS_FILE: statsFile },
  });
  stopIfInterrupted(outcome);
  if (existsSync(statsFile)) {
    const stats = JSON.parse(readFileSync(statsFile, 'utf8'));
    totals.passed += stats.passed;
    totals.failed += stats.failed;
    totals.skipped += stats.skipped;
    if (outcome.status !== 0 && stats.failed === 0) totals.failed++;
  } else {
    console.log(`✘ suite ${suite.name} ended (exit ${outcome.status ?? outcome.signal}) without reporting its results`);
    totals.failed++;
  }
}
rmSync(statsDir, { recursive: true, force: true });
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
