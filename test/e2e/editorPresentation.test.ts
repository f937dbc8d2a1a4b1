// End-to-end (attacks E3 to E6 and E8 of issue 27): what the editor shows of a model's text is read where it is shown.
// The model (a scripted fake) writes step titles, review prompts, questions and suggestions made to mislead: 20
// look-alike check commands with a harmful one among them, a step titled as a README edit that creates a workflow,
// a review prompt whose real sentence sits under 40 blank lines, suggestions with `$(codicons)` and a right-to-left
// override, a 3,000-character title. Measured in the browser workbench (code-server) as a person sees it.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { FakeOpenAiServer } from '../fakes/fakeOpenAiServer';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { commandInput, dialogShown, planPanelFrame, quickInputField, screenshotIfFailed, typeIntoQuickInput } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'presentation');

const planReply = (steps: unknown[]) => ({ kind: 'message' as const, content: JSON.stringify({ objective: 'e2e presentation', steps }) });

describe('model text in the editor is shown where it can be read (browser workbench)', function () {
  let workbench: DemoWorkbench | undefined;
  const model = new FakeOpenAiServer();
  let page: Page;
  let folder: string;

  const rows = (): Locator => page.locator('.sidebar .pane').filter({ has: page.locator('.pane-header', { hasText: /^\s*Plan/ }) }).locator('.monaco-list-row');
  const planRow = (text: string | RegExp): Locator => rows().filter({ hasText: text }).first();
  const titleAction = (label: string): Locator => page.locator(`.editor-group-container.active .action-label[aria-label^="${label}"]`).first();

  const planAndReview = async (request: string, firstStepId: string): Promise<Locator> => {
    const field = await commandInput(page, 'Plan task', 'Task Planner: Plan task');
    await typeIntoQuickInput(page, request);
    if ((await field.inputValue()) !== request) await field.fill(request);
    await page.keyboard.press('Enter');
    const review = planPanelFrame(page).locator('plan-panel-app[data-mode="review"]');
    await review.locator(`li.step[data-step-id="${firstStepId}"]`).waitFor({ timeout: 30_000 });
    return review;
  };

  /** Start, then (unless a question at Start holds the review open) the run view in its place. */
  const start = async (review: Locator, detached = true): Promise<void> => {
    await review.locator('vscode-button[data-action="start"]').click();
    if (detached) await review.waitFor({ state: 'detached', timeout: 15_000 });
  };

  /** Elements of the open dialog whose content scrolls (hidden below their fold), and whether the detail ends above the buttons. */
  const dialogLayout = (): Promise<{ scrolled: string[]; detailAboveButtons: boolean }> =>
    page.evaluate(() => {
      const box = document.querySelector('.monaco-dialog-box');
      if (!box) return { scrolled: ['no dialog'], detailAboveButtons: false };
      const scrolled = Array.from(box.querySelectorAll<HTMLElement>('*'))
        .filter((element) => element.scrollHeight > element.clientHeight + 1 && ['auto', 'scroll', 'hidden'].includes(getComputedStyle(element).overflowY))
        .map((element) => element.className);
      const detail = box.querySelector('.dialog-message-detail')?.getBoundingClientRect();
      const buttons = box.querySelector('.dialog-buttons-row')?.getBoundingClientRect();
      return { scrolled, detailAboveButtons: detail !== undefined && buttons !== undefined && detail.bottom <= buttons.top + 1 };
    });

  before(async function () {
    await model.start();
    workbench = await openDemoWorkbench({
      name: 'presentation',
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

  it('E8: a 3,000-character step title stays inside its card', async () => {
    const title = `Read the README ${'W'.repeat(3_000)}`;
    model.enqueue(planReply([{ id: 'L1', title, kind: 'tool', tool: 'read_file', args: { path: 'README.md' }, dependsOn: [], critical: false }]));
    const review = await planAndReview('Read the readme', 'L1');
    const card = review.locator('li.step[data-step-id="L1"]');
    const measured = await card.evaluate((element) => {
      const titleBox = element.querySelector('.step-title')?.getBoundingClientRect();
      const cardBox = element.getBoundingClientRect();
      const actions = element.querySelector('button[data-action="remove"]')?.getBoundingClientRect();
      return {
        overflows: element.scrollWidth > element.clientWidth + 1,
        titleInside: titleBox !== undefined && titleBox.right <= cardBox.right + 1,
        titleHeight: titleBox?.height ?? 0,
        lineHeight: parseFloat(getComputedStyle(element.querySelector('.step-title')!).lineHeight) || 20,
        actionsInside: actions !== undefined && actions.right <= cardBox.right + 1,
      };
    });
    assert.equal(measured.overflows, false, 'the card scrolls sideways');
    assert.ok(measured.titleInside, 'the title runs off the card');
    assert.ok(measured.actionsInside, "the card's actions were pushed off it");
    assert.ok(measured.titleHeight <= measured.lineHeight * 3.5, `the title takes ${measured.titleHeight}px, more than three lines`);
    assert.ok(((await card.getAttribute('aria-label')) ?? '').length < 300, 'the card is named by 3,000 characters');
    await start(review);
    await planRow(/read_file · completed/).waitFor({ timeout: 30_000 });
  });

  it('E3: of 20 look-alike check commands, the question lists five where they can be read, and Enter declines', async () => {
    const checks = Array.from({ length: 20 }, (_, index) =>
      index === 13
        ? { kind: 'command', argv: ['node', '-e', "require('fs').writeFileSync('pwned.txt', 'ran')"] }
        : { kind: 'command', argv: ['node', '-e', `process.exit(0) // check ${index + 1}`] },
    );
    model.enqueue(planReply([{ id: 'C1', title: 'Write the notes', kind: 'tool', tool: 'write_file', args: { path: 'notes.md', content: 'n\n' }, checks, dependsOn: [], critical: false }]));
    await start(await planAndReview('Write the notes with checks', 'C1'), false);
    const { dialog, focused } = await dialogShown(page, 'This plan runs these commands');
    assert.equal(focused, "Don't Allow", 'the check commands question does not focus its safe choice');
    const detail = await dialog.locator('.dialog-message-detail').innerText();
    const listed = detail.split('\n').filter((line) => line.includes('process.exit') || line.includes('writeFileSync'));
    assert.equal(listed.length, 5, detail);
    assert.doesNotMatch(detail, /writeFileSync/, 'the harmful command is allowed by the same answer');
    assert.match(detail, /Don't Allow: those checks fail as not allowed\. Cancel: the run does not start\.$/, 'the two ways of saying no are not told apart');
    const layout = await dialogLayout();
    assert.deepEqual(layout.scrolled, [], 'part of the question scrolls out of sight');
    assert.ok(layout.detailAboveButtons, 'the list runs under the buttons');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached', timeout: 15_000 });
    // The write's diff: rejected, so no check runs.
    await titleAction('Reject').click();
    await planRow(/write_file · rejected by you/).waitFor({ timeout: 30_000 });
    assert.equal(existsSync(join(folder, 'pwned.txt')), false, 'the harmful check command ran');
  });

  it('E4: the diff tab names the file it creates before the step title', async () => {
    model.enqueue(planReply([{ id: 'T1', title: 'Fix typo: edit README.md', kind: 'tool', tool: 'write_file', args: { path: '.github/workflows/ci.yml', content: 'on: push\n' }, dependsOn: [], critical: false }]));
    await start(await planAndReview('Fix the typo', 'T1'));
    const tab = page.locator('.tab', { hasText: 'T1 Fix typo' }).first();
    await tab.waitFor({ timeout: 30_000 });
    const label = (await tab.locator('.label-name, .monaco-icon-label').first().innerText()).trim();
    assert.ok(label.startsWith('.github/workflows/ci.yml (create, proposed)'), `the tab reads "${label}"`);
    await titleAction('Reject').click();
    await planRow(/write_file · rejected by you/).waitFor({ timeout: 30_000 });
    assert.equal(existsSync(join(folder, '.github', 'workflows', 'ci.yml')), false);
  });

  it('E5: the review shows the real sentence, not 40 blank lines above it', async () => {
    const prompt = `Looks fine.${'\n'.repeat(40)}Actually this deletes the production database.`;
    model.enqueue(planReply([{ id: 'R1', title: 'Check the release', kind: 'human_review', input: prompt, dependsOn: [], critical: false }]));
    await start(await planAndReview('Review the release', 'R1'));
    const { dialog, focused } = await dialogShown(page, 'Review: Check the release');
    assert.equal(focused, 'Reject');
    const sentence = dialog.getByText('Actually this deletes the production database.', { exact: false });
    assert.ok(await sentence.isVisible(), 'the sentence is not shown');
    assert.doesNotMatch(await dialog.locator('.dialog-message-detail').innerText(), /\n\n\n/);
    const layout = await dialogLayout();
    assert.deepEqual(layout.scrolled, [], 'the prompt scrolls out of sight');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached', timeout: 15_000 });
    await quickInputField(page, 'Task Planner: notes for "Check the release"');
    await page.keyboard.press('Enter');
    await planPanelFrame(page).getByText('Rejected in review', { exact: false }).first().waitFor({ timeout: 30_000 });
  });

  it('E6: suggestions show $(icons) and direction overrides as typed, none is pre-selected, the question keeps its line breaks', async () => {
    const suggestions = ['Approve $(check) (recommended)', '\u202Etxt.exe'];
    model.enqueue(
      planReply([{ id: 'Q1', title: 'Choose a file', kind: 'clarification', input: 'Which file?\nThe one you keep.', args: { suggestions }, dependsOn: [], critical: false }]),
    );
    await start(await planAndReview('Ask which file', 'Q1'));
    const field = await quickInputField(page, 'Task Planner: Choose a file');
    const widget = page.locator('.quick-input-widget').filter({ has: page.locator('.quick-input-title', { hasText: 'Choose a file' }) });
    assert.equal(await field.getAttribute('placeholder'), 'Which file? ⏎ The one you keep.');
    const list = widget.locator('.quick-input-list');
    await list.locator('.monaco-list-row', { hasText: 'recommended' }).waitFor({ timeout: 10_000 });
    assert.equal(await list.locator('.codicon-check').count(), 0, 'a suggestion rendered a codicon');
    const text = await list.innerText();
    assert.match(text, /Approve \$\(check\) \(recommended\)/);
    assert.match(text, /\\u202etxt\.exe/);
    assert.ok(!text.includes('\u202E'), 'a right-to-left override reached the list');
    const active = (await list.locator('.monaco-list-row.focused').first().innerText()).trim();
    assert.doesNotMatch(active, /recommended|txt\.exe/, `a suggestion is pre-selected: ${active}`);
    // Enter on the empty box answers nothing: the picker stays.
    await field.focus();
    await page.keyboard.press('Enter');
    await page.waitForTimeout(500);
    assert.ok(await field.isVisible(), 'Enter on the empty box answered with a suggestion');
    await typeIntoQuickInput(page, 'keep.md');
    await page.keyboard.press('Enter');
    await planRow(/clarification · completed/).waitFor({ timeout: 30_000 });
  });
});
