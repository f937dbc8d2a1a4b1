#!/usr/bin/env node
// A stand-in "VS Code executable" for @vscode/test-electron's runTests({ vscodeExecutablePath }). It accepts the
// desktop arguments runTests passes (--extensionDevelopmentPath=, --extensionTestsPath=, a folder to open, and
// desktop-only flags, which it ignores), starts a private code-server with the smoke-test driver, runs the tests
// inside its real extension host through headless chromium, relays the host's console, stops server and browser
// (their process groups, also on failure, timeout and SIGINT) and exits with the extension host's exit code.
//
// The --user-data-dir and --extensions-dir that runTests adds (a shared .vscode-test cache) are ignored: every run
// gets fresh ones in a temporary folder. A host console line "[test-stats] {json}" is written to $TEST_STATS_FILE
// (when set), so a runner outside the host can count the tests that ran inside it.
// Environment: TASK_PLANNER_HOST_TIMEOUT (seconds, default 900), TASK_PLANNER_HOST_VERBOSE=1 (browser console too),
// TASK_PLANNER_HOST_KEEP=1 (keep code-server's temp folder). On failure the server log is copied to test-results/logs/.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { node24, codeServerEntry, repoRoot, assertHostInstalled } = require('./hostPaths.cjs');
const { startCodeServer } = require('./codeServer.cjs');
const { stillWorkbench } = require('./stillWorkbench.cjs');
const { runExtensionTests } = require('./extensionHostTests.cjs');

const statsPrefix = '[test-stats] ';

/** @param {string[]} argv */
function parseArguments(argv) {
  /** @type {{ developmentPaths: string[]; testsPath?: string; positional: string[] }} */
  const parsed = { developmentPaths: [], positional: [] };
  const valued = ['extensionDevelopmentPath', 'extensionTestsPath', 'user-data-dir', 'extensions-dir'];
  for (let i = 0; i < argv.length; i++) {
    const arg = /** @type {string} */ (argv[i]);
    const match = /^--([^=]+)(?:=(.*))?$/.exec(arg);
    if (!match) {
      parsed.positional.push(arg);
      continue;
    }
    const key = /** @type {string} */ (match[1]);
    const inline = match[2];
    const value = inline ?? (valued.includes(key) ? argv[++i] : undefined);
    if (key === 'extensionDevelopmentPath' && value) parsed.developmentPaths.push(path.resolve(value));
    else if (key === 'extensionTestsPath' && value) parsed.testsPath = path.resolve(value);
  }
  return parsed;
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.includes('--version')) {
    assertHostInstalled();
    console.log((execFileSync(node24, [codeServerEntry, '--version'], { encoding: 'utf8' }).split(' ')[0] ?? '').trim());
    return 0;
  }
  const options = parseArguments(argv);
  if (!options.testsPath || options.developmentPaths.length === 0) {
    console.error('code shim: need --extensionDevelopmentPath=<folder> and --extensionTestsPath=<module> (as runTests passes them)');
    return 2;
  }
  const folder = options.positional
    .map((p) => path.resolve(p))
    .find((p) => fs.existsSync(p) && (fs.statSync(p).isDirectory() || p.endsWith('.code-workspace')));
  // A bound for a host that hangs, not a measure: a clean-clone run on a loaded 2-core machine took over 300 s for the
  // folder's host (2026-12-01), whose tests take about 100 s on an idle one.
  const timeoutSeconds = Number(process.env.TASK_PLANNER_HOST_TIMEOUT || 900);
  // The folder's host and the multi-root one each keep what they leave on failure: the second run removed the first's.
  const hostName = folder?.endsWith('.code-workspace') ? 'integration-multi-root' : 'integration';
  const verbose = process.env.TASK_PLANNER_HOST_VERBOSE === '1';
  const started = Date.now();
  const server = await startCodeServer({ smokeTestDriver: true, userSettings: stillWorkbench, keepTemp: process.env.TASK_PLANNER_HOST_KEEP === '1' });
  console.log(`[code shim] code-server (pid ${server.pid}) on ${server.origin} up after ${Date.now() - started} ms`);
  let code = 1;
  try {
    const screenshots = path.join(repoRoot, 'test-results', 'screenshots', hostName);
    fs.rmSync(screenshots, { recursive: true, force: true });
    fs.mkdirSync(screenshots, { recursive: true });
    const result = await runExtensionTests({
      server,
      developmentPaths: options.developmentPaths,
      testsPath: options.testsPath,
      folder,
      timeoutMs: timeoutSeconds * 1000,
      screenshotOnTimeout: path.join(screenshots, 'timeout.png'),
      onHostLine: (line) => {
        if (line.startsWith(statsPrefix) && process.env.TEST_STATS_FILE) {
          fs.writeFileSync(process.env.TEST_STATS_FILE, line.slice(statsPrefix.length));
        }
        console.log(line);
      },
      onBrowserLine: verbose ? (line) => console.log(line) : undefined,
    });
    if (result.timedOut) {
      console.error(`[code shim] the extension host did not finish its tests within ${timeoutSeconds} s (TASK_PLANNER_HOST_TIMEOUT); screenshot: test-results/screenshots/${hostName}/timeout.png`);
    }
    code = result.code;
  } catch (error) {
    console.error('[code shim] failed:', error);
    code = 1;
  } finally {
    if (code !== 0) {
      const kept = path.join(repoRoot, 'test-results', 'logs', `${hostName}-code-server.log`);
      fs.mkdirSync(path.dirname(kept), { recursive: true });
      fs.copyFileSync(server.logFile, kept);
      console.error(`[code shim] code-server's log: ${path.relative(process.cwd(), kept)}`);
    }
    await server.stop();
  }
  console.log(`[code shim] done in ${((Date.now() - started) / 1000).toFixed(1)} s, exit ${code}`);
  return code;
}

main().then((code) => process.exit(code), (error) => {
  console.error('[code shim] failed:', error);
  process.exit(1);
});
