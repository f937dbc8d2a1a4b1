// End-to-end trial of the promises of issues 26 and 27, walked as a newcomer walks them in the browser workbench
// (code-server): first without a model (plan files), then with the fake OpenAI-compatible model. Each journey keeps a
// screenshot of every question and of its end in test-results/screenshots/trial/:
// 1. two parallel edit_file steps on one file open with unsaved changes: the question keeps the typing by default,
//    Save first ends "ALPHA beta GAMMA" under the typing, and Undo run puts back exactly what was saved;
// 2. an edit of a Latin-1 file is refused in words, its bytes untouched;
// 3. a write then `git status`: the command question focuses Reject, "Allow this command for this workspace" makes an
//    exact rule, and `git status --output=x` still asks;
// 4. Undo from here in the Plan tree on a finished run of three steps;
// 5. write_file into .task-planner/ or .git/ is refused, saying why and nothing misleading.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { FakeOpenAiServer } from '../fakes/fakeOpenAiServer';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { answerDialog, clickNotificationButton, dialogShown, commandInput, notification, planPanelFrame, quickOpen, runPlanFileFromTitleBar, screenshotIfFailed, typeIntoQuickInput } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'trial');

const step = (id: string, title: string, tool: string, args: Record<string, unknown>, dependsOn: string[] = [], extra: Record<string, unknown> = {}) => ({
  id,
  title,
  kind: 'tool',
  tool,
  args,
  dependsOn,
  ...extra,
});
const edit = (id: string, title: string, path: string, search: string, replace: string) => step(id, title, 'edit_file', { path, edits: [{ search, replace }] });
const planReply = (objective: string, steps: unknown[]) => ({ kind: 'message' as const, content: JSON.stringify({ objective, steps }) });

/** The pieces of the workbench every journey uses, for the page of one suite. */
function workbenchParts(page: () => Page, prefix: string) {
  const rows = (): Locator =>
    page()
      .locator('.sidebar .pane')
      .filter({ has: page().locator('.pane-header', { hasText: /^\s*Plan/ }) })
      .locator('.monaco-list-row');
  return {
    shoot: async (name: string): Promise<void> => {
      // The pointer rests away from the buttons, so no hover hides what is shown.
      await page().mouse.move(700, 700);
      await page().screenshot({ path: join(screenshots, `${prefix}${name}.png`) });
    },
    rows,
    planRow: (text: string | RegExp): Locator => rows().filter({ hasText: text }).first(),
    /** The editor-title action `label` of the active (diff) editor. */
    titleAction: (label: string): Locator => page().locator(`.editor-group-container.active .action-label[aria-label^="${label}"]`).first(),
    activeTabLabel: async (): Promise<string> =>
      (await page().locator('.editor-group-container.active .tab.active').first().innerText()).replace(/\s+/g, ' ').trim(),
  };
}

describe('Trial of issues 26 and 27 without a model: plan files (browser workbench)', function () {
  this.timeout(300_000);
  let workbench: DemoWorkbench | undefined;
  let page: Page;
  let folder: string;
  const { shoot, planRow, titleAction, activeTabLabel } = workbenchParts(() => page, 'a-');

  const runPlanFile = (name: string): Promise<void> => runPlanFileFromTitleBar(page, name);

  before(async function () {
    workbench = await openDemoWorkbench({
      name: 'trial-plan-files',
      screenshots,
      screenshotPrefix: 'a-',
      // Desktop VS Code's default; the browser workbench saves by itself after a second, leaving nothing unsaved.
      server: { userSettings: { 'files.autoSave': 'off' } },
      files: {
        'notes.txt': 'alpha\nbeta\ngamma\n',
        'plans/notes.plan.json': {
          objective: 'Capitalise alpha and gamma in notes.txt',
          steps: [edit('A', 'Capitalise alpha', 'notes.txt', 'alpha', 'ALPHA'), edit('B', 'Capitalise gamma', 'notes.txt', 'gamma', 'GAMMA')],
        },
        'plans/menu.plan.json': { objective: 'Shout line 2 of the menu', steps: [edit('M', 'Shout line 2', 'menu.txt', 'line2', 'LINE2')] },
      },
    });
    ({ page, folder } = workbench);
    writeFileSync(join(folder, 'menu.txt'), Buffer.from('caf\xe9 cr\xe8me\nline2\n', 'latin1'));
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots, 'a-');
  });

  after(async () => {
    await workbench?.close();
  });

  it('1. parallel edits of a file with unsaved changes: Keep is focused, Save first gives ALPHA beta GAMMA, Undo puts back what was saved', async function () {
    // Not tried again: a second try types into, and edits, the file the first try left, so it fails for that instead.
    this.retries(0);
    await quickOpen(page, 'notes.txt');
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('delta', { delay: 20 });
    await page.keyboard.press('Enter');
    await page.locator('.tab.dirty', { hasText: 'notes.txt' }).waitFor({ timeout: 15_000 });
    await shoot('1-unsaved-typing');
    await runPlanFile('notes.plan.json');

    // The steps may ask in any order: answer each question as it comes until both steps completed.
    const asked: string[] = [];
    const unsaved = page.locator('.monaco-dialog-box', { hasText: 'has unsaved changes' });
    const deadline = Date.now() + 240_000;
    while ((await page.locator('.sidebar .monaco-list-row', { hasText: /edit_file · completed/ }).count()) < 2) {
      assert.ok(Date.now() < deadline, `the run did not finish; asked so far: ${asked.join(' | ')}`);
      if (await unsaved.isVisible()) {
        const { dialog, focused } = await dialogShown(page, 'has unsaved changes', 60_000);
        const text = await dialog.innerText();
        asked.push(`unsaved: ${focused}`);
        assert.match(text, /notes\.txt has unsaved changes, and step [AB] "Capitalise (alpha|gamma)" wants to change it now\./);
        assert.equal(focused, 'Keep my changes', 'a stray Enter would let the step have the typing');
        await shoot('1-question-unsaved');
        await dialog.locator('.monaco-button', { hasText: 'Save them, then let the step change the file' }).click();
        await dialog.waitFor({ state: 'detached', timeout: 15_000 });
      } else if (await titleAction('Approve').isVisible()) {
        const label = await activeTabLabel();
        asked.push(`diff: ${label}`);
        // The path leads the diff's title, the step follows.
        assert.match(label, /^notes\.txt \(edit, proposed\) · [AB] Capitalise (alpha|gamma)/);
        await shoot(`1-question-diff-${asked.length}`);
        await titleAction('Approve').click();
        // Until the answered diff closes, or the question about the unsaved file comes first: an Approve still shown
        // on a loaded machine would be clicked again, under that question's modal.
        const answered = page.locator('.editor-group-container.active .tab.active', { hasText: label.split(' · ')[1] ?? label }).first();
        await Promise.race([answered.waitFor({ state: 'detached', timeout: 15_000 }), unsaved.waitFor({ timeout: 15_000 })]).catch(() => undefined);
      } else {
        await page.waitForTimeout(500);
      }
    }
    console.log(`    asked, in order: ${asked.join(' | ')}`);
    assert.equal(asked.filter((question) => question.startsWith('unsaved')).length, 1, 'the unsaved question was not asked exactly once');
    assert.equal(readFileSync(join(folder, 'notes.txt'), 'utf8'), 'ALPHA\nbeta\nGAMMA\ndelta\n', 'a change or the typing was lost');

    const done = /run "[^"]*" completed .*2 of 2 steps completed; 1 file changed/;
    await notification(page, done);
    await shoot('1-completed');
    await clickNotificationButton(page, done, 'Undo run');
    // Asked first, naming the file; a stray Enter keeps the changes.
    await dialogShown(page, 'Undo the run');
    await shoot('1-undo-question');
    const undoQuestion = await answerDialog(page, 'Undo the run', 'Undo run');
    assert.match(undoQuestion.text, /This file will go back to how it was before the run: notes\.txt\./);
    assert.equal(undoQuestion.focused, 'Keep the changes');
    await notification(page, 'Undo restored notes.txt.');
    // Undo takes back the run's changes, not the typing the user chose to save.
    assert.equal(readFileSync(join(folder, 'notes.txt'), 'utf8'), 'alpha\nbeta\ngamma\ndelta\n');
    await shoot('1-undone');
  });

  it('2. an edit of a Latin-1 file is refused in words the user can act on, and its bytes stay as they were', async () => {
    const bytes = readFileSync(join(folder, 'menu.txt'));
    await runPlanFile('menu.plan.json');
    await planRow(/Shout line 2.*edit_file · failed/).waitFor({ timeout: 60_000 });
    const failed = await notification(page, /M failed: menu\.txt is not UTF-8 text/);
    const text = await failed.innerText();
    assert.match(text, /such as Latin-1 or Shift-JIS/);
    assert.match(text, /Convert it to UTF-8 first, or change it with a command\./);
    await shoot('2-latin1-refused');
    assert.deepEqual(readFileSync(join(folder, 'menu.txt')), bytes, 'the bytes of the Latin-1 file changed');
  });
});

describe('Trial of issues 26 and 27 with the fake model (browser workbench)', function () {
  this.timeout(300_000);
  let workbench: DemoWorkbench | undefined;
  const model = new FakeOpenAiServer();
  let page: Page;
  let folder: string;
  const { shoot, rows, planRow, titleAction, activeTabLabel } = workbenchParts(() => page, 'b-');

  /** Plan task with `request` (the fake model answers the next queued plan), then Start in the plan panel's review. */
  const planAndStart = async (request: string, firstStepId: string): Promise<void> => {
    const field = await commandInput(page, 'Plan task', 'Task Planner: Plan task');
    await typeIntoQuickInput(page, request);
    if ((await field.inputValue()) !== request) await field.fill(request);
    await page.keyboard.press('Enter');
    const review = planPanelFrame(page).locator('plan-panel-app[data-mode="review"]');
    await review.locator(`li.step[data-step-id="${firstStepId}"]`).waitFor({ timeout: 60_000 });
    await review.locator('vscode-button[data-action="start"]').click();
    await review.waitFor({ state: 'detached', timeout: 30_000 });
  };
  /** Waits for the diff of `stepId` (its path leading the title, as `title` says), then Approve. */
  const approveDiff = async (stepId: string, title: RegExp, screenshot?: string): Promise<void> => {
    await page.locator('.tab', { hasText: ` · ${stepId} ` }).first().waitFor({ timeout: 60_000 });
    await titleAction('Approve').waitFor({ timeout: 15_000 });
    assert.match(await activeTabLabel(), title);
    if (screenshot !== undefined) await shoot(screenshot);
    await titleAction('Approve').click();
  };

  before(async function () {
    await model.start();
    workbench = await openDemoWorkbench({
      name: 'trial-model',
      screenshots,
      screenshotPrefix: 'b-',
      files: { '.vscode/settings.json': { 'taskPlanner.llm.provider': 'openai', 'taskPlanner.llm.baseUrl': model.baseURL } },
    });
    ({ page, folder } = workbench);
    execFileSync('git', ['init', '-q'], { cwd: folder });
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots, 'b-');
  });

  after(async () => {
    await workbench?.close();
    await model.close();
  });

  let triesOfThree = 0;
  it('3. a write then `git status`: Reject is focused, Allow makes an exact rule, and `git status --output=x` asks again', async () => {
    // A second try (see docs/development.md) runs in the workspace the first left: hello.txt written and "git status"
    // allowed. It writes another file and allows other words, so it tests the same thing instead of failing on that.
    const attempt = triesOfThree++;
    const file = attempt === 0 ? 'hello.txt' : `hello-${attempt}.txt`;
    const status = attempt === 0 ? ['git', 'status'] : ['git', 'status', '--short'];
    const shown = status.join(' ');
    model.enqueue(
      planReply('Write hello and show the status', [
        step('W1', 'Write hello', 'write_file', { path: file, content: 'hello\n' }),
        step('C1', 'Show the status', 'run_command', { argv: status }, ['W1']),
      ]),
    );
    await planAndStart(`Write ${file}, then show ${shown}`, 'W1');
    await approveDiff('W1', new RegExp(`^${file.replace('.', '\\.')} \\(create, proposed\\) · W1 Write hello`), '3-question-diff');
    const asked = await dialogShown(page, 'wants to run a command', 60_000);
    assert.ok((await asked.dialog.innerText()).includes(`Command: ${shown}\n`), 'the question shows the command');
    assert.equal(asked.focused, 'Reject', 'the command question does not focus its safe choice');
    await shoot('3-question-command');
    await asked.dialog.locator('.monaco-button', { hasText: 'Allow this command for this workspace' }).click();
    await planRow(/Show the status.*run_command · completed/).waitFor({ timeout: 60_000 });
    assert.equal(readFileSync(join(folder, file), 'utf8'), 'hello\n');

    await commandInput(page, 'Task Planner: Command allow rules', 'Task Planner: Command allow rules');
    const rule = page.locator('.quick-input-list .monaco-list-row', { hasText: `runs "${shown}" exactly` }).first();
    await rule.waitFor({ timeout: 15_000 });
    assert.match(await rule.innerText(), new RegExp(`this workspace[\\s\\S]*runs "${shown}" exactly as written without asking`));
    await shoot('3-allow-rules');
    await page.keyboard.press('Escape');

    model.enqueue(planReply('Show the status again', [step('C1', 'Show the status', 'run_command', { argv: status })]));
    await planAndStart('Show git status again', 'C1');
    await planPanelFrame(page).getByText(`Runs without asking: allowed by the rule "${shown}".`).first().waitFor({ timeout: 60_000 });
    await planRow(/run_command · completed/).waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'the allowed command asked');
    await shoot('3-allowed-ran');

    model.enqueue(
      planReply('Status into a file', [
        step('C1', 'Show the status into x', 'run_command', { argv: [...status, '--output=x'] }, [], { critical: false }),
      ]),
    );
    await planAndStart('Show git status into a file x', 'C1');
    const first = await dialogShown(page, `${shown} --output=x`, 60_000);
    assert.equal(first.focused, 'Reject');
    // Cancel leaves the question waiting in the status bar, which names it alone (it said "1 more waiting"), and reopens it.
    await page.keyboard.press('Escape');
    await first.dialog.waitFor({ state: 'detached', timeout: 15_000 });
    const waitingItem = page.locator('.statusbar-item', { hasText: 'Approval needed' }).first();
    await waitingItem.waitFor({ timeout: 15_000 });
    // The host takes the cancel a moment after the dialog closes: the count it then shows must not have grown.
    const miscounted = await page.locator('.statusbar-item', { hasText: 'more waiting' }).first().waitFor({ timeout: 5_000 }).then(() => true, () => false);
    assert.equal(miscounted, false, `the one question waiting was counted as one more: ${await waitingItem.innerText()}`);
    await waitingItem.click();
    const again = await dialogShown(page, `${shown} --output=x`, 60_000);
    assert.equal(again.focused, 'Reject');
    await shoot('3-question-output');
    // A stray Enter rejects.
    await page.keyboard.press('Enter');
    await again.dialog.waitFor({ state: 'detached', timeout: 15_000 });
    await planRow(/Show the status into x.*run_command · rejected by you/).waitFor({ timeout: 30_000 });
    assert.equal(existsSync(join(folder, 'x')), false, 'git status --output=x ran');
    await shoot('3-output-rejected');
  });

  it('4. Undo from here in the Plan tree takes back that step and the one after it, and keeps the one before', async () => {
    model.enqueue(
      planReply('Three files', [
        step('S1', 'Write one', 'write_file', { path: 'one.txt', content: 'one\n' }),
        step('S2', 'Write two', 'write_file', { path: 'two.txt', content: 'two\n' }, ['S1']),
        step('S3', 'Write three', 'write_file', { path: 'three.txt', content: 'three\n' }, ['S2']),
      ]),
    );
    await planAndStart('Write one, two and three', 'S1');
    await approveDiff('S1', /^one\.txt \(create, proposed\) · S1 Write one/);
    await approveDiff('S2', /^two\.txt \(create, proposed\) · S2 Write two/);
    await approveDiff('S3', /^three\.txt \(create, proposed\) · S3 Write three/);
    await planRow(/Write three.*write_file · completed/).waitFor({ timeout: 60_000 });
    assert.equal(await rows().filter({ hasText: /write_file · completed/ }).count(), 3);

    const undo = page.locator('.context-view .action-label', { hasText: /^Undo from here$/ });
    // The menu offers Undo from here once the run is no longer active (a context key the editor sets a moment after the
    // rows show it completed): a loaded clean clone's menu opened before that held "Open result" alone. Opened again.
    for (let attempt = 1; ; attempt++) {
      await planRow('Write two').click({ button: 'right' });
      if (await undo.waitFor({ timeout: 5_000 }).then(() => true, () => false)) break;
      assert.ok(attempt < 5, 'the context menu of a completed step never offered Undo from here');
      await page.keyboard.press('Escape');
    }
    await shoot('4-menu');
    // A click that lands while the menu is still settling is ignored by it: click until the menu closes.
    for (let attempt = 1; await undo.isVisible(); attempt++) {
      assert.ok(attempt <= 5, 'the context menu ignored five clicks on Undo from here');
      await undo.click({ timeout: 5_000 }).catch(() => undefined);
    }
    // Files the run created are said to be deleted (a newcomer read "go back to how they were before the run" as kept).
    assert.match((await answerDialog(page, 'Undo step S2', 'Undo from here')).text, /These files, which the run created, will be deleted: two\.txt, three\.txt\./);
    await notification(page, 'from step S2: Undo removed three.txt and two.txt, which the run created.');
    assert.equal(readFileSync(join(folder, 'one.txt'), 'utf8'), 'one\n', 'the step before was undone');
    assert.equal(existsSync(join(folder, 'two.txt')), false);
    assert.equal(existsSync(join(folder, 'three.txt')), false, 'the step depending on it was kept');
    await shoot('4-undone-from-here');
  });

  it('5. write_file into .task-planner/ or .git/ is refused, saying why, without telling to use a relative path', async () => {
    model.enqueue(
      planReply('Protected places', [
        step('P1', 'Note in the journal folder', 'write_file', { path: '.task-planner/note.txt', content: 'x\n' }, [], { critical: false }),
        step('P2', 'Add a git hook', 'write_file', { path: '.git/hooks/post-commit', content: '#!/bin/sh\necho hi\n' }, [], { critical: false }),
      ]),
    );
    await planAndStart('Write a note into .task-planner and a hook into .git', 'P1');
    // A non-critical step that failed shows as skipped, or as failed with the run going on without it.
    await planRow(/Add a git hook.*write_file · (skipped|failed)/).waitFor({ timeout: 60_000 });
    await planRow(/Note in the journal folder.*write_file · (skipped|failed)/).waitFor({ timeout: 30_000 });
    // The panel's text lives in its element's shadow root, which only the locators' text search reads.
    const panel = planPanelFrame(page);
    for (const refusal of [
      'Refused path ".task-planner/note.txt": it is inside .task-planner, where Task Planner keeps its run journals, snapshots and temporary files: tools never change files there.',
      'Refused path ".git/hooks/post-commit": files inside .git are managed by git and are never changed by tools.',
    ]) {
      await panel.getByText(refusal).first().waitFor({ timeout: 30_000 });
    }
    assert.equal(await panel.getByText('Use a path relative to the workspace root').count(), 0, 'the refusal tells to do what the step already did');
    assert.equal(existsSync(join(folder, '.task-planner', 'note.txt')), false);
    assert.equal(existsSync(join(folder, '.git', 'hooks', 'post-commit')), false);
    await shoot('5-protected-refused');
  });
});
