// End-to-end, a newcomer without a model: Plan task (the heuristic planner) → review in the plan panel (one step is
// theirs to do) → Start → approve the write in the diff editor → the step that is theirs waits with its instructions
// → Done from the plan panel, with a note typed in the input box → the completed summary offers Undo.
// Screenshots in test-results/screenshots/manual/.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { commandInput, planPanelFrame, quickInputField, quickOpen, runCommand, screenshotIfFailed, typeIntoQuickInput } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'manual');

describe('a step that is yours to do, without a model (browser workbench)', function () {
  let workbench: DemoWorkbench | undefined;
  let page: Page;
  let folder: string;

  const shoot = async (name: string): Promise<void> => {
    await page.screenshot({ path: join(screenshots, `${name}.png`) });
  };
  const planRow = (text: string | RegExp): Locator =>
    page.locator('.sidebar .pane').filter({ has: page.locator('.pane-header', { hasText: /^\s*Plan/ }) }).locator('.monaco-list-row').filter({ hasText: text }).first();

  before(async function () {
    workbench = await openDemoWorkbench({
      name: 'manual',
      screenshots,
      files: {
        // A plan written for a model: an agent reads the notes module and summarises it.
        'summary.plan.json': {
          objective: 'Summarise the notes module',
          steps: [
            { id: 'R1', title: 'Read the notes module', tool: 'read_file', args: { path: 'src/notes.js' } },
            { id: 'A1', title: 'Summarise the module', kind: 'agent', input: 'Summarise what {{results.R1}} does in three lines', dependsOn: ['R1'] },
          ],
        },
      },
    });
    ({ page, folder } = workbench);
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots);
  });

  after(async () => {
    await workbench?.close();
  });

  it('plans without a model, runs the write after Approve, waits for the person, and completes after Done in the panel with Undo offered', async () => {
    await commandInput(page, 'Plan task', 'Task Planner: Plan task');
    await typeIntoQuickInput(page, 'Create an empty file RELEASE-NOTES.md, then fill it in with the changes');
    await page.keyboard.press('Enter');

    const panel = planPanelFrame(page);
    const review = panel.locator('plan-panel-app[data-mode="review"]');
    await review.locator('li.step[data-step-id="S002"]').waitFor({ timeout: 60_000 });
    await review.getByText(/1 step is yours to do/).first().waitFor();
    await shoot('1-review');
    await review.locator('vscode-button[data-action="start"]').click();

    const tab = page.locator('.tab', { hasText: 'S001' }).first();
    await tab.waitFor({ timeout: 30_000 });
    // Both sides of the diff are empty: the tab says the file proposed is a new, empty one (a newcomer saw a blank diff).
    assert.match(await tab.innerText(), /RELEASE-NOTES\.md \(create, empty, proposed\)/);
    assert.equal(existsSync(join(folder, 'RELEASE-NOTES.md')), false, 'the file exists before approval');
    await page.locator('.editor-group-container.active .action-label[aria-label^="Approve"]').first().click();

    const run = panel.locator('plan-panel-app[data-mode="run"]');
    const step = run.locator('li.manual-step[data-step-id="S002"]');
    await step.waitFor({ timeout: 30_000 });
    assert.match(await step.innerText(), /Fill it in with the changes/);
    await planRow(/yours to do/).waitFor({ timeout: 15_000 });
    const statusBar = page.locator('.statusbar-item', { hasText: 'Your step' }).first();
    await statusBar.waitFor({ timeout: 15_000 });
    await shoot('2-waiting-for-you');

    const done = step.locator('vscode-button[data-action="manual-done"]');
    assert.match((await done.getAttribute('aria-label')) ?? '', /^Done/, 'the accessible name starts with the visible text');
    await done.click();
    await quickInputField(page, 'Task Planner: Fill it in with the changes is done');
    await typeIntoQuickInput(page, 'Listed the three changes');
    await page.keyboard.press('Enter');

    await run.locator('vscode-button[data-action="undo"]').waitFor({ timeout: 30_000 });
    const summary = await run.locator('.run-status').first().innerText();
    assert.match(summary, /completed/);
    assert.match(await run.locator('tr.run-step[data-step-id="S002"]').innerText(), /Listed the three changes/);
    assert.equal(readFileSync(join(folder, 'RELEASE-NOTES.md'), 'utf8'), '');
    await planRow(/manual · completed|you · completed|completed/).waitFor({ timeout: 15_000 });
    await shoot('3-completed-with-undo');
  });
  it('a plan whose step needs a model, with none set up: Start is blocked with one notice, and "Do it myself" hands the step over', async () => {
    await quickOpen(page, 'summary.plan.json');
    await runCommand(page, 'Show plan');
    const panel = planPanelFrame(page);
    const review = panel.locator('plan-panel-app[data-mode="review"]');
    await review.locator('h1.objective', { hasText: 'Summarise the notes module' }).waitFor({ timeout: 30_000 });
    const notice = review.locator('.model-needed');
    await notice.waitFor({ timeout: 15_000 });
    // One step: "it", not "them" (a newcomer read "Do them yourself" of one step).
    assert.match(await notice.innerText(), /Step A1 needs a language model and none is set up\. Do it yourself, or set up a model\./);
    assert.equal((await notice.locator('vscode-button[data-action="make-manual"]').innerText()).trim(), 'Do it myself');
    assert.equal(await review.locator('vscode-button[data-action="start"]').getAttribute('disabled'), '', 'Start is offered although no one can run the agent step');
    await notice.locator('vscode-button', { hasText: 'Set up a model' }).waitFor();
    await shoot('4-model-needed');

    await notice.locator('vscode-button[data-action="make-manual"]').click();
    await review.locator('.plan-version', { hasText: 'version 2' }).waitFor({ timeout: 15_000 });
    assert.equal(await review.locator('.model-needed').count(), 0, 'the notice stayed after the step was handed over');
    await review.getByText(/1 step is yours to do/).first().waitFor();
    await review.locator('vscode-button[data-action="start"]:not([disabled])').click();

    const run = panel.locator('plan-panel-app[data-mode="run"]');
    const step = run.locator('li.manual-step[data-step-id="A1"]');
    await step.waitFor({ timeout: 30_000 });
    assert.match(await step.innerText(), /Summarise what/);
    await shoot('5-handed-over-waiting');
    await step.locator('vscode-button[data-action="manual-done"]').click();
    await quickInputField(page, 'Task Planner: Summarise the module is done');
    await typeIntoQuickInput(page, 'It keeps notes in a list');
    await page.keyboard.press('Enter');
    await run.locator('.run-status', { hasText: 'completed' }).first().waitFor({ timeout: 30_000 });
    assert.match(await run.locator('tr.run-step[data-step-id="A1"]').innerText(), /It keeps notes in a list/);
    await shoot('6-handed-over-completed');
  });
});
