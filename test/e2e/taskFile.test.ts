// End-to-end: a Spec Kit tasks.md in the browser workbench. The file shows "Plan from this file" (CodeLens, and a
// button in its title bar); the review in the plan panel says where each step came from; Start; the person does the
// step; the tick of its checkbox is a diff to approve like any change; then the file has [x].
// Screenshots in test-results/screenshots/task-file/.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { planPanelFrame, quickInputField, quickOpen, screenshotIfFailed, typeIntoQuickInput } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'task-file');

const tasks = [
  '# Tasks: Photo albums',
  '',
  '**Input**: Design documents from `/specs/001-albums/`',
  '',
  '## Phase 1: Setup',
  '',
  '- [x] T001 Create the project structure',
  '- [ ] T002 Write the release notes in CHANGELOG.md',
  '',
].join('\n');

describe('A Spec Kit tasks.md as a plan (browser workbench)', function () {
  let workbench: DemoWorkbench | undefined;
  let page: Page;
  let folder: string;
  const shoot = (name: string) => page.screenshot({ path: join(screenshots, `${name}.png`) });

  before(async function () {
    workbench = await openDemoWorkbench({
      name: 'task-file',
      screenshots,
      files: { 'specs/001-albums/tasks.md': tasks, '.vscode/settings.json': { 'taskPlanner.taskFiles.tickCheckboxes': true } },
    });
    ({ page, folder } = workbench);
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots);
  });

  after(async () => {
    await workbench?.close();
  });

  it('CodeLens → review with origins → Start → Done → approve the tick → the file has [x]', async () => {
    await quickOpen(page, 'tasks.md');
    const editor = page.locator('.editor-group-container.active');
    const lens = editor.locator('.codelens-decoration a', { hasText: 'Plan from this file' });
    await lens.waitFor({ timeout: 30_000 });
    await editor.locator('.editor-actions [aria-label^="Plan from file"]').waitFor({ timeout: 15_000 });
    await shoot('1-codelens-and-title-button');
    await lens.click();

    const panel = planPanelFrame(page);
    const review = panel.locator('plan-panel-app[data-mode="review"]');
    const step = review.locator('li.step[data-step-id="T002"]');
    await step.waitFor({ timeout: 60_000 });
    assert.match(await step.innerText(), /From specs\/001-albums\/tasks\.md, line 8:/);
    assert.match(await review.locator('h1.objective').innerText(), /Tasks: Photo albums/);
    await panel.getByText(/From specs\/001-albums\/tasks\.md \(Spec Kit tasks\.md\): 2 tasks from/).first().waitFor({ timeout: 15_000 });
    await shoot('2-review-with-origins');
    await review.locator('vscode-button[data-action="start"]').click();

    const run = panel.locator('plan-panel-app[data-mode="run"]');
    const manual = run.locator('li.manual-step[data-step-id="T002"]');
    await manual.waitFor({ timeout: 30_000 });
    await manual.locator('vscode-button[data-action="manual-done"]').click();
    await quickInputField(page, 'Task Planner: Write the release notes in CHANGELOG.md is done');
    await typeIntoQuickInput(page, 'Written');
    await page.keyboard.press('Enter');

    await page.locator('.tab', { hasText: 'T002' }).first().waitFor({ timeout: 30_000 });
    // The diff's proposed side shows the ticked box (the editor shows spaces as no-break spaces: \s matches both).
    const diff = page.locator('.editor-group-container.active .monaco-diff-editor .modified-in-monaco-diff-editor .view-lines');
    await diff.filter({ hasText: /-\s\[x\]\sT002/ }).waitFor({ timeout: 30_000 });
    await shoot('3-tick-diff');
    assert.match(readFileSync(join(folder, 'specs/001-albums/tasks.md'), 'utf8'), /- \[ \] T002/, 'ticked before the approval');
    await page.locator('.editor-group-container.active .action-label[aria-label^="Approve"]').first().click();

    await run.locator('.run-status', { hasText: 'completed' }).first().waitFor({ timeout: 30_000 });
    assert.equal(readFileSync(join(folder, 'specs/001-albums/tasks.md'), 'utf8'), tasks.replace('- [ ] T002', '- [x] T002'));
    await shoot('4-completed-ticked');
  });
});
