#!/usr/bin/env node
// `npm start`: builds the extension, installs the VS Code host if needed (test/host/setup.sh), copies the demo
// workspace (test/fixtures/demo-workspace) to .npm-start/ the first time, and serves a real VS Code (code-server) on
// 127.0.0.1 with Task Planner installed, for you to open in a browser. Its user data (settings, the model set up) and
// the demo workspace are kept in .npm-start/ between starts. Ctrl-C stops the server.
// Usage: npm start [-- --port N] [-- --folder DIR] [-- --fresh]   (DIR is opened as is; --fresh starts over)
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFolders } from './startFolders.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** @param {string} name */
function option(name) {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : undefined;
}

/** @param {string} label @param {string} command @param {string[]} args */
function run(label, command, args) {
  const outcome = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (outcome.status !== 0) {
    console.error(`npm start: ${label} failed (exit ${outcome.status ?? outcome.signal})`);
    process.exit(1);
  }
}

run('the build (node esbuild.mjs)', process.execPath, ['esbuild.mjs']);
run('the VS Code host setup (test/host/setup.sh)', 'bash', [join(root, 'test', 'host', 'setup.sh')]);

/** @type {typeof import('../test/host/codeServer.cjs')} */
const { startCodeServer, freePort } = require('../test/host/codeServer.cjs');

const folderOption = option('folder');
const { userDataDir, workspace: folder, copiedDemo } = startFolders(root, { folder: folderOption, fresh: process.argv.includes('--fresh') });
// Registered after codeServer.cjs's hooks, so it runs after the server is gone.
let serving = false;
process.on('exit', () => {
  if (serving) console.log('\nStopped code-server. Your settings and the demo workspace are kept in .npm-start/ (npm start -- --fresh starts over).');
});

/** The requested port, else 8080 when it is free, else any free port. */
async function choosePort() {
  const requested = option('port') ?? process.env.PORT;
  if (requested) return Number(requested);
  const { createServer } = await import('node:net');
  const free = await new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(8080, '127.0.0.1', () => probe.close(() => done(true)));
  });
  return free ? 8080 : freePort();
}

try {
  // Installed like a user's extension (a link to this repository in the server's extensions folder), so it
  // loads in any browser that opens the URL. After rebuilding (npm run watch), run "Developer: Reload Window".
  const server = await startCodeServer({ linkExtensions: [root], port: await choosePort(), userDataDir });
  console.log(`
Task Planner is running in VS Code (code-server ${require('../test/host/node_modules/code-server/package.json').version}, pid ${server.pid}).

  Open:       ${server.workbenchUrl(folder)}
  Workspace:  ${folder}${folderOption ? '' : copiedDemo ? ' (a new copy of test/fixtures/demo-workspace)' : ' (kept from your last start)'}
  Settings:   ${userDataDir} (kept between starts; npm start -- --fresh starts over)
  Server log: ${server.logFile}

Try: the Task Planner icon in the activity bar, or F1 > "Task Planner: Plan task".
Press Ctrl-C to stop.`);
  serving = true;
} catch (error) {
  console.error(`npm start: could not start code-server: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
// The child process handle keeps the event loop alive; Ctrl-C (SIGINT) is handled in codeServer.cjs:
// it stops the server's process group, then exits, which removes the temporary folders.
