// End-to-end: a run that waits in a tab that is lost (a crash, a dropped network, a closed laptop). code-server keeps that
// window's extension host for a reconnect, holding the workspace storage, so the window opened again gets storage of its
// own (VS Code's <id>-1). Its Runs view lists the lost window's run under "Runs of another window", read only, saying
// where it can be finished (its menus offer nothing: test/integration/otherWindowRuns.test.ts); once the server lets the old window go, the row offers Reload Window, after which the run
// is this window's again: interrupted, resumable. Screenshots in test-results/screenshots/other-window/.
import * as assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { newBrowserPage, type Browser } from '../host/browser.cjs';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { activityBarEntry, runCommand, runPlanFileFromTitleBar, screenshotIfFailed, toastOf, waitForWorkbench } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'other-window');
const objective = 'Write a note for later';

describe('runs of a lost tab, in the window opened again (browser workbench)', function () {
  this.timeout(300_000);
  let workbench: DemoWorkbench | undefined;
  let again: Browser | undefined;
  let page: Page;

  before(async function () {
    workbench = await openDemoWorkbench({
      name: 'other-window',
      screenshots,
      files: {
        'plans/note.plan.json': {
          objective,
          steps: [{ id: 'W', title: 'Write the note', kind: 'tool', tool: 'write_file', args: { path: 'note.txt', content: 'later\n' }, dependsOn: [] }],
        },
      },
    });
    page = workbench.page;
  });

  afterEach(async function () {
    await screenshotIfFailed(page, this.currentTest, screenshots);
  });

  after(async () => {
    await again?.close();
    await workbench?.close();
  });

  const shoot = async (name: string): Promise<void> => {
    await page.mouse.move(700, 700);
    await page.screenshot({ path: join(screenshots, `${name}.png`) });
  };
  const runRow = (): Locator => page.locator('.sidebar .monaco-list-row', { hasText: objective }).first();
  /**
   * The Runs view of a window that just started, through its "Focus on Runs View" command: the window may restore the
   * Task Planner sidebar by itself or not (a fresh page does not), and the activity-bar entry would close a restored one.
   */
  const showRuns = async (): Promise<void> => {
    await runCommand(page, 'Focus on Runs View');
    await page.locator('.sidebar .pane-header', { hasText: /^\s*Runs/ }).waitFor({ timeout: 20_000 });
  };

  it("lists the lost tab's waiting run apart, read only, and after the server lets that window go, Reload Window makes it this window's", async () => {
    const server = workbench!.server;
    await runPlanFileFromTitleBar(page, 'note.plan.json');
    await page.locator('.sidebar .monaco-list-row', { hasText: /awaiting approval/ }).first().waitFor({ timeout: 60_000 });
    const url = page.url();
    const hostsBefore = server.extensionHosts();
    // The tab ends without a goodbye: its renderer crashes, so the server keeps the window's host for a reconnect.
    await page.goto('chrome://crash').catch(() => undefined);
    await page.close().catch(() => undefined);

    again = await newBrowserPage({ width: 1400, height: 850 }, server.origin);
    page = again.page;
    await page.goto(url, { waitUntil: 'commit' });
    await waitForWorkbench(page, 'Task Planner');
    await showRuns();
    const group = page.locator('.sidebar .monaco-list-row', { hasText: 'Runs of another window' }).first();
    await group.waitFor({ timeout: 30_000 });
    assert.deepEqual(server.extensionHosts().filter((pid) => hostsBefore.includes(pid)), hostsBefore, "the lost tab's host ended: nothing to test");
    // Still running there (waiting for its approval), and said so.
    await runRow().filter({ hasText: /running/ }).waitFor({ timeout: 10_000 });
    await runRow().click();
    const heldNote = toastOf(page, 'It belongs to another window of this workspace');
    await heldNote.waitFor({ timeout: 15_000 });
    assert.match(await heldNote.innerText(), /reload this window to resume, undo or delete the run here/);
    assert.equal(await heldNote.locator('.monaco-button', { hasText: 'Reload Window' }).count(), 0, 'Reload offered while the other window holds the run');
    await shoot('1-reopened-held');
    // The server lets the lost window go (its reconnection grace ends, or code-server restarts).
    await server.stopExtensionHosts(hostsBefore);
    await page.locator('.sidebar .pane-header', { hasText: /^\s*Runs/ }).hover();
    await page.locator('.sidebar .pane-header [aria-label^="Refresh runs"]').first().click();
    await runRow().filter({ hasText: /interrupted/ }).waitFor({ timeout: 15_000 });
    await runRow().click();
    const endedNote = toastOf(page, 'has ended');
    await endedNote.waitFor({ timeout: 15_000 });
    await shoot('2-ended-reload-offered');
    await endedNote.locator('.monaco-button', { hasText: 'Reload Window' }).click();

    await activityBarEntry(page, 'Task Planner').waitFor({ state: 'attached', timeout: 90_000 });
    await showRuns();
    await page.locator('.sidebar .monaco-list-row', { hasText: new RegExp(`${objective}.*interrupted`) }).first().waitFor({ timeout: 60_000 });
    // The reloaded window may list the group for a moment, until it reads that the old window's storage is free (a
    // loaded clean clone saw it there still): it has to go, within the time a Runs refresh takes.
    const otherGroup = page.locator('.sidebar .monaco-list-row', { hasText: 'Runs of another window' });
    await otherGroup.first().waitFor({ state: 'detached', timeout: 30_000 }).catch(() => undefined);
    assert.equal(await otherGroup.count(), 0, 'the run is still listed as another window\'s');
    await runRow().click({ button: 'right' });
    await page.locator('.context-view .action-label', { hasText: 'Resume' }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
    await shoot('3-reloaded-own-run');
  });
});
