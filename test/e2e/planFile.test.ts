// End-to-end: a *.plan.json file in the browser workbench. Typing a field the plan schema does not know shows a
// schema problem (contributes.jsonValidation with dist/plan.schema.json), and the file's title bar offers
// "Run plan file" and "Review plan file"; the plan panel offers Save as file and exports the Markdown checklist. Screenshots in test-results/screenshots/plan-file/.
import * as assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { notification, planPanelFrame, quickOpen, runCommand, runPlanFileFromTitleBar, screenshotIfFailed } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'plan-file');

const plan = {
  objective: 'Read the README',
  steps: [{ id: 'read', title: 'Read the README', tool: 'read_file', args: { path: 'README.md' } }],
};

// An outside attack: a plan's path in the failure reason rendered as a link in the run's notification, and its click ran the
// command (workbench.action.terminal.sendSequence typed a shell command into the terminal). A harmless command here.
const link = '[Show details](command:workbench.action.openGlobalKeybindings)';
const linkPlan = { objective: 'Read the notes', steps: [{ id: 'notes', title: 'Read the notes', tool: 'read_file', args: { path: link } }] };

describe('A plan file in the editor (browser workbench)', function () {
  let workbench: DemoWorkbench | undefined;
  let page: Page;

  before(async function () {
    workbench = await openDemoWorkbench({
      name: 'plan-file',
      screenshots,
      openView: false,
      files: { 'plans/readme.plan.json': plan, 'plans/link.plan.json': linkPlan },
    });
    page = workbench.page;
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots);
  });

  after(async () => {
    await workbench?.close();
  });

  it('a field the schema does not know, typed into the file, is shown as a problem; the title bar runs or reviews the file', async () => {
    await quickOpen(page, 'readme.plan.json');
    const titleBar = page.locator('.editor-group-container.active .editor-actions');
    await titleBar.locator('[aria-label^="Run plan file"]').waitFor({ timeout: 30_000 });
    await titleBar.locator('[aria-label^="Review plan file"]').waitFor({ timeout: 15_000 });

    await runCommand(page, 'Problems: Focus on Problems View');
    const problems = page.locator('.markers-panel');
    await problems.waitFor({ timeout: 15_000 });
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    // Auto-closing quotes: type the closing quote over the inserted one, as a person does.
    await page.keyboard.type('"colour": "red",', { delay: 20 });
    const row = problems.locator('.monaco-list-row', { hasText: /Property colour is not allowed/ }).first();
    await row.waitFor({ timeout: 30_000 });
    assert.match(await row.innerText(), /readme\.plan\.json|colour/);
    await page.screenshot({ path: join(screenshots, 'schema-problem.png') });
  });

  it('the plan panel saves the plan as a file and exports it as a Markdown checklist, from its title bar and its review', async () => {
    await runCommand(page, 'Task Planner: Show plan');
    const titleBar = page.locator('.editor-group-container.active .editor-actions');
    await titleBar.locator('[aria-label^="Save plan as file"]').waitFor({ timeout: 30_000 });
    await titleBar.locator('[aria-label^="Export plan as Markdown checklist"]').waitFor({ timeout: 15_000 });
    const panel = planPanelFrame(page);
    await panel.locator('vscode-button[data-action="save-plan-file"]').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: join(screenshots, 'plan-panel.png') });
    await panel.locator('vscode-button[data-action="export-markdown"]').click();
    const markdown = page.locator('.editor-group-container.active .monaco-editor .view-lines');
    // The editor shows spaces as no-break spaces: \s matches both.
    await markdown.filter({ hasText: /-\s\[\s\]\s\*\*read\*\*\sRead\sthe\sREADME\s\(read\\_file\)/ }).waitFor({ timeout: 30_000 });
    assert.match(await markdown.innerText(), /^#\sRead\sthe\sREADME$/m);
    await page.screenshot({ path: join(screenshots, 'markdown-checklist.png') });
  });

  it('attack: a link in a plan\'s text reaches the run\'s notification as text, never as a link that runs a command', async () => {
    await runPlanFileFromTitleBar(page, 'link.plan.json');
    const toast = await notification(page, /run "Read the notes" failed/);
    assert.match(await toast.innerText(), /\[Show details\] \(command:/);
    assert.equal(await toast.locator('a', { hasText: 'Show details' }).count(), 0, 'the plan\'s text became a link');
    await page.screenshot({ path: join(screenshots, 'no-link.png') });
  });
});
