// Starts what every end-to-end suite starts: a copy of the demo workspace, and a window on it in a fresh browser page,
// served by the run's code-server with Task Planner linked the way `npm start` installs it (test/e2e/sharedCodeServer.ts).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { newBrowserPage, type Browser } from '../host/browser.cjs';
import type { CodeServer } from '../host/codeServer.cjs';
import { stillWorkbench } from '../host/stillWorkbench.cjs';
import { temporaryFolder } from '../host/tempFolder.cjs';
import { sharedCodeServer } from './sharedCodeServer';
import { activityBarEntry, waitForWorkbench } from './workbench';

const root = resolve(__dirname, '..', '..');

/** The tests' quiet workbench, and what the end-to-end suites type into it. */
const windowSettings = {
  ...stillWorkbench,
  // Typed text may bring the suggest widget up (word-based suggestions), and a loaded machine shows it just as a test
  // presses Enter, which then takes the suggestion instead of breaking the line (a clean-clone run lost a typed newline).
  'editor.acceptSuggestionOnEnter': 'off',
};

/** How one suite's workbench differs from the others'. */
export interface DemoWorkbenchOptions {
  /** Names the temporary workspace folder (`task-planner-e2e-<name>-…`). */
  readonly name: string;
  /**
   * Opens a multi-root workspace instead of one folder: a copy of the demo workspace in a folder of each name, opened
   * from `two-folders.code-workspace` beside them (`folder` is then their parent).
   */
  readonly multiRoot?: readonly string[];
  /** Files written over the demo workspace, by path relative to it; an object is written as JSON. */
  readonly files?: Readonly<Record<string, string | object>>;
  /**
   * The window's user settings (written anew for it), and how its code-server is started: with workspace trust on, or
   * more environment for the extension host. Suites asking the same share a server.
   */
  readonly server?: {
    readonly userSettings?: Readonly<Record<string, unknown>>;
    readonly workspaceTrust?: boolean;
    readonly env?: Readonly<Record<string, string>>;
  };
  /** The browser's viewport in CSS pixels; default 1400 × 850. */
  readonly viewport?: { readonly width: number; readonly height: number };
  /** Whether the Task Planner view is opened from the activity bar once the workbench is up; default true. */
  readonly openView?: boolean;
  /**
   * The suite's screenshot folder: created, and emptied of the `.png` files directly in it (only those named
   * `[failed-]<screenshotPrefix>…` when a prefix is given: suites that share a folder); `failed-<prefix>workbench-start.png`
   * goes there when the workbench does not come up.
   */
  readonly screenshots: string;
  readonly screenshotPrefix?: string;
  /** More extension folders linked beside Task Planner (test fixtures such as the scripted chat model). */
  readonly extensions?: readonly string[];
}

/**
 * A running workbench on a copy of the demo workspace; `close()` closes its page, ends its extension host
 * (the server would keep it for a reconnect) and removes the copy. The server goes on for the next suite.
 */
export interface DemoWorkbench {
  readonly page: Page;
  readonly server: CodeServer;
  readonly browser: Browser;
  /** Absolute path of the workspace copy. */
  readonly folder: string;
  readonly close: () => Promise<void>;
}

/**
 * Copies test/fixtures/demo-workspace to a temporary folder, writes `options.files` into it, and opens it in a browser
 * page whose site's storage was cleared (local storage and IndexedDB, where the web workbench keeps the extension's global
 * state, its secrets and workspace trust; only the HTTP cache is kept) on the run's code-server with the built extension (dist/) linked, with the user settings
 * written anew, until the Task Planner activity-bar entry is there. The window's extension host is its own; closing
 * ends it. When any of it fails, whatever was opened is closed again and the error says why (with the tail of the
 * server's log when the workbench did not come up).
 */
export async function openDemoWorkbench(options: DemoWorkbenchOptions): Promise<DemoWorkbench> {
  for (const built of ['extension.js', 'webview.js']) {
    if (!existsSync(join(root, 'dist', built))) throw new Error(`dist/${built} is missing: build the extension first (npm run build)`);
  }
  const prefix = options.screenshotPrefix ?? '';
  mkdirSync(options.screenshots, { recursive: true });
  for (const name of readdirSync(options.screenshots)) {
    if (name.endsWith('.png') && (name.startsWith(prefix) || name.startsWith(`failed-${prefix}`))) rmSync(join(options.screenshots, name), { force: true });
  }
  const workspace = temporaryFolder(`task-planner-e2e-${options.name}-`);
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  /** The extension hosts running before this window opened: suites open one window at a time, so the others are its own. */
  let earlier = new Set<number>();
  const close = async (): Promise<void> => {
    await browser?.close();
    // The server would keep the window's host (and what it started) for a reconnect, hours long.
    await server?.stopExtensionHosts(server.extensionHosts().filter((pid) => !earlier.has(pid)));
    workspace.remove();
  };
  try {
    const roots = options.multiRoot?.map((name) => join(workspace.path, name)) ?? [workspace.path];
    for (const copy of roots) cpSync(join(root, 'test', 'fixtures', 'demo-workspace'), copy, { recursive: true });
    const open = options.multiRoot ? join(workspace.path, 'two-folders.code-workspace') : workspace.path;
    if (options.multiRoot) writeFileSync(open, JSON.stringify({ folders: options.multiRoot.map((name) => ({ path: name })) }, null, 2));
    for (const [path, content] of Object.entries(options.files ?? {})) {
      const file = join(workspace.path, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    }
    server = await sharedCodeServer({
      workspaceTrust: options.server?.workspaceTrust === true,
      linkExtensions: [root, ...(options.extensions ?? [])],
      ...(options.server?.env ? { env: options.server.env } : {}),
    });
    // A chat participant makes the workbench open its Chat view at start, whose input can take the keyboard from a
    // quick input the test is typing into; suites that use the chat open it themselves.
    server.writeUserSettings({ 'workbench.secondarySideBar.defaultVisibility': 'hidden', ...windowSettings, ...options.server?.userSettings });
    earlier = new Set(server.extensionHosts());
    browser = await newBrowserPage(options.viewport ?? { width: 1400, height: 850 }, server.origin);
    const page = browser.page;
    // The workbench's own wait below is longer than goto's 30 s "load" on a loaded machine.
    await page.goto(server.workbenchUrl(open), { waitUntil: 'commit' });
    const started = server;
    await waitForWorkbench(page, 'Task Planner').catch(async (error: unknown) => {
      await page.screenshot({ path: join(options.screenshots, `failed-${prefix}workbench-start.png`) }).catch(() => undefined);
      throw new Error(`the workbench did not show the Task Planner activity-bar entry: ${String(error)}\nend of the server's log:\n${logTail(started.logFile)}`);
    });
    if (options.multiRoot && !(await showsFolders(page, options.multiRoot))) {
      // The web workbench opens a workspace file first from its cache of the file (empty in a fresh browser profile)
      // and reads the file itself once the remote file system is there; when that read ends before the workbench has
      // set its workspace up, the folders it found are dropped and the window stays without them (measured: about one
      // multi-root window in twelve on this machine; test/host/README.md). The read filled the cache, so a reload opens the folders.
      await page.reload({ waitUntil: 'commit' });
      await waitForWorkbench(page, 'Task Planner');
      if (!(await showsFolders(page, options.multiRoot))) {
        await page.screenshot({ path: join(options.screenshots, `failed-${prefix}workbench-start.png`) }).catch(() => undefined);
        throw new Error(`the multi-root window did not show its folders ${options.multiRoot.join(', ')} in the Explorer, even after a reload`);
      }
    }
    if (options.openView !== false) await activityBarEntry(page, 'Task Planner').click();
    return { page, server, browser, folder: workspace.path, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Whether the Explorer lists every one of `folders` as a root of the workspace within 15 s. */
async function showsFolders(page: Page, folders: readonly string[]): Promise<boolean> {
  const roots = page.locator('.explorer-folders-view .monaco-list-row[aria-level="1"]');
  return Promise.all(folders.map((name) => roots.getByText(name, { exact: true }).first().waitFor({ timeout: 15_000 })))
    .then(() => true, () => false);
}

/** The last 40 lines of the file at `path`, or a note that it cannot be read. */
function logTail(path: string | undefined): string {
  try {
    return path ? readFileSync(path, 'utf8').split('\n').slice(-40).join('\n') : '(no log)';
  } catch (error) {
    return `(the log ${path} cannot be read: ${String(error)})`;
  }
}
