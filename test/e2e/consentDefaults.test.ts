// End-to-end (attack E2 of issue 27): a consent dialog defaults to the safe choice. The workbench's dialog focuses its
// first button and makes it the primary one, so a stray Enter (the command question opens by itself, over a diff being
// read) answers with whatever comes first: here it must reject, never run. Measured in the browser workbench
// (code-server) by the element that has the keyboard focus when the dialog opens, then by pressing Enter.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { FakeOpenAiServer } from '../fakes/fakeOpenAiServer';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { commandInput, dialogShown, planPanelFrame, quickInputField, screenshotIfFailed, typeIntoQuickInput } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'consent');

const planReply = (steps: unknown[]) => ({ kind: 'message' as const, content: JSON.stringify({ objective: 'e2e consent defaults', steps }) });

describe('consent dialogs default to the safe choice (browser workbench)', function () {
  let workbench: DemoWorkbench | undefined;
  const model = new FakeOpenAiServer();
  let page: Page;
  let folder: string;

  const rows = (): Locator => page.locator('.sidebar .pane').filter({ has: page.locator('.pane-header', { hasText: /^\s*Plan/ }) }).locator('.monaco-list-row');
  const planRow = (text: string | RegExp): Locator => rows().filter({ hasText: text }).first();

  const planAndStart = async (request: string, firstStepId: string): Promise<void> => {
    const field = await commandInput(page, 'Plan task', 'Task Planner: Plan task');
    await typeIntoQuickInput(page, request);
    if ((await field.inputValue()) !== request) await field.fill(request);
    await page.keyboard.press('Enter');
    const review = planPanelFrame(page).locator('plan-panel-app[data-mode="review"]');
    await review.locator(`li.step[data-step-id="${firstStepId}"]`).waitFor({ timeout: 30_000 });
    await review.locator('vscode-button[data-action="start"]').click();
    await review.waitFor({ state: 'detached', timeout: 15_000 });
  };

  before(async function () {
    await model.start();
    workbench = await openDemoWorkbench({
      name: 'consent',
      screenshots,
      files: { '.vscode/settings.json': { 'taskPlanner.llm.provider': 'openai', 'taskPlanner.llm.baseUrl': model.baseURL } },
    });
    ({ page, folder } = workbench);
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots);
  });

  after(async () => {
    await workbench?.close();
    await model.close();
  });

  it('the command question focuses Reject: a stray Enter rejects, and the command does not run', async () => {
    const touch = { argv: ['node', '-e', "require('fs').writeFileSync('touched.txt', 'ran')"] };
    model.enqueue(planReply([{ id: 'C1', title: 'Touch a file', kind: 'tool', tool: 'run_command', args: touch, dependsOn: [], critical: false }]));
    await planAndStart('Touch a file', 'C1');
    const { dialog, focused } = await dialogShown(page, 'wants to run a command');
    assert.equal(focused, 'Reject', 'the command question does not focus its safe choice');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached', timeout: 15_000 });
    await planRow(/run_command · rejected by you/).waitFor({ timeout: 30_000 });
    assert.equal(existsSync(join(folder, 'touched.txt')), false, 'a stray Enter ran the command');
  });

  it('the review question focuses Reject: a stray Enter does not approve', async () => {
    model.enqueue(planReply([{ id: 'R1', title: 'Check the release', kind: 'human_review', input: 'Ship it?', dependsOn: [], critical: false }]));
    await planAndStart('Review the release', 'R1');
    const { dialog, focused } = await dialogShown(page, 'Review: Check the release');
    assert.equal(focused, 'Reject', 'the review question does not focus its safe choice');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached', timeout: 15_000 });
    // The notes box that follows (empty: no notes), and the review ends rejected.
    await quickInputField(page, 'Task Planner: notes for "Check the release"');
    await page.keyboard.press('Enter');
    await planPanelFrame(page).getByText('Rejected in review', { exact: false }).first().waitFor({ timeout: 30_000 });
  });
});
