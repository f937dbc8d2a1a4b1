// End-to-end: @planner in the browser workbench's Chat view. The scripted chat model of test/fixtures/fakeChatModel
// is linked beside Task Planner and reads its replies from the file named by TASK_PLANNER_FAKE_CHAT_SCRIPT in
// code-server's environment, so the Chat view has a model (without one it refuses every request with "Language model
// unavailable", before any participant is asked). Screenshots go to test-results/screenshots/chat/.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { planPanelFrame, runCommand, screenshotIfFailed } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'chat');

const plan = {
  objective: 'Read and list',
  steps: [
    { id: 'R1', title: 'Read the README', kind: 'tool', tool: 'read_file', args: { path: 'README.md' }, dependsOn: [] },
    { id: 'L1', title: 'List the sources', kind: 'tool', tool: 'list_files', args: { glob: 'src/**' }, dependsOn: ['R1'] },
  ],
};

describe('@planner in the browser workbench\'s Chat view (scripted chat model)', function () {
  let workbench: DemoWorkbench | undefined;
  let page: Page;
  let scriptDir: string;
  const chat = (): Locator => page.locator('.part.auxiliarybar, .part.sidebar, .part.panel').filter({ has: page.locator('.interactive-session') }).first();

  before(async function () {
    scriptDir = mkdtempSync(join(tmpdir(), 'task-planner-chat-script-'));
    const text = JSON.stringify(plan);
    const script = join(scriptDir, 'replies.json');
    // The planning reply in two parts: the steps reach the chat while it is being written.
    writeFileSync(script, JSON.stringify([{ text: [text.slice(0, 120), text.slice(120)] }]));
    workbench = await openDemoWorkbench({
      name: 'chat',
      screenshots,
      extensions: [join(root, 'test', 'fixtures', 'fakeChatModel')],
      server: { env: { TASK_PLANNER_FAKE_CHAT_SCRIPT: script } },
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
    rmSync(scriptDir, { recursive: true, force: true });
  });

  it('"@planner /plan …" streams the plan into the chat with Review in panel and Start', async () => {
    await runCommand(page, 'Chat: Open Chat');
    await chat().getByText('Fake planner', { exact: true }).first().waitFor({ timeout: 60_000 });
    const input = chat().locator('.interactive-input-part .monaco-editor textarea').first();
    await input.click({ force: true });
    await page.keyboard.type('@planner /plan Read README.md, then list the files', { delay: 10 });
    await page.keyboard.press('Enter');
    const review = chat().getByRole('button', { name: 'Review in panel' }).last();
    await review.waitFor({ timeout: 60_000 });
    const response = chat().locator('.interactive-response').last();
    const text = await response.innerText();
    assert.match(text, /Read the README \(R1\) — read_file/);
    assert.match(text, /List the sources \(L1\) — list_files/);
    assert.match(text, /\(2 steps\)/);
    await chat().getByRole('button', { name: 'Start' }).last().waitFor();
    await page.screenshot({ path: join(screenshots, 'chat-plan.png') });
  });

  it('Review in panel opens the plan panel with the plan', async () => {
    await chat().getByRole('button', { name: 'Review in panel' }).last().click();
    await planPanelFrame(page).getByText('Read the README').first().waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(screenshots, 'chat-review.png') });
  });

  it('Start asks "@planner /run": the run reports in the chat and ends with the summary', async () => {
    await chat().getByRole('button', { name: 'Start' }).last().click();
    const response = chat().locator('.interactive-response').last();
    await response.getByText(/completed in .*2 of 2 steps completed/).first().waitFor({ timeout: 60_000 });
    // The button sent "@planner /run" as a request of its own (the chat's sticky header repeats the first request, so look for it).
    await chat().locator('.interactive-request', { hasText: /@planner\s*\/run/ }).first().waitFor({ timeout: 5_000 });
    // The chat shows a reply a few words at a time, so the summary's step lines may still be coming after its headline (a
    // clean-clone run read the response between the two).
    const listed = /List the sources — files: \["src\/cli\.js","src\/notes\.js"\], total: 2/;
    await response.getByText(listed).first().waitFor({ timeout: 15_000 }).catch(() => undefined);
    assert.match(await response.innerText(), listed);
    await page.screenshot({ path: join(screenshots, 'chat-run.png') });
  });
});
