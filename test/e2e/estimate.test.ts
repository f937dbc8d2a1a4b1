// End-to-end: the review panel shows the run's estimate before Start (issue 30), with the
// roles' models from the settings; Start with "Stop the run at $X" runs each request on its
// role's model. The model is the fake OpenAI-compatible server, started here.
import * as assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { FakeOpenAiServer } from '../fakes/fakeOpenAiServer';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { commandInput, planPanelFrame, screenshotIfFailed, typeIntoQuickInput } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'estimate');

describe('Task Planner shows the run\'s estimate before Start (browser workbench)', function () {
  let workbench: DemoWorkbench | undefined;
  const model = new FakeOpenAiServer();
  let page: Page;

  before(async function () {
    await model.start();
    workbench = await openDemoWorkbench({
      name: 'estimate',
      screenshots,
      files: {
        '.vscode/settings.json': {
          'taskPlanner.llm.provider': 'openai',
          'taskPlanner.llm.baseUrl': model.baseURL,
          'taskPlanner.llm.model': 'gpt-4o-mini',
          'taskPlanner.llm.models.planner': 'gpt-4.1',
          'taskPlanner.llm.models.agent': 'gpt-4.1-nano',
        },
      },
    });
    ({ page } = workbench);
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots);
  });

  after(async () => {
    await workbench?.close();
    await model.close();
  });

  it('the review shows requests, tokens, cost and time before Start, and Start runs each role on its model', async () => {
    const plan = { objective: 'Summarise', steps: [{ id: 'S1', title: 'Summarise the readme', kind: 'agent', agent: 'direct', dependsOn: [], input: 'Summarise the readme.' }] };
    model.enqueue({ kind: 'message', content: JSON.stringify(plan) }, { kind: 'message', content: 'A demo project.' });
    await commandInput(page, 'Plan task', 'Task Planner: Plan task');
    await typeIntoQuickInput(page, 'Summarise the readme');
    await page.keyboard.press('Enter');
    const review = planPanelFrame(page).locator('plan-panel-app[data-mode="review"]');
    const estimate = review.locator('section.estimate');
    await estimate.waitFor({ timeout: 30_000 });
    const text = await estimate.innerText();
    assert.match(text, /1–2 model requests, [\d.k]+–[\d.k]+ tokens \(typically [\d.k]+\), \$[\d.]+(–\$[\d.]+)?, \d+ s–\d+ (s|min)/);
    assert.match(text, /agent steps \(1\)/);
    const stop = review.locator('vscode-checkbox[data-action="stop-at-estimate"]');
    assert.match((await stop.getAttribute('label')) ?? '', /^Stop the run at \$\d+\.\d\d$/);
    await stop.click();
    await estimate.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(screenshots, 'review-estimate.png') });
    await review.locator('vscode-button[data-action="start"]').click();
    await review.waitFor({ state: 'detached', timeout: 15_000 });
    const deadline = Date.now() + 30_000;
    while (model.chatRequests.length < 2 && Date.now() < deadline) await page.waitForTimeout(200);
    assert.deepEqual(model.chatRequests.map((request) => request.body?.model), ['gpt-4.1', 'gpt-4.1-nano']);
  });
});
