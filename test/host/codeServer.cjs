// Starts a private code-server (a real VS Code server and Node extension host) on a free 127.0.0.1 port:
// its own user-data, extensions, config and XDG folders inside one temporary folder, no auth, no telemetry,
// no update checks. The server runs in its own process group, which stop() (and, as a last resort, this
// process's exit or SIGINT/SIGTERM/SIGHUP) kills as a whole, so no server or extension host outlives us.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { node24, codeServerEntry, assertHostInstalled } = require('./hostPaths.cjs');
const { removeFolder } = require('./tempFolder.cjs');

/**
 * Servers not yet stopped, by process-group id: their stop() and their temp folder (undefined when kept).
 * @type {Map<number, { stop: () => Promise<void>; tempDir: string | undefined }>}
 */
const liveServers = new Map();
let exitHooksInstalled = false;

/** @param {number} pid @param {NodeJS.Signals | 0} signal @returns {boolean} whether the group existed */
function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** @param {number} pid @param {NodeJS.Signals | 0} signal @returns {boolean} whether the process existed */
function killProcess(pid, signal) {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * The processes of a server's process group, read from /proc (Linux).
 * @param {number} group  @returns {{ pid: number; ppid: number; args: string }[]}
 */
function processTree(group) {
  /** @type {{ pid: number; ppid: number; args: string }[]} */
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // after the command's name in parentheses: state, ppid, pgrp
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) !== group) continue;
      found.push({ pid: Number(entry), ppid: Number(ppid), args: fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ') });
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** Stops every server still running (SIGTERM, then SIGKILL after up to 3 s). */
async function stopAllCodeServers() {
  await Promise.all([...liveServers.values()].map((server) => server.stop()));
}

/**
 * Last-resort cleanup. On exit (however it happens, short of SIGKILL): kill the groups and remove the temp
 * folders synchronously. On SIGINT/SIGTERM/SIGHUP: stop the servers gracefully, then exit with 128+signal;
 * a second signal exits at once (the exit hook still kills the groups).
 */
function installExitHooks() {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  process.on('exit', () => {
    for (const [pid, server] of liveServers) {
      killGroup(pid, 'SIGKILL');
      if (server.tempDir) removeFolder(server.tempDir);
    }
  });
  let stopping = false;
  for (const [signal, code] of /** @type {[NodeJS.Signals, number][]} */ ([['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]])) {
    process.on(signal, () => {
      if (stopping) process.exit(code);
      stopping = true;
      // other listeners (playwright's kills the browser it launched and exits) may end the process first:
      // the exit hook above covers that
      stopAllCodeServers().finally(() => process.exit(code));
    });
  }
}

/** @returns {Promise<number>} a port that was free on 127.0.0.1 a moment ago */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A kept settings.json's values: `{}` when there is none yet, `undefined` when it is not plain JSON (VS Code allows
 * comments): such a file is left as it is, never overwritten, so no setting of its user is lost.
 * @param {string} file
 * @returns {Record<string, unknown> | undefined}
 */
function keptSettings(file) {
  if (!fs.existsSync(file)) return {};
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Folder name VS Code expects for an installed extension: publisher.name-version. @param {string} extensionDir */
function installedFolderName(extensionDir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8'));
  return `${manifest.publisher}.${manifest.name}-${manifest.version}`.toLowerCase();
}

/**
 * @typedef {object} CodeServer
 * @property {number} port
 * @property {string} origin          http://127.0.0.1:PORT
 * @property {number} pid             the server's pid, also its process-group id
 * @property {string} tempDir         holds user data, extensions, config, XDG folders and the log
 * @property {string} extensionsDir
 * @property {string} logFile
 * @property {(folder?: string, payload?: [string, string][]) => string} workbenchUrl
 * @property {(userSettings?: Record<string, unknown>) => void} writeUserSettings  replaces the user settings by the
 *   run's own plus these (and drops the remote machine's), for the next window: a server that one suite after another
 *   opens windows on starts each of them from the same settings
 * @property {() => number[]} extensionHosts  the pids of the extension hosts running now, one per open window (and per
 *   window closed within the reconnection grace time, during which the server keeps its host for a reconnect)
 * @property {(pids: number[]) => Promise<void>} stopExtensionHosts  ends these extension hosts and what they started
 * @property {() => Promise<void>} stop  kills the whole process group; removes tempDir unless keepTemp
 */

/**
 * @param {object} [options]
 * @param {boolean} [options.smokeTestDriver]    lets the workbench honour the `payload` URL parameter
 *   (extensionDevelopmentPath, extensionTestsPath); without it code-server ignores the payload silently
 * @param {string[]} [options.linkExtensions]    extension folders to symlink into the extensions dir, so they
 *   load like installed extensions in any browser that opens the URL
 * @param {number} [options.port]                default: a free port
 * @param {boolean} [options.keepTemp]           keep tempDir after stop() (for reading the log)
 * @param {boolean} [options.workspaceTrust]     keep workspace trust on (default off): a folder then opens in
 *   Restricted Mode, without the trust dialog (`security.workspace.trust.startupPrompt: never`), until trusted
 * @param {Record<string, unknown>} [options.userSettings]  more user settings (they apply in Restricted Mode too,
 *   where an extension's restricted settings are read from user settings only)
 * @param {Record<string, string>} [options.env]  more environment variables for the server and the extension hosts it starts
 * @param {number} [options.startTimeoutMs]
 * @param {string} [options.userDataDir]         a user-data folder kept between starts (`npm start`): created when
 *   missing, never removed; the settings a test run wants are added to its settings.json only where the user set none
 * @returns {Promise<CodeServer>}
 */
async function startCodeServer(options = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce({ ...options });
    } catch (error) {
      // The free port was taken between freePort() and the server's bind (the e2e lanes and the integration host start
      // servers at once; a clean-clone run failed a suite with EADDRINUSE): another free port, twice more at most.
      if (options.port !== undefined || attempt >= 3 || !/EADDRINUSE/.test(String(error))) throw error;
    }
  }
}

/**
 * `startCodeServer` once, on `options.port` or a port that was free a moment ago.
 * @param {Parameters<typeof startCodeServer>[0] & object} options
 * @returns {Promise<CodeServer>}
 */
async function startOnce(options) {
  assertHostInstalled();
  installExitHooks();
  const started = Date.now();
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'task-planner-code-server-'));
  const userDataDir = options.userDataDir ? path.resolve(options.userDataDir) : path.join(tempDir, 'user-data');
  const extensionsDir = path.join(tempDir, 'extensions');
  fs.mkdirSync(userDataDir, { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  for (const extensionDir of options.linkExtensions ?? []) {
    fs.symlinkSync(path.resolve(extensionDir), path.join(extensionsDir, installedFolderName(extensionDir)), 'dir');
  }
  /**
   * Writes the user settings anew: those a test run wants (no trust prompt, no welcome page, no telemetry prompt),
   * then `extra`; a kept user-data folder (`npm start`) keeps what its user set on top, and its machine settings.
   */
  const writeUserSettings = (/** @type {Record<string, unknown> | undefined} */ extra) => {
    fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
    const settingsFile = path.join(userDataDir, 'User', 'settings.json');
    const kept = options.userDataDir ? keptSettings(settingsFile) : {};
    // undefined: a settings.json with comments, left as it is
    if (kept) fs.writeFileSync(settingsFile, JSON.stringify({
      'workbench.startupEditor': 'none',
      'security.workspace.trust.enabled': options.workspaceTrust === true,
      ...(options.workspaceTrust ? { 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.emptyWindow': false } : {}),
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      ...extra,
      ...kept,
    }, null, 2));
    // the remote machine's settings, which a window of an earlier suite may have written (a machine-scoped setting changed in the UI)
    if (!options.userDataDir) fs.rmSync(path.join(userDataDir, 'Machine', 'settings.json'), { force: true });
  };
  writeUserSettings(options.userSettings);
  const config = path.join(tempDir, 'config.yaml');
  fs.writeFileSync(config, 'auth: none\ncert: false\n');
  const logFile = path.join(tempDir, 'code-server.log');
  const log = fs.openSync(logFile, 'w');
  const port = options.port ?? await freePort();
  const args = [codeServerEntry,
    '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--config', config,
    '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override',
    '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  if (!options.workspaceTrust) args.push('--disable-workspace-trust');
  if (options.smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  // Its temporary files (an IPC socket per window and terminal, git's askpass scripts) go with the rest of the server's
  // folder: in the system's, thousands were left behind by the test runs.
  const serverTmp = path.join(tempDir, 'tmp');
  fs.mkdirSync(serverTmp, { recursive: true });
  const child = spawn(node24, args, {
    detached: true, // own process group (setsid): stop() kills server, extension host and file watchers together
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      ...options.env,
      TMPDIR: serverTmp,
      XDG_CONFIG_HOME: path.join(tempDir, 'xdg-config'),
      XDG_DATA_HOME: path.join(tempDir, 'xdg-data'),
      XDG_CACHE_HOME: path.join(tempDir, 'xdg-cache'),
    },
  });
  fs.closeSync(log);
  const pid = /** @type {number} */ (child.pid);
  let exited = child.exitCode !== null;
  child.once('exit', () => { exited = true; });

  /** @type {Promise<void> | undefined} */
  let stopping;
  const stop = () => {
    stopping ??= (async () => {
      killGroup(pid, 'SIGTERM');
      for (let waited = 0; waited < 3000 && killGroup(pid, 0); waited += 100) await new Promise((r) => setTimeout(r, 100));
      killGroup(pid, 'SIGKILL');
      liveServers.delete(pid);
      if (!options.keepTemp) removeFolder(tempDir);
    })();
    return stopping;
  };
  liveServers.set(pid, { stop, tempDir: options.keepTemp ? undefined : tempDir });

  const origin = `http://127.0.0.1:${port}`;
  const deadline = started + (options.startTimeoutMs ?? 60000);
  try {
    for (;;) {
      if (exited) throw new Error(`code-server exited while starting (exit ${child.exitCode}); log:\n${fs.readFileSync(logFile, 'utf8')}`);
      try {
        const response = await fetch(`${origin}/healthz`);
        if (response.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`code-server did not answer ${origin}/healthz within ${options.startTimeoutMs ?? 60000} ms; log: ${logFile}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    options.keepTemp = true; // keep the log for the error message
    liveServers.set(pid, { stop, tempDir: undefined });
    await stop();
    throw error;
  }

  /** @type {CodeServer['workbenchUrl']} */
  const workbenchUrl = (folder, payload) => {
    // A .code-workspace file opens as a multi-root workspace.
    const query = [folder ? `${folder.endsWith('.code-workspace') ? 'workspace' : 'folder'}=${encodeURIComponent(folder)}` : 'ew=true'];
    if (payload) query.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
    return `${origin}/?${query.join('&')}`;
  };
  const extensionHosts = () => processTree(pid).filter((child) => child.args.includes('--type=extensionHost')).map((child) => child.pid);
  /** @type {CodeServer['stopExtensionHosts']} */
  const stopExtensionHosts = async (pids) => {
    const tree = processTree(pid);
    /** @type {(root: number) => number[]} */
    const below = (root) => [root, ...tree.filter((child) => child.ppid === root).flatMap((child) => below(child.pid))];
    const doomed = pids.flatMap(below);
    for (const target of doomed) killProcess(target, 'SIGTERM');
    for (let waited = 0; waited < 3000 && doomed.some((target) => killProcess(target, 0)); waited += 100) await new Promise((r) => setTimeout(r, 100));
    for (const target of doomed) killProcess(target, 'SIGKILL');
  };
  return { port, origin, pid, tempDir, extensionsDir, logFile, workbenchUrl, writeUserSettings, extensionHosts, stopExtensionHosts, stop };
}

module.exports = { startCodeServer, stopAllCodeServers, freePort, killGroup };
