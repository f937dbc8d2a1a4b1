// End-to-end accessibility: axe-core inside the plan panel's webview (review with the edit form open, a run waiting
// for an approval, the finished run) and over the Task Planner views, in light, dark and high-contrast themes; the step
// form driven by the keyboard alone; the review walked with Tab and where focus lands after Save, Remove, Move down and
// Start; Approve by its keybinding in the diff editor. One code-server for all of it.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { critiquePlan } from '../../src/core/plan/critiquePlan';
import { buildPanelViewModel } from '../../src/core/view/buildPanelViewModel';
import { makePlan, makeStep } from '../support/randomPlans';
import { describeFindings, runAxe, type AxeFinding } from './axe';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { showPanelSnapshot } from './panelSnapshot';
import { planPanelFrame, quickOpen, runCommand, screenshotIfFailed } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'a11y');

const editPlan = {
  id: 'edit',
  objective: 'Tidy the notes app',
  steps: [
    { id: 'read', title: 'Read the README', tool: 'read_file', args: { path: 'README.md' }, dependsOn: [] },
    { id: 'think', title: 'Summarise the notes module', kind: 'agent', input: 'Summarise src/notes.js', dependsOn: [] },
    { id: 'list', title: 'List the sources', tool: 'list_files', args: { glob: 'src/**' }, dependsOn: [] },
    { id: 'extra', title: 'Read the changelog', tool: 'read_file', args: { path: 'CHANGELOG.md' }, dependsOn: [] },
  ],
};
const approvePlan = {
  id: 'approve',
  objective: 'Write the accessibility notes',
  steps: [
    { id: 'R1', title: 'Read the README', tool: 'read_file', args: { path: 'README.md' }, dependsOn: [] },
    { id: 'W1', title: 'Write the notes', tool: 'write_file', args: { path: 'a11y-notes.md', content: 'Keyboard first.\n' }, dependsOn: ['R1'] },
  ],
};

const themes = [
  { name: 'light', setting: 'Default Light Modern', workbenchClass: 'vs' },
  { name: 'dark', setting: 'Default Dark Modern', workbenchClass: 'vs-dark' },
  { name: 'high-contrast', setting: 'Default High Contrast', workbenchClass: 'hc-black' },
] as const;

/**
 * Describes the element that has keyboard focus in the webview (through shadow roots): `edit:think`, `card:list`,
 * `field:kind`, `h1:plan-run`. Evaluated in the page as source text (no helpers declared inside: the test
 * transpiler would wrap them in a function the page does not have).
 */
const describeFocus = `(() => {
  let element = document.activeElement;
  while (element && element.shadowRoot && element.shadowRoot.activeElement) element = element.shadowRoot.activeElement;
  const ancestors = [];
  for (let node = element; node; node = node.parentElement || node.getRootNode().host || null) ancestors.push(node);
  const card = ancestors.find((node) => node.matches('li.step'));
  const stepId = card ? card.getAttribute('data-step-id') : '';
  for (const node of ancestors) {
    if (node.hasAttribute('data-action')) return node.getAttribute('data-action') + ':' + stepId;
    if (node.hasAttribute('name')) return 'field:' + node.getAttribute('name');
    if (node.matches('li.step')) return 'card:' + stepId;
    if (node.matches('h1, h2')) return node.localName + ':' + (ancestors.find((host) => host.localName.startsWith('plan-')) || { localName: '' }).localName;
    if (node.matches('.notice')) return 'notice';
  }
  return element ? element.localName : 'none';
})()`;

describe('Task Planner accessibility (browser workbench, axe-core)', function () {
  let workbench: DemoWorkbench | undefined;
  let page: Page;
  let folder: string;
  const blocking: string[] = [];
  const others = new Map<string, number>();

  const panel = () => planPanelFrame(page);
  const panelFrame = async (): Promise<Frame> => {
    const handle = await panel().locator('plan-panel-app').elementHandle({ timeout: 30_000 });
    const frame = await handle?.ownerFrame();
    assert.ok(frame, 'the plan panel frame is not there');
    return frame;
  };
  const focused = async (): Promise<string> => String(await (await panelFrame()).evaluate(describeFocus));
  const waitForFocus = async (expected: string): Promise<void> => {
    const deadline = Date.now() + 10_000;
    let now = await focused();
    while (now !== expected && Date.now() < deadline) {
      await page.waitForTimeout(100);
      now = await focused();
    }
    assert.equal(now, expected, 'focus is not where it belongs');
  };
  const shoot = async (name: string): Promise<void> => {
    await page.screenshot({ path: join(screenshots, `${name}.png`) });
  };
  /** Records one axe scan: serious and critical findings fail the suite at the end of the test, the rest are counted. */
  const scan = async (where: string, target: Frame | Page, include?: string): Promise<AxeFinding[]> => {
    const report = await runAxe(target, include);
    if (report.blocking.length > 0) blocking.push(`${where}:\n      ${describeFindings(report.blocking)}`);
    for (const finding of report.other) {
      others.set(`${finding.id} (${finding.impact})`, (others.get(`${finding.id} (${finding.impact})`) ?? 0) + finding.targets.length);
    }
    console.log(`    axe ${where}: ${report.blocking.length} serious or critical, ${report.other.length} other`);
    return report.blocking;
  };
  const setTheme = async (theme: (typeof themes)[number]): Promise<void> => {
    writeFileSync(join(folder, '.vscode', 'settings.json'), JSON.stringify({ 'workbench.colorTheme': theme.setting }));
    await page.locator(`.monaco-workbench.${theme.workbenchClass}`).waitFor({ timeout: 15_000 });
    // the webview restyles from the theme variables on its next frame
    await page.waitForTimeout(600);
  };
  const showPlan = async (file: string, objective: string): Promise<void> => {
    await quickOpen(page, file);
    await runCommand(page, 'Show plan');
    await panel().locator('plan-panel-app[data-mode="review"] h1.objective', { hasText: objective }).waitFor({ timeout: 30_000 });
  };
  const version = async (): Promise<number> => Number(await panel().locator('plan-panel-app').getAttribute('data-version'));
  const waitForVersionAfter = async (before: number): Promise<void> => {
    await panel().locator('plan-panel-app').and(panel().locator(`[data-version]:not([data-version="${before}"])`)).waitFor({ timeout: 10_000 });
  };
  /** Presses `key` in the focused select until its active option is `option`, then Enter; the select opens on the first ArrowDown. */
  const choose = async (field: Locator, option: string): Promise<void> => {
    const options = await field.locator('vscode-option').evaluateAll((elements) => elements.map((element) => element.getAttribute('value')));
    const from = options.indexOf(await field.evaluate((element) => (element as HTMLElement & { value: string }).value));
    const to = options.indexOf(option);
    assert.ok(to >= 0, `${option} is not among ${options.join(', ')}`);
    await page.keyboard.press('ArrowDown'); // opens on the selected option
    for (let index = from; index !== to; index += to > from ? 1 : -1) await page.keyboard.press(to > from ? 'ArrowDown' : 'ArrowUp');
    await page.keyboard.press('Enter');
  };
  /** Asserts that the focused element is not under the review's sticky Start / Cancel bar. */
  const assertFocusNotCovered = async (): Promise<void> => {
    const overlap = await (await panelFrame()).evaluate(`(() => {
      let element = document.activeElement;
      while (element && element.shadowRoot && element.shadowRoot.activeElement) element = element.shadowRoot.activeElement;
      const bar = document.querySelector('plan-panel-app').shadowRoot.querySelector('plan-review').shadowRoot.querySelector('.actions');
      return element.getBoundingClientRect().bottom - bar.getBoundingClientRect().top;
    })()`);
    assert.ok(Number(overlap) <= 0, `the sticky bar covers ${String(overlap)} px of the focused element (${await focused()})`);
  };
  /** The rows of one view of the Task Planner sidebar ("Plan" or "Runs"). */
  const viewPane = (view: string): Locator =>
    page.locator('.sidebar .pane').filter({ has: page.locator('.pane-header', { hasText: new RegExp(`^\\s*${view}`) }) });

  before(async function () {
    workbench = await openDemoWorkbench({
      name: 'a11y',
      screenshots,
      files: {
        '.vscode/settings.json': { 'workbench.colorTheme': themes[0].setting },
        'edit.plan.json': editPlan,
        'approve.plan.json': approvePlan,
        '.github/skills/summaries/SKILL.md': '---\nname: summaries\ndescription: How this project writes summaries.\ntags: [writing]\n---\nKeep summaries to five lines.\n',
      },
      // A model is configured (it never answers: no step here needs its reply), so the review offers Start for the
      // agent step; without one the review would block Start and ask to hand that step over (tested in the journeys).
      server: { userSettings: { 'taskPlanner.llm.provider': 'openai', 'taskPlanner.llm.baseUrl': 'http://127.0.0.1:9/v1' } },
      viewport: { width: 1400, height: 900 },
    });
    ({ page, folder } = workbench);
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots);
  });

  after(async () => {
    const rest = [...others].map(([rule, count]) => `${rule}: ${count}`).join(', ');
    console.log(`    axe: ${[...others.values()].reduce((sum, count) => sum + count, 0)} findings of impact moderate or minor${rest ? ` (${rest})` : ''}`);
    await workbench?.close();
  });

  it('review with the edit form open: focus on its first field, no serious or critical axe finding in three themes', async () => {
    await showPlan('edit.plan.json', 'Tidy the notes app');
    await panel().locator('li.step[data-step-id="read"] button[data-action="edit"]').click();
    await waitForFocus('field:title');
    const before = blocking.length;
    for (const theme of themes) {
      await setTheme(theme);
      await scan(`review with the form open, ${theme.name}`, await panelFrame());
      await shoot(`review-form-focused-${theme.name}`);
    }
    // Escape closes the form and returns focus to the button that opened it
    await page.keyboard.press('Escape');
    await waitForFocus('edit:read');
    assert.deepEqual(blocking.slice(before), []);
  });

  it("edits an agent step's skills: the field names the workspace's skills, refuses another, and the card shows the saved one", async () => {
    await panel().locator('li.step[data-step-id="think"] button[data-action="edit"]').click();
    await waitForFocus('field:title');
    const form = panel().locator('li.step[data-step-id="think"] step-edit-form');
    const skills = form.locator('vscode-textfield[name="skills"]');
    const description = (): Promise<string> =>
      skills.evaluate((field) => (field.shadowRoot!.querySelector('input')!.ariaDescribedByElements ?? []).map((element) => element.textContent).join(' '));
    assert.equal(await form.locator('[data-field-note="skills"]').innerText(), 'Skills of this workspace: summaries.');
    assert.equal(await description(), 'Skills of this workspace: summaries.');
    const before = blocking.length;
    for (const theme of themes) {
      await setTheme(theme);
      await scan(`agent step form with its skills, ${theme.name}`, await panelFrame());
      await shoot(`agent-form-skills-${theme.name}`);
    }
    assert.deepEqual(blocking.slice(before), []);
    await setTheme(themes[0]);
    await skills.locator('input').fill('summaries, deploy');
    await page.keyboard.press('Control+Enter');
    await form.locator('[data-field-error="skills"]').waitFor({ timeout: 5_000 });
    await waitForFocus('field:skills');
    assert.equal(await description(), 'There is no skill "deploy" in this workspace; choose from: summaries. Skills of this workspace: summaries.');
    await skills.locator('input').fill('summaries');
    const saved = await version();
    // Enter in a one-line field saves, and the form stays closed (the key does not press Edit once focus is back on it)
    await page.keyboard.press('Enter');
    await waitForVersionAfter(saved);
    await waitForFocus('edit:think');
    assert.equal(await form.count(), 0, 'the form opened again');
    await panel().locator('li.step[data-step-id="think"] .step-uses', { hasText: 'Skills: summaries' }).waitFor({ timeout: 10_000 });
  });

  it("edits the plan's topics: the form names the skills' tags, refuses a name too long, and the review shows the saved topics", async () => {
    const topics = panel().locator('plan-topics');
    assert.equal(await topics.locator('[data-topics]').innerText(), 'none');
    await topics.locator('button[data-action="edit-topics"]').click();
    await waitForFocus('field:topics');
    assert.equal(await topics.locator('#topics-note').innerText(), "Tags of this workspace's skills: writing.");
    const before = blocking.length;
    await scan('the topics form, light', await panelFrame());
    assert.deepEqual(blocking.slice(before), []);
    await shoot('topics-form');
    const field = topics.locator('vscode-textfield[name="topics"] input');
    await field.fill(`writing, ${'x'.repeat(65)}`);
    await page.keyboard.press('Enter');
    await topics.locator('#topics-error').waitFor({ timeout: 5_000 });
    assert.equal(await topics.locator('#topics-error').innerText(), 'Keep each topic name under 65 characters.');
    await field.fill('writing, Writing ');
    const saved = await version();
    await page.keyboard.press('Enter');
    await waitForVersionAfter(saved);
    await waitForFocus('edit-topics:');
    assert.equal(await topics.locator('form').count(), 0, 'the form opened again');
    assert.equal(await topics.locator('[data-topics]').innerText(), 'writing, Writing');
  });

  it('edits a step’s Kind, Tool and On failure with the keyboard alone, and the saved plan holds them', async () => {
    await setTheme(themes[0]);
    await panel().locator('li.step[data-step-id="think"] button[data-action="edit"]').focus();
    await page.keyboard.press('Enter');
    await waitForFocus('field:title');
    const form = panel().locator('li.step[data-step-id="think"] step-edit-form');
    await page.keyboard.press('Tab');
    await waitForFocus('field:kind');
    await choose(form.locator('vscode-single-select[name="kind"]'), 'tool');
    // the kind's own fields follow it: a tool step has Tool and Arguments
    await form.locator('vscode-single-select[name="tool"]').waitFor({ timeout: 5_000 });
    const order: string[] = [];
    for (let press = 0; press < 13; press++) {
      await page.keyboard.press('Tab');
      order.push(await focused());
      // The tool is chosen by typing its start, as in a native list (a dozen tools and more: arrows alone were slow going).
      if (order.at(-1) === 'field:tool') {
        const tool = form.locator('vscode-single-select[name="tool"]');
        const args = form.locator('vscode-textarea[name="args"]');
        const valueOf = (field: Locator): Promise<string> => field.evaluate((element) => (element as HTMLElement & { value: string }).value);
        /** Waits until the form shows `name` chosen with its arguments' template (`shown`): each choice redraws the form. */
        const chosen = async (name: string, shown: RegExp): Promise<void> => {
          const deadline = Date.now() + 10_000;
          while (!((await valueOf(tool)) === name && shown.test(await valueOf(args))) && Date.now() < deadline) await page.waitForTimeout(100);
          assert.equal(await valueOf(tool), name, `${name} was not chosen by typing`);
          assert.match(await valueOf(args), shown, `the arguments of ${name} were not shown`);
        };
        await page.keyboard.type('wr');
        await chosen('write_file', /content:/);
        // A key that types nothing ends the search (so does a pause of a second): the next letters start a new one.
        await page.keyboard.press('Escape');
        await page.keyboard.type('li');
        await chosen('list_files', /^\{\}$/);
        // Back on the list, as the Tab order below expects: a Tab pressed while the form redrew went nowhere (a loaded clean clone).
        await tool.focus();
        await waitForFocus('field:tool');
      }
      if (order.at(-1) === 'field:onFailure') await choose(form.locator('vscode-single-select[name="onFailure"]'), 'skip');
      await assertFocusNotCovered();
    }
    assert.deepEqual(order, [
      'field:tool',
      'field:args',
      'field:writes',
      'field:checks',
      'field:dependsOn',
      'field:onFailure',
      'field:maxAttempts',
      'field:critical',
      'field:verification',
      'field:onVerificationFailure',
      'save:think',
      'cancel-edit:think',
      'card:list',
    ]);
    // an invalid field: marked, described by its message, announced, and focused
    await page.keyboard.press('Shift+Tab'); // cancel
    await page.keyboard.press('Shift+Tab'); // save
    await page.keyboard.press('Shift+Tab'); // if a check fails
    await page.keyboard.press('Shift+Tab'); // verification
    await page.keyboard.press('Shift+Tab'); // critical
    await page.keyboard.press('Shift+Tab'); // attempts
    await waitForFocus('field:maxAttempts');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('0');
    await page.keyboard.press('Control+Enter');
    await form.locator('[data-field-error="maxAttempts"]').waitFor({ timeout: 5_000 });
    await waitForFocus('field:maxAttempts');
    const described = await form.locator('vscode-textfield[name="maxAttempts"]').evaluate((field) => {
      const input = field.shadowRoot!.querySelector('input')!;
      return {
        invalid: input.getAttribute('aria-invalid'),
        name: input.getAttribute('aria-label'),
        description: (input.ariaDescribedByElements ?? []).map((element) => element.textContent).join(' '),
      };
    });
    // Described by its error, then by the field's note (what attempts mean, and which failures are not tried again).
    assert.equal(described.invalid, 'true');
    assert.equal(described.name, 'Attempts');
    assert.match(described.description, /^At least one attempt\. Tries in all, the first included: 1 is no retry, Retry needs 2 or more\./);
    assert.match(await form.locator('[data-form-announcement]').innerText(), /^Not saved, 1 field needs attention\. Attempts: At least one attempt\./);
    await assertFocusNotCovered();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('1');
    await page.keyboard.press('Tab'); // critical
    await page.keyboard.press('Tab'); // verification
    await page.keyboard.press('Tab'); // if a check fails
    await page.keyboard.press('Tab');
    await waitForFocus('save:think');
    const saved = await version();
    await page.keyboard.press('Enter');
    await waitForVersionAfter(saved);
    // Save returns focus to the Edit button that opened the form
    await waitForFocus('edit:think');
    const card = panel().locator('li.step[data-step-id="think"]');
    assert.equal(await card.locator('.tag').first().innerText(), 'tool');
    assert.equal(await card.locator('.step-tool').innerText(), 'list_files');
    // Said in words on the card, the policy's own name in its tooltip.
    const onFailure = card.locator('dd.step-failure-policy');
    assert.match(await onFailure.innerText(), /the step is skipped and the run goes on$/);
    assert.match((await onFailure.getAttribute('title')) ?? '', /^onFailure: skip\b/);
    // the extension host's plan (the Plan view) holds the new values too
    await viewPane('Plan')
      .locator('.monaco-list-row', { hasText: 'Summarise the notes module' })
      .filter({ hasText: 'list_files' })
      .waitFor({ timeout: 10_000 });
  });

  it('walks the review with Tab in visual order; focus lands sensibly after Remove, Move down and Start', async () => {
    await panel().locator('vscode-button[data-action="add"]').focus();
    const steps = await panel().locator('li.step').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-step-id') ?? ''));
    const expected = steps.flatMap((id, index) => [
      `card:${id}`,
      `edit:${id}`,
      ...(index > 0 ? [`up:${id}`] : []),
      ...(index < steps.length - 1 ? [`down:${id}`] : []),
      `skip:${id}`,
      `remove:${id}`,
    ]);
    expected.push('field:feedback', 'start:', 'cancel:');
    const walked: string[] = [];
    for (let press = 0; press < expected.length; press++) {
      await page.keyboard.press('Tab');
      walked.push(await focused());
    }
    assert.deepEqual(walked, expected);
    await shoot('review-tab-walk-cancel-focused');

    // Remove: focus goes to the step that takes the removed one's place
    await panel().locator('li.step[data-step-id="list"] button[data-action="remove"]').focus();
    let before = await version();
    await page.keyboard.press('Enter');
    await waitForVersionAfter(before);
    await waitForFocus('card:extra');

    // Move down: focus stays on the moved step's button, so the next Tab stays with that step
    await page.keyboard.press('Shift+Tab'); // remove:think
    await page.keyboard.press('Shift+Tab'); // skip:think
    await page.keyboard.press('Shift+Tab'); // down:think
    await waitForFocus('down:think');
    before = await version();
    await page.keyboard.press('Enter');
    await waitForVersionAfter(before);
    assert.deepEqual(
      await panel()
        .locator('li.step')
        .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-step-id'))),
      ['read', 'extra', 'think'],
    );
    // at the end, its Move down is disabled: focus moves to the card
    await waitForFocus('card:think');
    await page.keyboard.press('Tab');
    await waitForFocus('edit:think');

    // Start: the run's heading takes focus
    await panel().locator('vscode-button[data-action="start"]').focus();
    await page.keyboard.press('Enter');
    await panel().locator('plan-panel-app[data-mode="run"]').waitFor({ timeout: 15_000 });
    await waitForFocus('h1:plan-run');
    await panel().locator('.run-status', { hasText: /completed|failed/ }).waitFor({ timeout: 60_000 });
  });

  it('a run waiting for an approval and the finished run: announced, Approve by keybinding, no serious or critical axe finding', async () => {
    await showPlan('approve.plan.json', 'Write the accessibility notes');
    await panel().locator('vscode-button[data-action="start"]').click();
    await page.locator('.tab', { hasText: 'W1 Write the notes' }).first().waitFor({ timeout: 30_000 });
    // the shortcut is shown with the editor's Approve button
    const approve = page.locator('.editor-group-container.active .action-label[aria-label^="Approve"]').first();
    const approveTitle = `${(await approve.getAttribute('aria-label')) ?? ''} ${(await approve.getAttribute('title')) ?? ''}`;
    assert.match(approveTitle, /Ctrl\+Alt\+Y/, `Approve shows no shortcut: ${approveTitle}`);
    // the status bar item is read as it looks, then what waits
    await page.locator('.part.statusbar [aria-label^="Task Planner: Approval needed, step W1 waits for you"]').first().waitFor({ timeout: 10_000 });
    // the panel announces what waits
    await page.locator('.tab', { hasText: 'Task Planner: Plan' }).click();
    await panel().locator('[data-run-announcement]', { hasText: /Waiting for you: approval of step W1/ }).waitFor({ timeout: 15_000 });
    await panel().locator('vscode-button[data-action="open-approval"]').focus();
    for (const theme of themes) {
      await setTheme(theme);
      await scan(`run waiting for approval, ${theme.name}`, await panelFrame());
      await shoot(`run-waiting-open-focused-${theme.name}`);
    }
    await panel().locator('vscode-button[data-action="open-approval"]').click();
    await page.locator('.tab.active', { hasText: 'W1 Write the notes' }).waitFor({ timeout: 15_000 });
    await page.locator('.editor-group-container.active .monaco-diff-editor').first().click();
    await page.keyboard.press('Control+Alt+y');
    await page.locator('.tab', { hasText: 'W1 Write the notes' }).waitFor({ state: 'detached', timeout: 15_000 });
    await page.locator('.tab', { hasText: 'Task Planner: Plan' }).click();
    await panel().locator('.run-status', { hasText: 'completed' }).waitFor({ timeout: 30_000 });
    assert.equal(readFileSync(join(folder, 'a11y-notes.md'), 'utf8'), 'Keyboard first.\n');
    await panel().locator('.changed-files button').first().focus();
    for (const theme of themes) {
      await setTheme(theme);
      await scan(`finished run, ${theme.name}`, await panelFrame());
      await shoot(`run-completed-file-focused-${theme.name}`);
    }
  });

  it('the Plan and Runs views: rows named by what they show, then the status; no serious or critical axe finding', async () => {
    const planRow = viewPane('Plan').locator('.monaco-list-row').first();
    assert.match((await planRow.getAttribute('aria-label')) ?? '', /^1\. Read the README, read_file, completed/);
    const runRow = viewPane('Runs').locator('.monaco-list-row').first();
    assert.match((await runRow.getAttribute('aria-label')) ?? '', /^Write the accessibility notes, completed, 2\/2, .*, 2 of 2 steps completed$/);
    // the views' content; their headers (title, toolbar) are the workbench's own, the same for every view
    await page.evaluate(() => document.querySelectorAll('.sidebar .pane .pane-body').forEach((body) => body.setAttribute('data-axe-scope', '')));
    await runCommand(page, 'Focus on Plan View');
    await page.keyboard.press('Home');
    for (const theme of themes) {
      await setTheme(theme);
      await scan(`Plan and Runs views, ${theme.name}`, page, '[data-axe-scope]');
      await shoot(`views-row-focused-${theme.name}`);
    }
  });

  it('the version list and a folded file content: named by what they show, used with the keyboard, no serious or critical axe finding', async () => {
    const content = Array.from({ length: 30 }, (_, index) => `Line ${index + 1} of the notes`).join('\n');
    const plan = makePlan(
      [makeStep('W1', { title: 'Write the notes', kind: 'tool', tool: 'write_file', args: { path: 'notes.md', content }, agent: undefined, input: undefined })],
      { version: 3 },
    );
    const body = buildPanelViewModel({
      plan,
      critique: critiquePlan(plan),
      diagnostics: [],
      tools: ['write_file'],
      versions: [
        { version: 3, label: 'v3 · regenerated with "shorter"' },
        { version: 2, label: 'v2 · edited W1' },
        { version: 1, label: 'v1 · planned' },
      ],
    });
    await showPanelSnapshot(panel(), 'a11y-versions', body);
    const picker = panel().locator('select#plan-version');
    assert.equal(await picker.evaluate((select) => (select as HTMLSelectElement).labels?.[0]?.textContent), 'Plan version');
    await picker.focus();
    await waitForFocus('field:plan-version');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await waitForFocus('restore-version:');
    assert.equal(
      await panel().locator('vscode-button[data-action="restore-version"]').getAttribute('disabled'),
      null,
      'picking an earlier version did not enable going back to it',
    );
    const toggle = panel().locator('li.step[data-step-id="W1"] button.fold-toggle');
    await toggle.focus();
    await page.keyboard.press('Enter');
    await panel().locator('li.step[data-step-id="W1"] button.fold-toggle[aria-expanded="true"]').waitFor({ timeout: 5_000 });
    await page.keyboard.press('Enter');
    await panel().locator('li.step[data-step-id="W1"] button.fold-toggle[aria-expanded="false"]').waitFor({ timeout: 5_000 });
    assert.equal(await toggle.innerText(), 'Show 10 more lines');
    for (const theme of themes) {
      await setTheme(theme);
      await scan(`review with versions and a folded file, ${theme.name}`, await panelFrame());
      await shoot(`review-versions-folded-${theme.name}`);
    }
  });

  it('reports no axe finding of impact serious or critical anywhere', () => {
    assert.equal(blocking.length, 0, `axe found:\n    ${blocking.join('\n    ')}`);
  });
});
