// End-to-end, a newcomer without a model: the Plan view and the first-run notification say the heuristic planner is
// active; "Set up a model" from the notification walks through a local server (the fake OpenAI server, started here)
// in QuickPicks and reports the connection; then Plan task → review → Start → Approve → completed with that model;
// then a planning failure offers Retry, which plans again. Screenshots in test-results/screenshots/setup/.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { FakeOpenAiServer } from '../fakes/fakeOpenAiServer';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { clickNotificationButton, commandInput, notification, planPanelFrame, quickInputField, screenshotIfFailed, typeIntoQuickInput } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'setup');

describe('A newcomer sets up a local model and plans with it (browser workbench)', function () {
  let workbench: DemoWorkbench | undefined;
  const model = new FakeOpenAiServer({ models: ['fake-local-model', 'other-model'] });
  let page: Page;
  let folder: string;

  const shoot = async (name: string): Promise<void> => {
    await page.screenshot({ path: join(screenshots, `${name}.png`) });
  };
  const pick = async (title: string, label: string): Promise<void> => {
    await quickInputField(page, title);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().click();
  };
  const planRow = (text: string | RegExp): Locator =>
    page.locator('.sidebar .pane').filter({ has: page.locator('.pane-header', { hasText: /^\s*Plan/ }) }).locator('.monaco-list-row').filter({ hasText: text }).first();

  before(async function () {
    await model.start();
    workbench = await openDemoWorkbench({ name: 'setup', screenshots });
    ({ page, folder } = workbench);
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots);
  });

  after(async () => {
    await workbench?.close();
    await model.close();
  });

  it('(1) says the heuristic planner is active, and sets up a local server from the first-run notification', async () => {
    const sidebar = page.locator('.sidebar');
    await sidebar.getByText('Planner: the heuristic planner (no model)', { exact: false }).waitFor({ timeout: 30_000 });
    await sidebar.getByRole('button', { name: 'Set up a model' }).first().waitFor();
    const welcome = 'Task Planner plans with the heuristic planner';
    await notification(page, welcome);
    await shoot('1-no-model-welcome');
    model.enqueue({ kind: 'message', content: 'OK' });
    await clickNotificationButton(page, welcome, 'Set up a model');
    await pick('Task Planner: Set up a model (1/3)', 'A local server');
    await quickInputField(page, 'Task Planner: Set up a model (2/3)');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Ollama' }).first().waitFor();
    await shoot('2-local-servers');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Another address' }).first().click();
    const address = await quickInputField(page, 'Task Planner: Set up a model: address');
    // Typed as people do (issue 28): no http://, no /v1; both are added, the API found at /v1, and said.
    const typed = model.baseURL.replace(/^http:\/\//, '').replace(/\/v1$/, '');
    await address.fill(typed);
    await page.keyboard.press('Enter');
    await quickInputField(page, 'Task Planner: Set up a model (3/3)');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'other-model' }).first().waitFor();
    await shoot('3-server-models');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'fake-local-model' }).first().click();
    const connected = await notification(page, /Connected: fake-local-model at http:\/\/127\.0\.0\.1:\d+ answered/);
    assert.match(await connected.innerText(), new RegExp(`Read "${typed.replace(/\./g, '\\.')}" as http://127\\.0\\.0\\.1:\\d+/v1 \\(added http://, /v1\\)`));
    await shoot('4-connected');
    assert.equal(model.chatRequests.at(-1)?.body?.model, 'fake-local-model');
  });

  it('(2) plans with the model set up, and runs the plan after review and approval', async () => {
    model.reset();
    model.enqueue({ kind: 'message', content: JSON.stringify({ objective: 'A note', steps: [{ id: 'S1', title: 'Write the note', kind: 'tool', dependsOn: [], tool: 'write_file', args: { path: 'note.txt', content: 'from the local model\n' } }] }) });
    await commandInput(page, 'Plan task', 'Task Planner: Plan task');
    await typeIntoQuickInput(page, 'Write a note');
    await page.keyboard.press('Enter');
    const review = planPanelFrame(page).locator('plan-panel-app[data-mode="review"]');
    await review.locator('li.step[data-step-id="S1"]').waitFor({ timeout: 30_000 });
    await shoot('5-review');
    await review.locator('vscode-button[data-action="start"]').click();
    await page.locator('.tab', { hasText: 'S1 Write the note' }).first().waitFor({ timeout: 30_000 });
    await page.locator('.editor-group-container.active .action-label[aria-label^="Approve"]').first().click();
    await planRow(/write_file · completed/).waitFor({ timeout: 30_000 });
    assert.equal(readFileSync(join(folder, 'note.txt'), 'utf8'), 'from the local model\n');
    await shoot('6-completed');
  });

  it('(3) a planning failure offers Retry, which plans the same request again', async () => {
    model.reset();
    model.enqueue({ kind: 'error', status: 404, message: 'model "fake-local-model" is not loaded' });
    model.enqueue({ kind: 'message', content: JSON.stringify({ objective: 'Files', steps: [{ id: 'L1', title: 'List the files', kind: 'tool', dependsOn: [], tool: 'list_files', args: {} }] }) });
    await commandInput(page, 'Plan task', 'Task Planner: Plan task');
    await typeIntoQuickInput(page, 'List the files');
    await page.keyboard.press('Enter');
    const failure = await notification(page, 'planning failed');
    for (const action of ['Retry', 'Set up a model', 'Plan without a model']) await failure.locator('.monaco-button', { hasText: action }).first().waitFor();
    await shoot('7-planning-failed');
    await clickNotificationButton(page, 'planning failed', 'Retry');
    const review = planPanelFrame(page).locator('plan-panel-app[data-mode="review"]');
    await review.locator('li.step[data-step-id="L1"]').waitFor({ timeout: 30_000 });
    assert.equal(model.chatRequests.length, 2);
    await shoot('8-retried');
  });
});
