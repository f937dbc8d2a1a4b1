// Launches Debian's chromium, headless, through playwright-core (from this sub-package), with a fresh profile.
// playwright kills the browser it launched when this process exits (its 'exit' listener is registered before the
// profile's, so the profile is removed after the kill); close() does both earlier.
'use strict';
const { chromiumPath, loadPlaywright } = require('./hostPaths.cjs');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { removeOnExit } = require('./tempFolder.cjs');

/**
 * @typedef {object} Browser
 * @property {import('playwright-core').BrowserContext} context
 * @property {import('playwright-core').Page} page
 * @property {() => Promise<void>} close
 */

/** @returns {Promise<Browser>} */
async function launchBrowser() {
  const { chromium } = loadPlaywright();
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'task-planner-chromium-'));
  /** @type {import('playwright-core').BrowserContext} */
  let context;
  try {
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: chromiumPath,
      headless: true,
      viewport: { width: 1400, height: 900 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  } catch (error) {
    fs.rmSync(profileDir, { recursive: true, force: true });
    throw new Error(`chromium (${chromiumPath}) did not start: ${String(error)}`, { cause: error });
  }
  // registered after the launch, so playwright's own exit listener (which kills the browser) runs first
  const profile = removeOnExit(profileDir);
  const page = context.pages()[0] ?? await context.newPage();
  const close = async () => {
    await context.close().catch(() => undefined);
    profile.remove();
  };
  return { context, page, close };
}

module.exports = { launchBrowser };
