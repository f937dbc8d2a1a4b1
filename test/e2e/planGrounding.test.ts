// End-to-end: with a model, Plan task reads the workspace before it plans (the progress notification names what it
// reads), asks a question in a QuickPick before the plan, and the review shows what the plan is based on.
// The model is the fake OpenAI-compatible server, started here; the extension host reaches it on 127.0.0.1.
import * as assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { FakeOpenAiServer } from '../fakes/fakeOpenAiServer';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { commandInput, planPanelFrame, quickInputField, screenshotIfFailed, typeIntoQuickInput } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'grounding');

describe('Plans grounded in the code: investigation and questions before the plan (browser workbench)', function () {
  let workbench: DemoWorkbench | undefined;
  const model = new FakeOpenAiServer();
  let page: Page;

  before(async function () {
    await model.start();
    workbench = await openDemoWorkbench({
      name: 'grounding',
      screenshots,
      files: { '.vscode/settings.json': { 'taskPlanner.llm.provider': 'openai', 'taskPlanner.llm.baseUrl': model.baseURL } },
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

  it('reads with read-only tools, asks before the plan, and the review lists what the plan is based on, each file a link', async () => {
    model.enqueue(
      { kind: 'message', toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }, { name: 'search_text', arguments: { query: 'license' } }] },
      { kind: 'message', toolCalls: [{ name: 'ask_user', arguments: { question: 'Which license should the project use?', suggestions: ['MIT', 'Apache-2.0'] } }] },
      {
        kind: 'message',
        content: JSON.stringify({
          objective: 'e2e',
          steps: [{ id: 'L1', title: 'Add the license file', kind: 'agent', input: 'Add LICENSE (Apache-2.0)', dependsOn: [], basedOn: ['README.md'] }],
        }),
      },
    );
    await commandInput(page, 'Plan task', 'Task Planner: Plan task');
    await typeIntoQuickInput(page, 'Add a license');
    await page.keyboard.press('Enter');
    const question = await quickInputField(page, 'Task Planner asks before planning');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Apache-2.0' }).first().waitFor();
    await page.screenshot({ path: join(screenshots, 'question-before-plan.png') });
    await question.focus();
    await typeIntoQuickInput(page, 'Apache-2.0');
    await page.keyboard.press('Enter');

    const review = planPanelFrame(page).locator('plan-panel-app[data-mode="review"]');
    await review.locator('li.step[data-step-id="L1"]').waitFor({ timeout: 30_000 });
    const basis = review.locator('section.plan-basis');
    assert.equal((await basis.locator('.basis-summary').textContent())?.trim(), 'Read 1 file, 1 search');
    assert.match((await basis.locator('.basis-answers').textContent()) ?? '', /Which license should the project use\?\s*Apache-2\.0/);
    await page.screenshot({ path: join(screenshots, 'review-based-on.png') });

    const offered = (model.chatRequests[0]?.body?.tools ?? []).map((tool) => tool.function.name);
    for (const forbidden of ['write_file', 'edit_file', 'delete_file', 'run_command', 'fetch_url']) assert.ok(!offered.includes(forbidden), `${forbidden} was offered`);
    assert.ok(offered.includes('read_file') && offered.includes('ask_user'), offered.join(', '));
    assert.match(JSON.stringify(model.chatRequests[2]?.body?.messages), /Apache-2\.0/, 'the answer reached the model before the plan');

    await basis.locator('button', { hasText: 'README.md' }).click();
    await page.locator('.tab', { hasText: 'README.md' }).first().waitFor({ timeout: 15_000 });
  });
});
