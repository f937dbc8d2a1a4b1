// End-to-end: workspace trust. The folder opens in Restricted Mode (trust kept on, no trust dialog); planning works,
// steps that write files or run commands are refused with the reason and change nothing, reads run; after the user
// trusts the folder (no reload), Retry runs them. The model is the fake OpenAI-compatible server from user settings;
// the workspace's own settings point at a decoy server that must stay unused while the folder is untrusted.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { FakeOpenAiServer } from '../fakes/fakeOpenAiServer';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { activityBarEntry, commandInput, quickInputField, runCommand, screenshotIfFailed, typeIntoQuickInput } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'e2e');

const toolStep = (id: string, title: string, tool: string, args: Record<string, unknown>, dependsOn: string[] = [], extra: Record<string, unknown> = {}) => ({ id, title, kind: 'tool', tool, args, dependsOn, ...extra });
/** What the extension says about a refused step (src/core/tools/workspaceTrustGate.ts), up to the variable part. */
const refusal = (tool: string): RegExp => new RegExp(`${tool} was not run because this workspace is in Restricted Mode \\(not trusted\\), so Task Planner does not write files, run commands, reach the network or use the tools of MCP servers and other extensions in it\\. Trust the workspace`);

describe('Task Planner in Restricted Mode (workspace trust on, browser workbench)', function () {
  let workbench: DemoWorkbench | undefined;
  const model = new FakeOpenAiServer();
  const decoy = new FakeOpenAiServer();
  let page: Page;
  let folder: string;

  const shoot = async (name: string): Promise<void> => {
    await page.screenshot({ path: join(screenshots, `restricted-${name}.png`) });
  };
  const planRows = (): Locator => page.locator('.sidebar .pane').filter({ has: page.locator('.pane-header', { hasText: /^\s*Plan/ }) }).locator('.monaco-list-row');
  const planRow = (text: string | RegExp): Locator => planRows().filter({ hasText: text }).first();
  const restrictedStatus = (): Locator => page.locator('.statusbar-item', { hasText: 'Restricted Mode' });
  const file = (name: string): string => join(folder, name);
  /** The tooltip VS Code shows when the pointer rests on the Plan tree row of step `stepId`, titled `title`. */
  const tooltipOf = async (stepId: string, title: string): Promise<string> => {
    const hovers = page.locator('.workbench-hover, .monaco-hover');
    await page.mouse.move(700, 400);
    await hovers.filter({ visible: true }).first().waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
    await planRow(title).hover();
    const hover = hovers.filter({ hasText: `${stepId} · tool` }).first();
    await hover.waitFor({ state: 'visible', timeout: 10_000 });
    return (await hover.innerText()).replace(/\s+/g, ' ');
  };

  before(async function () {
    await model.start();
    await decoy.start();
    workbench = await openDemoWorkbench({
      name: 'restricted',
      screenshots,
      screenshotPrefix: 'restricted-',
      files: { '.vscode/settings.json': { 'taskPlanner.llm.baseUrl': decoy.baseURL } },
      server: {
        workspaceTrust: true,
        // The review in the QuickPick (Start / Cancel): this test is about execution, not the plan panel.
        userSettings: { 'taskPlanner.llm.provider': 'openai', 'taskPlanner.llm.baseUrl': model.baseURL, 'taskPlanner.review.show': 'quickPick' },
      },
      openView: false,
    });
    ({ page, folder } = workbench);
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots, 'restricted-');
  });

  after(async () => {
    await workbench?.close();
    await model.close();
    await decoy.close();
  });

  it('opens the folder in Restricted Mode without a trust dialog', async () => {
    await restrictedStatus().waitFor({ timeout: 30_000 });
    await page.locator('.monaco-workbench .banner', { hasText: 'Restricted Mode is intended for safe code browsing' }).waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'a dialog is open');
    await activityBarEntry(page, 'Task Planner').click();
    await page.locator('.sidebar').getByText('No plan yet', { exact: false }).waitFor({ timeout: 30_000 });
    await shoot('mode');
  });

  it('plans, runs the read steps, and refuses the write and command steps with the reason, changing nothing', async () => {
    const readmeBefore = readFileSync(file('README.md'), 'utf8');
    // Counted from here: a second try of this test on the same workbench comes after the first one's request.
    const asked = model.chatRequests.length;
    model.enqueue({
      kind: 'message',
      content: JSON.stringify({
        objective: 'restricted',
        steps: [
          toolStep('R1', 'Read the readme', 'read_file', { path: 'README.md' }),
          toolStep('W1', 'Write the notes', 'write_file', { path: 'notes.txt', content: 'written after trust\n' }, [], { critical: false }),
          toolStep('C1', 'Run the marker script', 'run_command', { argv: ['node', '-e', "require('fs').writeFileSync('ran.txt', 'ran')"] }, [], { critical: false }),
          toolStep('L1', 'List the files', 'list_files', {}, ['R1']),
        ],
      }),
    });
    await commandInput(page, 'Plan task', 'Task Planner: Plan task');
    await typeIntoQuickInput(page, 'Read the readme, write notes, run the marker script, list the files');
    await page.keyboard.press('Enter');
    await quickInputField(page, 'Task Planner: review the plan');
    // Planning worked in Restricted Mode: the steps are in the tree before the run starts (the tree may draw them a moment
    // after the review opens: a loaded clean clone read no row).
    await planRows().nth(3).waitFor({ timeout: 10_000 });
    assert.deepEqual((await planRows().allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim().split(' ').slice(0, 2).join(' ')), ['1. Read', '2. Write', '3. Run', '4. List']);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Start' }).first().click();

    await planRow(/^4\. List the files.*list_files · completed/s).waitFor({ timeout: 30_000 });
    await planRow(/^1\. Read the readme.*read_file · completed/s).waitFor({ timeout: 10_000 });
    await planRow(/run_command · failed/).waitFor({ timeout: 30_000 });
    await planRow(/write_file · failed/).waitFor({ timeout: 30_000 });
    // One warning for the run, naming the first refused step, with the way out.
    // The run's end ("partly done") names the refused step too; the refusal's own warning is the one with the way out.
    const toast = page
      .locator('.notifications-toasts .notification-toast', { hasText: 'was not run because this workspace is in Restricted Mode' })
      .filter({ has: page.getByRole('button', { name: 'Manage Workspace Trust' }) })
      .filter({ hasNot: page.getByRole('button', { name: 'Show run' }) });
    await toast.waitFor({ timeout: 10_000 });
    const toastText = (await toast.innerText()).replace(/\s+/g, ' ');
    assert.match(toastText, /Task Planner: step "(Write the notes" \(write_file|Run the marker script" \(run_command)\) was not run because this workspace is in Restricted Mode/);
    assert.match(toastText, /Manage Workspace Trust/);
    // The run's end says it in a few words, not the refusal's whole warning again (issue 28: one warning per refusal).
    const ended = page.locator('.notifications-toasts .notification-toast', { hasText: 'Task Planner: run' }).filter({ has: page.getByRole('button', { name: 'Show run' }) });
    const endText = (await ended.innerText()).replace(/\s+/g, ' ');
    assert.match(endText, /(W1|C1) failed: not run, since this workspace is in Restricted Mode/);
    assert.doesNotMatch(endText, /Trust the workspace \(Workspaces: Manage Workspace Trust\)/);
    // Each refused step carries the reason as its error (the screenshot shows the tooltip and the warning).
    assert.match(await tooltipOf('W1', 'Write the notes'), refusal('write_file'));
    await shoot('refused');
    assert.match(await tooltipOf('C1', 'Run the marker script'), refusal('run_command'));
    // Nothing was asked, written or run.
    assert.equal(await page.locator('.tab', { hasText: 'W1 Write the notes' }).count(), 0, 'an approval diff opened');
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'an approval dialog opened');
    assert.equal(existsSync(file('notes.txt')), false, 'notes.txt was written in Restricted Mode');
    assert.equal(existsSync(file('ran.txt')), false, 'the command ran in Restricted Mode');
    assert.equal(readFileSync(file('README.md'), 'utf8'), readmeBefore);
    // The workspace's own baseUrl is a restricted setting: ignored until the folder is trusted.
    assert.equal(model.chatRequests.length - asked, 1);
    assert.equal(decoy.requests.length, 0, 'the untrusted workspace redirected the model requests');
  });

  it('after the user trusts the folder (no reload), Retry runs the write and the command after their approvals', async () => {
    await page.evaluate(() => Object.assign(window, { taskPlannerSameWindow: true }));
    // The way out the refusal offered: its "Manage Workspace Trust" button (the warning is in the notification center
    // by now), then "Trust" in the Workspace Trust editor.
    await runCommand(page, 'Notifications: Show Notifications');
    await page.locator('.notifications-center .notification-list-item', { hasText: 'was not run because this workspace is in Restricted Mode' }).locator('.monaco-button', { hasText: 'Manage Workspace Trust' }).click();
    await page.locator('.workspace-trust-editor .monaco-button', { hasText: /^Trust/ }).first().click();
    await restrictedStatus().waitFor({ state: 'hidden', timeout: 30_000 });
    await page.locator('.workspace-trust-editor', { hasText: 'You trust this folder' }).waitFor({ timeout: 10_000 });
    // The Workspace Trust editor opens as a modal editor: a click beside it closes it.
    await page.locator('.monaco-modal-editor-block').click({ position: { x: 5, y: 5 } });
    await page.locator('.workspace-trust-editor').waitFor({ state: 'hidden', timeout: 10_000 });
    assert.equal(await page.evaluate(() => (window as { taskPlannerSameWindow?: boolean }).taskPlannerSameWindow), true, 'the window reloaded');

    await planRow(/write_file · failed/).click({ button: 'right' });
    const retry = page.locator('.context-view .action-label', { hasText: /^Retry$/ });
    await retry.waitFor({ timeout: 10_000 });
    // A click that lands while the menu is still settling is ignored by it: click until the menu closes.
    for (let attempt = 1; await retry.isVisible(); attempt++) {
      assert.ok(attempt <= 5, 'the context menu ignored five clicks on Retry');
      await retry.click({ timeout: 5_000 }).catch(() => undefined);
      await retry.waitFor({ state: 'hidden', timeout: 2_000 }).catch(() => undefined);
    }
    // The retried step and its still-unfinished sibling ask as in any trusted workspace, one after the other (a
    // command may change any file, so it never runs beside a write): the command in a modal, the write in the diff editor.
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'wants to run a command' });
    const diff = page.locator('.tab', { hasText: 'W1 Write the notes' }).first();
    let ranCommand = false;
    let approvedWrite = false;
    while (!ranCommand || !approvedWrite) {
      await (ranCommand ? diff : approvedWrite ? dialog : dialog.or(diff)).first().waitFor({ timeout: 30_000 });
      if (!ranCommand && (await dialog.isVisible())) {
        await dialog.locator('.monaco-button', { hasText: /^Run$/ }).click();
        await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
        ranCommand = true;
      } else if (!approvedWrite && (await diff.isVisible())) {
        await page.locator('.editor-group-container.active .action-label[aria-label^="Approve"]').first().click();
        await planRow(/write_file · completed/).waitFor({ timeout: 30_000 });
        approvedWrite = true;
      }
    }
    await planRow(/write_file · completed/).waitFor({ timeout: 30_000 });
    await planRow(/run_command · completed/).waitFor({ timeout: 30_000 });
    assert.equal(readFileSync(file('notes.txt'), 'utf8'), 'written after trust\n');
    assert.equal(readFileSync(file('ran.txt'), 'utf8'), 'ran');
    await shoot('trusted');
  });
});
