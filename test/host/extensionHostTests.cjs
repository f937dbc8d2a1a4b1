// Runs an extension's tests INSIDE code-server's real Node extension host, driven by headless chromium.
// The web workbench reads extensionDevelopmentPath / extensionTestsPath from the `payload` URL parameter (only
// when the server runs with `--vscode-option enable-smoke-test-driver`). When the tests' run() settles, the
// extension host tells the workbench, which calls window.codeAutomationExit(code); playwright exposes that
// function to us. With a debugId in the payload the workbench echoes every extension-host console call to the
// page console as "[Extension Host] ...", which we relay line by line.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const util = require('node:util');
const { launchBrowser } = require('./browser.cjs');

/** Undoes the devtools %c styling VS Code adds when forwarding console calls, then formats like Node's console. */
/** @param {unknown[]} values */
function formatConsoleArgs(values) {
  if (typeof values[0] === 'string' && values[0].includes('%c')) {
    const styles = (values[0].match(/%c/g) ?? []).length;
    values = [values[0].replace(/%c/g, ''), ...values.slice(1 + styles)];
  }
  return util.format(...values);
}

/**
 * The folder to pass as the one extensionDevelopmentPath. The web workbench reads the payload into a Map, so of
 * several extensionDevelopmentPath entries only the last would load; but a development path without a package.json
 * is scanned as a folder of extensions. Several extensions therefore go as one folder of symlinks to them, inside
 * the server's temp folder (removed with it). Their extensionPath is then the symlink's path.
 * @param {import('./codeServer.cjs').CodeServer} server
 * @param {string[]} developmentPaths  absolute extension folders
 */
function developmentLocation(server, developmentPaths) {
  if (developmentPaths.length === 1) return /** @type {string} */ (developmentPaths[0]);
  const dir = path.join(server.tempDir, 'development-extensions');
  fs.mkdirSync(dir, { recursive: true });
  developmentPaths.forEach((extension, index) => fs.symlinkSync(extension, path.join(dir, `${index}-${path.basename(extension)}`), 'dir'));
  return dir;
}

/**
 * @param {object} options
 * @param {import('./codeServer.cjs').CodeServer} options.server  started with smokeTestDriver
 * @param {string[]} options.developmentPaths  absolute extension folders (one or several)
 * @param {string} options.testsPath           absolute path of the module exporting run()
 * @param {string} [options.folder]            workspace folder to open
 * @param {number} options.timeoutMs
 * @param {(line: string) => void} options.onHostLine      each extension-host console line
 * @param {(line: string) => void} [options.onBrowserLine] other page console lines and page errors
 * @param {string} [options.screenshotOnTimeout]
 * @returns {Promise<{ code: number; timedOut: boolean }>}  the extension host's exit code
 */
async function runExtensionTests(options) {
  const authority = `127.0.0.1:${options.server.port}`;
  const remote = (/** @type {string} */ file) => `vscode-remote://${authority}${file}`;
  const browser = await launchBrowser();
  try {
    const { page } = browser;
    /** @type {(result: { code: number; timedOut: boolean }) => void} */
    let finish = () => undefined;
    const finished = new Promise((resolve) => { finish = resolve; });
    await page.exposeFunction('codeAutomationExit', async (/** @type {number} */ code) => finish({ code, timedOut: false }));
    // Console events are handled strictly in order and flushed before returning: the exit call can overtake them.
    let relayed = Promise.resolve();
    page.on('console', (message) => {
      relayed = relayed.then(async () => {
        let text;
        try {
          text = formatConsoleArgs(await Promise.all(message.args().map((arg) => arg.jsonValue())));
        } catch {
          text = message.text();
        }
        if (text.startsWith('[Extension Host]')) {
          for (const line of text.replace(/^\[Extension Host\] ?/, '').replace(/\s+$/, '').split('\n')) {
            options.onHostLine(line === '%' ? '' : line);
          }
        } else {
          options.onBrowserLine?.(`[browser ${message.type()}] ${text}`);
        }
      });
    });
    page.on('pageerror', (error) => options.onBrowserLine?.(`[page error] ${error.message}`));
    const payload = /** @type {[string, string][]} */ ([
      ['extensionDevelopmentPath', remote(developmentLocation(options.server, options.developmentPaths))],
      ['extensionTestsPath', remote(options.testsPath)],
      ['skipWelcome', 'true'],
      ['skipReleaseNotes', 'true'],
      ['debugId', 'task-planner-integration'],
    ]);
    await page.goto(options.server.workbenchUrl(options.folder, payload));
    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => resolve({ code: 124, timedOut: true }), options.timeoutMs);
    });
    const result = /** @type {{ code: number; timedOut: boolean }} */ (await Promise.race([finished, timeout]));
    clearTimeout(timer);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await relayed;
    if (result.timedOut && options.screenshotOnTimeout) {
      await page.screenshot({ path: options.screenshotOnTimeout }).catch(() => undefined);
    }
    return result;
  } finally {
    await browser.close();
  }
}

module.exports = { runExtensionTests };
