// Issue 28's Python trial walked again in code-server, no model: a small Python project with a .venv and pytest
// tests. Plan task's example names the project's own test command (pytest, not npm test); a long, realistic request
// heads the review with a short title and the rest under "Full request"; Add step offers the next free id, the tool's
// required arguments as a template, a file's content typed as text, and a Checks field. Walked a third time: "run the
// tests and fix the failure" runs the project's pytest without a model too, the fix step shows pytest's output once, and
// a failed run's summary keeps the output's lines, bounded. Screenshots in test-results/screenshots/python-trial/.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { commandInput, planPanelFrame, quickInputField, screenshotIfFailed, typeIntoQuickInput } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'python-trial');

/** A request as a Python developer writes one: a first line, then what matters, about 3,800 characters. */
const request = [
  'Add a --json output option to the toolz-style CLI in calc.py and cover it with pytest tests',
  '',
  ...Array.from({ length: 24 }, (_, index) =>
    `- Case ${index + 1}: when the user passes --json, print the result of add(a, b) as a JSON object with the keys "a", "b" and "sum"; keep the plain output unchanged otherwise, and test both in test_calc.py.`,
  ),
].join('\n');

describe('The Python trial, walked again (browser workbench, no model, issue 28)', function () {
  this.timeout(300_000);
  let workbench: DemoWorkbench | undefined;
  let page: Page;

  before(async function () {
    workbench = await openDemoWorkbench({
      name: 'python-trial',
      screenshots,
      files: {
        // The demo's package.json has a test script: a Python project has none.
        'package.json': {},
        'pyproject.toml': '[project]\nname = "calc"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["."]\n',
        'calc.py': 'def add(a, b):\n    return a + b\n',
        'test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
        'test_discount.py': 'def test_discount():\n    assert round(10 * 0.9 * 0.9, 2) == 9.0\n',
      },
    });
    page = workbench.page;
    execFileSync('python3', ['-m', 'venv', '--system-site-packages', '--without-pip', join(workbench.folder, '.venv')]);
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots);
  });

  after(async () => {
    await workbench?.close();
  });

  it("Plan task's example names pytest; a long request heads the review with a short title, the rest under Full request", async () => {
    const field = await commandInput(page, 'Plan task', 'Task Planner: Plan task');
    await page.waitForFunction(() => /pytest/.test(document.querySelector<HTMLInputElement>('.quick-input-widget input')?.placeholder ?? ''), undefined, { timeout: 15_000 });
    const placeholder = (await field.getAttribute('placeholder')) ?? '';
    assert.match(placeholder, /run `pytest`/);
    assert.doesNotMatch(placeholder, /npm/);
    await page.screenshot({ path: join(screenshots, '1-plan-task-example.png') });
    assert.ok(request.length > 3_500, `${request.length} characters`);
    await field.fill(request);
    await page.keyboard.press('Enter');
    const review = planPanelFrame(page).locator('plan-panel-app[data-mode="review"]');
    await review.locator('li.step').first().waitFor({ timeout: 60_000 });
    const heading = (await review.locator('h1.objective').innerText()).trim();
    assert.ok(heading.length <= 120, `a heading of ${heading.length} characters`);
    assert.ok(heading.startsWith('Add a --json output option'), heading);
    const full = review.locator('details.full-request');
    // The heuristic planner keeps the first 240 characters of a request as the plan's objective; the heading shows
    // its first line, at most 120 characters, and the rest waits under Full request.
    const count = /Full request \(([\d,]+) characters\)/.exec(await full.locator('summary').innerText())?.[1] ?? '0';
    assert.ok(Number(count.replace(',', '')) > heading.length, `Full request holds ${count} characters beside a heading of ${heading.length}`);
    assert.equal(await full.getAttribute('open'), null, 'the full request starts closed');
    await page.screenshot({ path: join(screenshots, '2-review-long-request.png') });
  });

  it('Add step: the next free id, the tool\'s arguments to fill in, content typed as text, and checks', async () => {
    const review = planPanelFrame(page).locator('plan-panel-app[data-mode="review"]');
    const ids = await review.locator('li.step').evaluateAll((items) => items.map((item) => item.getAttribute('data-step-id') ?? ''));
    await review.locator('vscode-button[data-action="add"]').click();
    const form = review.locator('step-edit-form').first();
    const id = form.locator('vscode-textfield[name="id"] input');
    await id.waitFor({ timeout: 15_000 });
    const offered = await id.inputValue();
    assert.ok(offered !== '' && !ids.includes(offered), `offered "${offered}" beside ${ids.join(', ')}`);
    const tool = await form.locator('vscode-single-select[name="tool"]').evaluate((select) => (select as HTMLElement & { value: string }).value);
    const args = form.locator('vscode-textarea[name="args"] textarea');
    const template = await args.inputValue();
    if (tool === 'read_file') assert.equal(template, 'path: ""');
    assert.notEqual(template, '{}', `no template for ${tool}`);
    await form.locator('vscode-textfield[name="title"] input').fill('Note the plan');
    await page.screenshot({ path: join(screenshots, '3-add-step-template.png') });
    // A file's content typed as text, over several lines, quotes and all: no JSON escapes.
    await form.evaluate((element) => {
      const select = element.shadowRoot?.querySelector('vscode-single-select[name="tool"]') as (HTMLElement & { value: string }) | null;
      if (!select) throw new Error('no tool select');
      select.value = 'write_file';
      select.dispatchEvent(new Event('change'));
    });
    await args.fill('path: NOTES.md\ncontent: |\n  # Plan notes\n  Run "pytest" after each change.\n');
    await form.locator('vscode-textarea[name="checks"] textarea').fill('- kind: file_contains\n  path: NOTES.md\n  text: pytest');
    await page.screenshot({ path: join(screenshots, '4-add-step-filled.png') });
    await form.locator('vscode-button[data-action="save"]').click();
    const added = review.locator(`li.step[data-step-id="${offered}"]`);
    await added.waitFor({ timeout: 15_000 });
    const card = (await added.innerText()).replace(/\s+/g, ' ');
    const content = await added.locator('dd[data-argument="content"] pre.argument-block').innerText();
    assert.match(content, /^# Plan notes\nRun "pytest" after each change\.\n?$/, `content shown: ${JSON.stringify(content)}; card: ${card}`);
    assert.match(card, /NOTES\.md contains "pytest"/);
    await page.screenshot({ path: join(screenshots, '5-step-added.png') });
  });

  /** Plans `request` with Plan task and gives the panel's review (no model: the heuristic planner). */
  const planRequest = async (request: string) => {
    const field = await commandInput(page, 'Plan task', 'Task Planner: Plan task');
    await field.fill(request);
    await page.keyboard.press('Enter');
    return planPanelFrame(page).locator('plan-panel-app[data-mode="review"]');
  };

  it('"Run the tests and fix the failure" without a model runs pytest, and the fix step shows its output once', async () => {
    const review = await planRequest('Run the tests and fix the failure');
    const tests = review.locator('li.step').first();
    await tests.locator('dd[data-argument="argv"]').waitFor({ timeout: 60_000 });
    assert.match((await tests.innerText()).replace(/\s+/g, ' '), /run_command .*\["pytest"\]/);
    await page.screenshot({ path: join(screenshots, '6-run-tests-and-fix.png') });
    await review.locator('vscode-button[data-action="start"]').click();
    // The tests' command is the fix step's check: allowed for the run at Start, it is not asked again.
    await page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Allow$/ }).click({ timeout: 30_000 });
    const fix = planPanelFrame(page).locator('li.manual-step');
    await fix.waitFor({ timeout: 60_000 });
    const asked = await fix.locator('.instructions').innerText();
    assert.equal(asked.match(/test session starts/g)?.length, 1, asked);
    assert.doesNotMatch(asked, /Results of the steps before it/);
    await page.screenshot({ path: join(screenshots, '7-fix-step.png') });
    await fix.locator('vscode-button[data-action="manual-failed"]').click();
    await quickInputField(page, 'Task Planner');
    await typeIntoQuickInput(page, 'Not now');
    await page.keyboard.press('Enter');
    await planPanelFrame(page).locator('.summary').waitFor({ timeout: 30_000 });
  });

  it("a failed command's run summary keeps the output's lines, bounded", async () => {
    const review = await planRequest('Run `pytest -q`');
    await review.locator('li.step dd[data-argument="argv"]').first().waitFor({ timeout: 60_000 });
    await review.locator('vscode-button[data-action="start"]').click();
    await page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Run$/ }).click({ timeout: 30_000 });
    const reason = planPanelFrame(page).locator('.summary p.error');
    await reason.waitFor({ timeout: 60_000 });
    // The reason names the step that stopped the run; its output is said once, under Failures.
    assert.equal(await reason.innerText(), 'Critical step S001 failed.');
    const failure = planPanelFrame(page).locator('.summary .failures .error').first();
    const text = await failure.innerText();
    assert.ok(text.split('\n').length > 3, `the output's lines kept: ${JSON.stringify(text)}`);
    assert.match(text, /^Command pytest -q exited with code 1/);
    assert.ok(text.length <= 600, `a failure of ${text.length} characters`);
    assert.equal(await failure.evaluate((element) => getComputedStyle(element).whiteSpace), 'pre-wrap');
    await page.screenshot({ path: join(screenshots, '8-failed-summary.png') });
  });
});
