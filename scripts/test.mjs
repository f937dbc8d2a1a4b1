#!/usr/bin/env node
// Runs every test suite in order and prints one closing line "N passed, N failed, N skipped"
// summing them all; exits non-zero when anything failed. Usage: node scripts/test.mjs [--only NAME,...]
// Each suite and check prints how long it took. Every mocha run forbids `.only`, so a committed `it.only`
// fails instead of quietly running one test.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { e2eLanes } from '../test/e2e/e2eLanes.mjs';
import { mutationGroups } from '../test/mutation/mutationGroups.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ripgrepTests = 'test/unit/node/ripgrepSearcher.test.ts';
const bin = (name) => join(root, 'node_modules', '.bin', name);

/**
 * Each suite: a name, and how to run it. Counted suites write mocha stats; checks count as one test each.
 * A check marked `early` starts when this script does (its output is held back until its turn), so a cold
 * install of the VS Code host goes on while the type checks, the build, the mutation tests, the eval harness and the
 * unit tests (which need no host) run. A check or suite marked `alongside` another starts just before that one (a suite marked also
 * `after` some others, once they ended) and is reported at its own turn.
 */
const suites = [
  { name: 'build', checks: [['esbuild', process.execPath, ['esbuild.mjs']]] },
  // Mutation testing of the safety-critical modules, one check per group at its threshold, incremental from
  // the committed results (test/mutation/incremental/), so only mutants whose code or tests changed run again.
  { name: 'mutation', checks: mutationGroups.filter((group) => group.ci).map((group) => [`mutation ${group.name}`, process.execPath, ['scripts/mutation.mjs', '--keep-baseline', group.name]]) },
  // The CLI's tests run the CLI this run built (dist/cli.js, see test/support/runCli.ts) rather than its sources through tsx.
  // Two files at a time (mocha's --parallel, each file in a worker process of its own): the suite is CPU-bound in one
  // process, and half its time is the CLI's and MCP servers' processes (296 s → 184 s on an idle 2-core machine).
  // The one unit test file that needs the host (the ripgrep code-server ships) is the suite `ripgrep`, after the host setup.
  { name: 'unit', mocha: ['--require', 'tsx/cjs', '--timeout', '20000', '--parallel', '--jobs', '2', '--ignore', ripgrepTests, 'test/unit/**/*.test.ts', 'test/arch/**/*.test.ts'],
    builtCli: true },
  // The real VS Code host (code-server, Node 24, chromium): installed on first use into a cache outside the
  // clone keyed on its lock file (test/host/setup.sh), about a second once it is, minutes on a new machine. Nothing waits
  // for it that does not need it: the unit tests, tsc and the eval harness go on while a cold install does.
  { name: 'host', checks: [['host setup', 'bash', ['test/host/setup.sh'], { early: true }]] },
  // Beside the unit tests and the lint: alone it kept this 2-core machine 63 % busy (its VS Code host waits on its windows;
  // vmstat), and the unit tests wait on the CLI's and the MCP servers' processes: unit and integration took 232 s one after
  // the other, 202 s side by side (clean clones of 2026-12-01). Its output is held back and printed at its turn.
  { name: 'integration', command: [process.execPath, '--import', 'tsx', 'test/integration/runIntegration.ts'], alongside: 'unit', after: ['host setup'] },
  // tsc over the test program (test/tsconfig.json includes src, so src is type-checked once; what it adds to src's types,
  // mocha's globals, is kept out of src by the lint rule no-restricted-globals), the webview and the e2e harness
  // (test/host), then ESLint's type-checked rules over src, webview, test and scripts (eslint.config.mjs), in one process
  // over the same programs (scripts/typesAndLint.mjs: 124 CPU-s apart, 90 together). It starts beside the build once the
  // host setup ended (about a second with the host cached), since the e2e tests are typed against the browser driver that
  // installs, goes on beside the unit tests, and is reported here.
  { name: 'types', checks: [['tsc and eslint', process.execPath, ['scripts/typesAndLint.mjs'], { alongside: 'build', after: ['host setup'] }]] },
  // `npm run eval` against a scripted model (canned good plans and the attacks): tests the harness, not a model.
  // Runs the CLI this run built (dist/cli.js). It starts beside the mutation tests (most mutants are taken from the
  // committed results, so those leave a core free) and goes on beside the unit tests; it needs no host, so a cold install
  // of the host goes on beside it too. The unit tests no longer wait for tsc and this harness: the machine was a third
  // idle in the ~45 s they took before the unit tests started (2026-12-04).
  { name: 'eval', checks: [['eval harness (scripted model)', process.execPath, ['--import', 'tsx', 'test/eval/runEval.ts', '--scripted'], { alongside: 'mutation' }]] },
  // test/unit/node/ripgrepSearcher.test.ts, against the ripgrep code-server ships (it skips, saying so, where there is none).
  { name: 'ripgrep', mocha: ['--require', 'tsx/cjs', '--timeout', '20000', ripgrepTests], alongside: 'unit', after: ['host setup'] },
  // A test that fails is tried once more, on the same workbench, as Playwright's own runner does on CI: a browser UI on a
  // loaded 2-core machine now and then misses a moment. One that passes on its second try is named above the closing
  // line ("Passed only when tried again"); one that fails twice fails the run.
  // In two lanes, two mocha processes at once, each with a browser and code-server of its own (test/e2e/e2eLanes.mjs says why).
  // It starts as soon as the integration tests and the lint ended, beside the unit tests' last files: those wait on the
  // MCP servers' and the CLI's time limits and left the machine two-thirds idle for their last ~50 s (2026-12-04).
  { name: 'e2e', mocha: ['--require', 'tsx/cjs', '--timeout', '120000', '--retries', '1', '--exit'], lanes: () => e2eLanes(join(root, 'test', 'e2e'), 2),
    alongside: 'unit', after: ['integration', 'tsc and eslint'] },
  // `npm run package` as a user runs it, then its .vsix listed against the allowlist (test/arch/vsixContents.ts). Last, since
  // it leaves the production bundles in dist/ as `npm run package` does; the .vsix goes to a temporary folder.
  { name: 'package', mocha: ['--require', 'tsx/cjs', '--timeout', '180000', 'test/package/**/*.test.ts'] },
];

const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex > 0 ? new Set((process.argv[onlyIndex + 1] ?? '').split(',')) : undefined;
const unknown = [...(only ?? [])].filter((name) => !suites.some((suite) => suite.name === name));
if (unknown.length > 0) {
  console.error(`No suite named ${unknown.map((name) => `"${name}"`).join(', ')}; suites: ${suites.map((suite) => suite.name).join(', ')}`);
  process.exit(2);
}
const selected = suites.filter((suite) => !only || only.has(suite.name));
const statsDir = mkdtempSync(join(tmpdir(), 'task-planner-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const timings = [];
/** What failed, suite by suite, repeated just above the closing line. */
const failures = [];
/** What passed only on a second try (suites run with --retries), named above the closing line too. */
const flaky = [];
const seconds = (since) => Math.round((Date.now() - since) / 1000);

/** Ctrl-C reaches the suite's processes too; stop here instead of starting the next suite. */
function stopIfInterrupted(outcome) {
  if (outcome.signal !== 'SIGINT' && outcome.signal !== 'SIGTERM' && outcome.status !== 130) return;
  rmSync(statsDir, { recursive: true, force: true });
  console.log(`\nInterrupted (${outcome.signal ?? 'exit 130'}); later suites were not run.`);
  process.exit(130);
}

/** Starts a check now, holding its output; the promise gives its outcome, that output and when it ended. */
function startEarly(command, args) {
  return runProcess([command, ...args], process.env, false).then((outcome) => ({ ...outcome, endedAt: Date.now() }));
}
const early = new Map(selected.flatMap((suite) => suite.checks ?? []).filter(([, , , options]) => options?.early)
  .map(([label, command, args]) => [label, { started: Date.now(), outcome: startEarly(command, args) }]));
/** Starts, just before a suite, the checks marked to run `alongside` it; each is reported at its own turn. */
function startAlongside(suiteName) {
  for (const [label, command, args, options] of selected.flatMap((suite) => suite.checks ?? [])) {
    if (options?.alongside !== suiteName) continue;
    const entry = { started: Date.now() };
    entry.outcome = endOf(options.after).then(() => {
      entry.started = Date.now();
      return startEarly(command, args);
    });
    early.set(label, entry);
  }
}

/**
 * Runs `command` to its end: its output goes on as it comes when `live`, else it is held and given with the outcome.
 * @returns {Promise<{ status: number | null; signal: NodeJS.Signals | null; output?: Buffer }>}
 */
function runProcess([command, ...args], env, live) {
  const child = spawn(command, args, { cwd: root, env, stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ status: null, signal: null, output: Buffer.from(`${error.message}\n`) }));
    child.on('close', (status, signal) => resolve({ status, signal, ...(live ? {} : { output: Buffer.concat(output) }) }));
  });
}

/** Adds what a mocha run (a suite, or one lane of it) wrote to `statsFile` to the totals, naming what failed or passed only when tried again. */
function countResults(name, statsFile, outcome) {
  if (!existsSync(statsFile)) {
    console.log(`✘ suite ${name} ended (exit ${outcome.status ?? outcome.signal}) without reporting its results`);
    totals.failed++;
    failures.push(`${name}: ended without reporting its results`);
    return;
  }
  const stats = JSON.parse(readFileSync(statsFile, 'utf8'));
  totals.passed += stats.passed;
  totals.failed += stats.failed;
  totals.skipped += stats.skipped;
  for (const test of stats.flakyTests ?? []) {
    flaky.push(`${name}: ${test.title}${test.file ? ` (${relative(root, test.file)})` : ''}\n    first try: ${test.message.replaceAll('\n', '\n    ')}`);
  }
  for (const test of stats.failedTests ?? []) {
    failures.push(`${name}: ${test.title}${test.file ? ` (${relative(root, test.file)})` : ''}\n    ${test.message.replaceAll('\n', '\n    ')}`);
  }
  if (outcome.status !== 0 && stats.failed === 0) {
    totals.failed++;
    failures.push(`${name}: exited with ${outcome.status ?? outcome.signal} though no test failed`);
  }
}

/**
 * Starts the mocha (or command) process of each lane of `suite` once `ready` resolved: the first lane's output goes on as
 * it comes when `live`, every other's is held; resolves when all ended, with their outcomes (`timing.started`: when they
 * started).
 */
function startSuite(suite, live, ready = Promise.resolve()) {
  const lanes = suite.lanes ? suite.lanes().map((files, index) => ({ name: `${suite.name} lane ${index + 1}`, files })) : [{ name: suite.name, files: [] }];
  const timing = { started: Date.now() };
  const outcomes = ready.then(() => {
    timing.started = Date.now();
  }).then(() => Promise.all(lanes.map(async (lane, index) => {
    const statsFile = join(statsDir, `${lane.name.replaceAll(' ', '-')}.json`);
    const command = suite.command ?? [bin('mocha'), '--forbid-only', '--reporter', join(root, 'test/support/countingReporter.cjs'), ...suite.mocha, ...lane.files];
    const env = { ...process.env, TEST_STATS_FILE: statsFile, ...(suite.builtCli && built ? { TASK_PLANNER_TEST_CLI: join(root, 'dist', 'cli.js') } : {}) };
    const outcome = await runProcess(command, env, live && index === 0);
    return { lane, statsFile, outcome };
  }))).then((ended) => ({ ended, endedAt: Date.now() }));
  return { lanes, timing, outcomes };
}
/** Suites started before their turn (`alongside` another suite), by name. */
const startedSuites = new Map();

/**
 * Resolves once each of `names` ended: a suite started beside another, or a check started early or beside one (what is not
 * started, as one --only did not select, is not waited for).
 */
function endOf(names = []) {
  return Promise.all(names.map((name) => startedSuites.get(name)?.outcomes ?? early.get(name)?.outcome));
}

let built = false;
for (const suite of selected) {
  const suiteStarted = Date.now();
  startAlongside(suite.name);
  for (const other of selected) {
    if (other.alongside !== suite.name || other.checks) continue;
    startedSuites.set(other.name, startSuite(other, false, endOf(other.after)));
  }
  console.log(`\n=== ${suite.name} ===`);
  if (suite.checks) {
    for (const [label, command, args] of suite.checks) {
      const checkStarted = early.get(label)?.started ?? Date.now();
      let outcome;
      if (early.has(label)) {
        outcome = await early.get(label).outcome;
        process.stdout.write(outcome.output);
      } else {
        outcome = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
      }
      stopIfInterrupted(outcome);
      const ok = outcome.status === 0;
      if (ok && suite.name === 'build') built = true;
      // A check started early took until it ended, not until its turn to be reported.
      const took = Math.round(((outcome.endedAt ?? Date.now()) - checkStarted) / 1000);
      console.log(`${ok ? '✔' : '✘'} ${label} (${took} s${early.has(label) ? ', ran beside the others' : ''})`);
      totals[ok ? 'passed' : 'failed']++;
      if (!ok) failures.push(`${suite.name}: ${label}`);
    }
    timings.push(`${suite.name} ${seconds(suiteStarted)} s`);
    continue;
  }
  // A suite in lanes runs one mocha process per lane at once; the first lane's output goes on as it comes, each other
  // lane's is held back and printed when its lane ended, so no two lanes' lines mix. A suite started beside an earlier one
  // had all its output held: it is printed now.
  const startedBefore = startedSuites.get(suite.name);
  const { lanes, timing, outcomes: ending } = startedBefore ?? startSuite(suite, true);
  const heading = (lane) => lanes.length > 1 && console.log(`\n--- ${lane.name}: ${lane.files.map((file) => relative(root, file)).join(', ')} ---`);
  heading(lanes[0]);
  const { ended: outcomes, endedAt } = await ending;
  for (const [index, { lane, outcome }] of outcomes.entries()) {
    if (index === 0 && !startedBefore) continue;
    if (index > 0) heading(lane);
    process.stdout.write(outcome.output ?? '');
  }
  for (const { outcome } of outcomes) stopIfInterrupted(outcome);
  // A suite started early took until it ended, beside the one it ran with.
  timings.push(startedBefore ? `${suite.name} ${Math.round((endedAt - timing.started) / 1000)} s (beside ${suite.alongside})` : `${suite.name} ${seconds(suiteStarted)} s`);
  for (const { lane, statsFile, outcome } of outcomes) countResults(lane.name, statsFile, outcome);
}
rmSync(statsDir, { recursive: true, force: true });
console.log(`\nTime per suite: ${timings.join(', ')}`);
if (flaky.length > 0) console.log(`\nPassed only when tried again:\n${flaky.map((line) => `  ~ ${line}`).join('\n')}`);
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((line) => `  ✘ ${line}`).join('\n')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
