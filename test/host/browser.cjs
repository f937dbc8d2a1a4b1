// Launches Debian's chromium, headless, through playwright-core (from this sub-package), with a fresh profile; or
// opens a page, as a fresh profile would for its site but for the HTTP cache, in one chromium this process shares.
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

/** @type {Promise<{ context: import('playwright-core').BrowserContext; profile: { remove: () => void } }> | undefined} */
let shared;

/** What a profile keeps for a site, cleared around each page: everything but the HTTP cache. */
const storageTypes = 'cookies,file_systems,indexeddb,local_storage,service_workers,cache_storage,websql,shader_cache';

/**
 * A new page in the chromium shared by this process (started on first use with a profile of its own, ended when this
 * process exits), with `origin`'s cookies, local storage, IndexedDB, service workers and cache storage cleared first, so
 * the page starts as a fresh profile would for that site, except for the HTTP cache: the workbench's scripts (tens of
 * megabytes) are loaded once per run instead of once per suite. One page at a time: close() closes the page and clears
 * the origin again.
 * @param {{ width: number; height: number }} viewport
 * @param {string} origin  the site the page will open, `http://127.0.0.1:PORT`
 * @returns {Promise<Browser>}
 */
async function newBrowserPage(viewport, origin) {
  const { chromium } = loadPlaywright();
  shared ??= (async () => {
    const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'task-planner-chromium-'));
    try {
      const context = await chromium.launchPersistentContext(profileDir, { executablePath: chromiumPath, headless: true, args: chromiumArgs });
      return { context, profile: removeOnExit(profileDir) };
    } catch (error) {
      fs.rmSync(profileDir, { recursive: true, force: true });
      throw error;
    }
  })().catch((/** @type {unknown} */ error) => {
    shared = undefined;
    throw new Error(`chromium (${chromiumPath}) did not start: ${String(error)}`, { cause: error });
  });
  const { context } = await shared;
  const page = await context.newPage();
  const clear = async () => {
    const cdp = await context.newCDPSession(page);
    try {
      await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes });
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  };
  try {
    await context.clearCookies();
    await clear();
    await page.setViewportSize(viewport);
  } catch (error) {
    await page.close().catch(() => undefined);
    throw error;
  }
  // The blank page the persistent context opened with stays open: closing its last page would end the browser.
  const close = async () => {
    await page.goto('about:blank').catch(() => undefined);
    await clear().catch(() => undefined);
    await page.close().catch(() => undefined);
  };
  return { context, page, close };
}

/** Closes the shared chromium, if one was started, and removes its profile. */
async function closeSharedBrowser() {
  const browser = shared;
  shared = undefined;
  const started = await browser?.catch(() => undefined);
  await started?.context.close().catch(() => undefined);
  started?.profile.remove();
}

module.exports = { launchBrowser, newBrowserPage, closeSharedBrowser };
