// Launches Debian's chromium, headless, through playwright-core (from this sub-package), with a fresh profile; or
// opens a fresh browser context in one chromium this process shares between callers.
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

const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

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
      args: chromiumArgs,
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

/** @type {Promise<import('playwright-core').Browser> | undefined} */
let shared;

/**
 * A new browser context in the chromium shared by this process (started on first use, ended when this process
 * exits): its own cookies, local storage, IndexedDB and cache, as a fresh profile has, without starting a browser.
 * close() closes the context only.
 * @param {{ width: number; height: number }} viewport
 * @returns {Promise<Browser>}
 */
async function newBrowserContext(viewport) {
  const { chromium } = loadPlaywright();
  shared ??= chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs }).catch((/** @type {unknown} */ error) => {
    shared = undefined;
    throw new Error(`chromium (${chromiumPath}) did not start: ${String(error)}`, { cause: error });
  });
  const context = await (await shared).newContext({ viewport });
  const page = await context.newPage();
  return { context, page, close: () => context.close().catch(() => undefined) };
}

/** Closes the shared chromium, if one was started. */
async function closeSharedBrowser() {
  const browser = shared;
  shared = undefined;
  await (await browser?.catch(() => undefined))?.close();
}

module.exports = { launchBrowser, newBrowserContext, closeSharedBrowser };
