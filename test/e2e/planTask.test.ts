// End-to-end: a real browser drives the real VS Code workbench (code-server) with Task Planner installed,
// the way a person uses it. Screenshots go to test-results/screenshots/e2e/ (git-ignored, emptied per run).
import * as assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { activityBarEntry, commandInput, quickInputField, screenshotIfFailed, typeIntoQuickInput } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'e2e');

describe('Task Planner in the browser workbench', function () {
  let workbench: DemoWorkbench | undefined;
  let page: Page;

  const shoot = async (name: string): Promise<void> => {
    await page.screenshot({ path: join(screenshots, `${name}.png`) });
  };

  before(async function () {
    workbench = await openDemoWorkbench({
      name: 'ws',
      screenshots,
      // The review in a QuickPick (the other e2e suites review in the plan panel, the default).
      files: { '.vscode/settings.json': { 'taskPlanner.review.show': 'quickPick' } },
      viewport: { width: 1400, height: 900 },
      openView: false,
    });
    page = workbench.page;
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots);
  });

  after(async () => {
    await workbench?.close();
  });

  it('opens the Task Planner view from the activity bar and shows its welcome content', async () => {
    await activityBarEntry(page, 'Task Planner').click();
    const sidebar = page.locator('.sidebar');
    await sidebar.locator('.composite.title', { hasText: 'Task Planner' }).waitFor({ timeout: 30_000 });
    await sidebar.getByText('No plan yet', { exact: false }).waitFor({ timeout: 30_000 });
    await sidebar.getByRole('button', { name: 'Plan task' }).first().waitFor({ timeout: 10_000 });
    // the view shows a progress bar while the extension activates; the screenshot is of the settled view
    await sidebar.locator('.monaco-progress-container.active').first().waitFor({ state: 'hidden', timeout: 15_000 });
    await shoot('welcome');
  });

  it('plans a request typed into "Plan task" and shows its steps in the Plan tree', async () => {
    const field = await commandInput(page, 'Plan task', 'Task Planner: Plan task');
    const request = 'Read src/notes.js, then add a remove command to src/cli.js, then run `npm test`';
    await typeIntoQuickInput(page, request);
    assert.equal(await field.inputValue(), request, 'the input box did not receive the whole request');
    await shoot('request');
    await page.keyboard.press('Enter');
    const rows = page.locator('.sidebar .monaco-list-row');
    await rows.nth(2).waitFor({ timeout: 30_000 });
    const labels = (await rows.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
    assert.equal(labels.length, 3, `expected three steps in the Plan tree, got: ${JSON.stringify(labels)}`);
    assert.match(labels[0] ?? '', /^1\. Read src\/notes\.js/);
    assert.match(labels[1] ?? '', /^2\. Add a remove command/i);
    assert.match(labels[2] ?? '', /^3\. Run `?npm test/i);
    await shoot('plan');
    // The review QuickPick (Start / Cancel, chosen in the settings) follows; Escape cancels without running anything.
    await quickInputField(page, 'Task Planner: review the plan');
    await shoot('review');
    await page.keyboard.press('Escape');
  });

  it('moves the request into an editor for a multi-line request, and plans it from the editor title', async () => {
    await commandInput(page, 'Plan task', 'Task Planner: Plan task');
    await typeIntoQuickInput(page, '- Read README.md');
    await page.locator('.quick-input-widget .action-label[aria-label^="Write a longer, multi-line request"]').click();
    const editor = page.locator('.editor-group-container.active .monaco-editor').first();
    await editor.locator('.view-line', { hasText: 'Read README.md' }).waitFor({ timeout: 15_000 });
    // Named "Task request N.md" (a second try of this test finds the first try's request still open as N = 1).
    await page.locator('.tab.active', { hasText: /Task request \d+\.md/ }).waitFor({ timeout: 10_000 });
    // The hint is above what was typed (issue 28: below it, typing on split the first bullet); the cursor waits at the end
    // of what was typed, the document's end.
    const lines = (await editor.locator('.view-line').allInnerTexts()).map((line) => line.replace(/\u00a0/g, ' ').trim());
    assert.match(lines[0] ?? '', /^<!-- Describe the task/);
    // It names the title button as the button's tooltip does, with its icon (it said "Plan this request", a name shown nowhere).
    const hint = lines.slice(0, lines.findIndex((line) => line.endsWith('-->')) + 1).join(' ');
    assert.match(hint, /click ▷ \(Plan task from the editor\) in this editor's title/, hint);
    assert.ok(lines.indexOf('- Read README.md') > 0, `what was typed is not below the hint: ${JSON.stringify(lines)}`);
    // The hint is the document's line 1 (wrapped on screen), a blank line, then what was typed.
    await page.locator('.statusbar-item', { hasText: 'Ln 3, Col 17' }).waitFor({ timeout: 10_000 });
    // The user types on at once: the keyboard is in the request's editor (a key pressed while the closing input box
    // still held the focus went nowhere, as a user's would).
    await page.waitForFunction(() => document.activeElement?.closest('.editor-group-container.active .monaco-editor') != null, undefined, { timeout: 10_000 });
    for (const [index, line] of ['- List the files in src', '- Run `npm run lint`'].entries()) {
      // The line break goes in as text, not as the Enter key: Enter accepts a word suggestion the editor may be showing,
      // and one can show up just after an Escape that was meant to close it (seen in whole e2e runs: a line break lost).
      await page.keyboard.insertText('\n');
      await page.locator('.statusbar-item', { hasText: `Ln ${4 + index}, Col 1` }).waitFor({ timeout: 10_000 });
      await page.keyboard.type(line, { delay: 5 });
    }
    await page.keyboard.press('Escape');
    await editor.locator('.view-line', { hasText: 'Run `npm run lint`' }).waitFor();
    await shoot('request-editor');
    await page.locator('.editor-group-container.active .action-label[aria-label^="Plan task from the editor"]').click();
    await quickInputField(page, 'Task Planner: review the plan');
    const rows = page.locator('.sidebar .monaco-list-row');
    await rows.filter({ hasText: 'npm run lint' }).waitFor({ timeout: 10_000 });
    const labels = (await rows.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
    assert.equal(labels.length, 3, `expected a step per list line, got: ${JSON.stringify(labels)}`);
    assert.match(labels[0] ?? '', /^1\. Read README\.md/);
    assert.match(labels[1] ?? '', /^2\. List the files in src/);
    assert.match(labels[2] ?? '', /^3\. Run `?npm run lint/);
    await page.keyboard.press('Escape');
  });
});
