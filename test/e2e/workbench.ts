// Helpers that drive the VS Code workbench the way a person does: keyboard and visible UI only.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';

/** The activity-bar entry of a view container, by its title. */
export function activityBarEntry(page: Page, title: string): Locator {
  return page.locator(`.activitybar .action-item [aria-label^="${title}"]`).first();
}

/** Waits until the workbench shows the folder and the remote extension host has registered contributions. */
export async function waitForWorkbench(page: Page, containerTitle: string): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  await page.locator('.explorer-folders-view, .explorer-viewlet').first().waitFor({ timeout: 90_000 });
  await activityBarEntry(page, containerTitle).waitFor({ state: 'attached', timeout: 90_000 });
}

/**
 * F1, type the command's title, click the row of that command. The palette snapshots its command list when it opens, so a command
 * contributed by an extension that the host has not registered yet is retried a few times.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  // The row named exactly so (after its category), clicked: Enter would run whichever row the palette ranked first,
  // and another command's title can hold the same words ("Export plan as task file" for "Plan task").
  const exact = new RegExp(`^(?:[^:]+: )?${escapeRegExp(title)}$`);
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exact }) }).first();
  let last: unknown;
  for (let attempt = 1; attempt <= 5; attempt++) {
    try {
      // Also retried: an F1 that lands while focus moves (a webview taking it back as it renders) opens no palette, or
      // one that closes at once.
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget input').waitFor({ state: 'visible', timeout: 5_000 });
      await typeIntoQuickInput(page, title);
      await row.waitFor({ timeout: 3_000 });
      await row.click();
      return;
    } catch (error) {
      last = error;
      await page.keyboard.press('Escape');
      await page.waitForTimeout(1_000);
    }
  }
  throw new Error(`command "${title}" not found in the command palette after 5 attempts; the last: ${String(last).split('\n')[0]}`);
}

/**
 * Types `text` into the focused quick-input box as a person pasting it and typing its last character would: all but the
 * last character in one input event, then that character as a key. The box filters its list (the command palette: some
 * two thousand commands) on every change, and typed key by key that was a second of the browser's CPU per command on this
 * 2-core machine, a tenth as much so; the last key still goes through the box's key handling.
 */
export async function typeIntoQuickInput(page: Page, text: string): Promise<void> {
  const last = [...text].at(-1) ?? '';
  if (text.length > last.length) await page.keyboard.insertText(text.slice(0, text.length - last.length));
  await page.keyboard.type(last);
}

/**
 * Waits for the quick-input box (InputBox or QuickPick) whose title is `title` (the command palette has no title,
 * so this does not match the palette row of the command that opens it) and returns its text field, focused: on a
 * loaded machine the box is drawn before it takes the focus, and keys typed in that moment went elsewhere (a request
 * never sent, a clean clone's "planning failed" never came).
 */
export async function quickInputField(page: Page, title: string): Promise<Locator> {
  const widget = page.locator('.quick-input-widget').filter({ has: page.locator('.quick-input-title', { hasText: title }) });
  await widget.waitFor({ state: 'visible', timeout: 15_000 });
  const field = widget.locator('.quick-input-box input').first();
  // The box can show its title and list a moment before its field (a clean clone's loaded workbench: over 5 s).
  await field.waitFor({ state: 'visible', timeout: 15_000 });
  await field.focus();
  return field;
}

/**
 * Runs the command `title` from the palette and returns the field of the quick-input box titled `box` that it opens,
 * running it again when the box does not show: a webview that finishes loading takes the focus it was given before
 * (the plan panel, in front again once a diff closed), and a box that loses the focus closes (a clean clone's list of
 * allow rules closed so as the run before ended).
 */
export async function commandInput(page: Page, title: string, box: string): Promise<Locator> {
  for (let attempt = 1; ; attempt++) {
    await runCommand(page, title);
    try {
      return await quickInputField(page, box);
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** The toast of the notification containing `text` (gone once the toast hides itself; see `notification`). */
export function toastOf(page: Page, text: string | RegExp): Locator {
  return page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
}

/** A notification containing `text`: its toast, or else its entry in the notification center (opened for it). */
export async function notification(page: Page, text: string | RegExp): Promise<Locator> {
  const toast = toastOf(page, text);
  if (await toast.waitFor({ timeout: 15_000 }).then(() => true, () => false)) return toast;
  await runCommand(page, 'Notifications: Show Notifications');
  const entry = page.locator('.notifications-center .notification-list-item', { hasText: text }).first();
  // What has not come yet (slow on a loaded machine) is listed there when it comes.
  await entry.waitFor({ timeout: 45_000 });
  return entry;
}

/**
 * Clicks the button `button` of the notification containing `text`: on its toast while that is up, else on its entry in
 * the notification center. A toast hides itself after a while, and on a loaded machine it did so between a test finding
 * it and clicking it (a clean clone's click on Resume waited 30 s on a toast gone).
 */
export async function clickNotificationButton(page: Page, text: string | RegExp, button: string): Promise<void> {
  const onToast = toastOf(page, text).locator('.monaco-button', { hasText: button }).first();
  if ((await onToast.isVisible()) && (await onToast.click({ timeout: 5_000 }).then(() => true, () => false))) return;
  const entry = await notification(page, text);
  await entry.locator('.monaco-button', { hasText: button }).first().click();
}

/**
 * The workbench's modal dialog containing `text`, once open (within `timeout` ms) and holding the keyboard focus (it
 * focuses a button as it shows), with its text and the label of the button that has the focus: what Enter would choose.
 */
export async function dialogShown(page: Page, text: string | RegExp, timeout = 30_000): Promise<{ dialog: Locator; text: string; focused: string }> {
  const dialog = page.locator('.monaco-dialog-box', { hasText: text }).first();
  await dialog.waitFor({ timeout });
  await page.waitForFunction(() => document.activeElement?.closest('.monaco-dialog-box') !== null, undefined, { timeout: 10_000 });
  return { dialog, text: await dialog.innerText(), focused: await page.evaluate(() => (document.activeElement?.textContent ?? '').trim()) };
}

/** Answers the dialog containing `text` (`dialogShown`) with its button `button`; gives back what it showed. */
export async function answerDialog(page: Page, text: string | RegExp, button: string): Promise<{ text: string; focused: string }> {
  const { dialog, ...shown } = await dialogShown(page, text);
  await dialog.locator('.monaco-button', { hasText: new RegExp(`^${button}$`) }).click();
  await dialog.waitFor({ state: 'detached', timeout: 15_000 });
  return shown;
}

/** Opens the workspace file `name` with Quick Open (Ctrl+P) and waits for its tab to be the active one. */
export async function quickOpen(page: Page, name: string): Promise<void> {
  // Ctrl+P is tried again after Escape: a key pressed while focus is still in a webview or a closing widget (a clean clone's
  // approvals test, twice on one workbench) can be lost.
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+P');
    if (await input.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false)) break;
    if (attempt === 3) throw new Error(`Quick Open (Ctrl+P) did not open after ${attempt} tries`);
    await page.keyboard.press('Escape');
  }
  await typeIntoQuickInput(page, name);
  // The row of that very file, clicked: Enter opens whichever row is ranked first, which while the list still filters
  // can be another file ("menu.txt" for "menu.plan.json").
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(name)}$`) }) }).first();
  await row.waitFor({ timeout: 15_000 });
  await row.click();
  await page.locator('.tab.active', { hasText: name }).waitFor({ timeout: 15_000 });
}

/**
 * Opens the plan file `name` and clicks "Run plan file" in its title bar. The tabs of other plan files are closed
 * first, so a click that lands as the title bar is drawn again for the new tab cannot reach the one before. (A second
 * run of the plan file shown before, waiting on an approval no test gave, came from the extension: it read the editor
 * in front when it had not yet heard of the clicked one; it reads the clicked file now, test/integration/planFiles.test.ts.)
 */
export async function runPlanFileFromTitleBar(page: Page, name: string): Promise<void> {
  const planTabs = page.locator('.tab').filter({ has: page.locator('.label-name', { hasText: /\.plan\.json$/ }) });
  for (let left = await planTabs.count(); left > 0; left = await planTabs.count()) {
    const tab = planTabs.first();
    await tab.hover();
    await tab.locator('.tab-actions .action-label').first().click();
    await planTabs.nth(left - 1).waitFor({ state: 'detached', timeout: 15_000 });
  }
  await quickOpen(page, name);
  // The button of the group whose active tab is that file: the title bar's button runs the file its own group shows, and
  // a loaded clean clone's run once started the plan file shown before (the group taken for active was not that one).
  const group = page.locator('.editor-group-container').filter({ has: page.locator('.tab.active', { hasText: name }) }).first();
  const run = group.locator('.editor-actions [aria-label^="Run plan file"]').first();
  await run.waitFor({ timeout: 60_000 });
  await run.click();
}

/** The document inside the plan panel's webview (the workbench nests it in two iframes). */
export function planPanelFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').first().frameLocator('#active-frame');
}

/**
 * Saves `failed-<prefix><test title>.png` in `folder` when `test` failed, for mocha's
 * `afterEach`; a screenshot that cannot be taken does not hide the test's own failure.
 */
export async function screenshotIfFailed(page: Page | undefined, test: Mocha.Test | undefined, folder: string, prefix = ''): Promise<void> {
  // A first try that failed and is tried again (--retries) has no state yet: its screenshot is the one that shows why.
  if (!page || test === undefined || test.state === 'passed' || test.state === 'pending') return;
  const slug = test.title.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase().slice(0, 80);
  // The first try's screenshot is kept beside the second's: it shows why the test was tried again.
  const first = join(folder, `failed-${prefix}${slug}.png`);
  await page.screenshot({ path: existsSync(first) ? join(folder, `failed-${prefix}${slug}-try2.png`) : first }).catch(() => undefined);
}

/** `text` as a regular expression that matches it literally. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
