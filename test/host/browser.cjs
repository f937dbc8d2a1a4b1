// Launches Debian's chromium, headless, through playwright-core (from this sub-package), with a fresh profile.
// playwright kills the browser it launched when this process exits; close() does it earlier and removes the profile.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromiumPath, loadPlaywright } = require('./hostPaths.cjs');

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
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] ?? await context.newPage();
  const close = async () => {
    await context.close().catch(() => undefined);
    fs.rmSync(profileDir, { recursive: true, force: true });
  };
  return { context, page, close };
}

module.exports = { launchBrowser };
