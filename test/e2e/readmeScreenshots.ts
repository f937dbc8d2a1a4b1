// Takes the README's pictures in the browser workbench (code-server, chromium) against the fake OpenAI-compatible server:
// the request, the plan panel's review, a change waiting for approval and the finished run's summary, as raw screenshots in
// test-results/screenshots/readme/ (git-ignored). Usage: npm run build && npx tsx test/e2e/readmeScreenshots.ts
// docs/images/ holds what the README shows, made from them with ImageMagick (Debian's imagemagick package), run in that folder:
//   convert 2-review.png -strip -dither None -colors 96 PNG8:../../../docs/images/plan-panel.png
//   montage -font DejaVu-Sans -pointsize 18 -background white -label '1. Describe the task (Plan task)' 1-request.png
//     -label '2. Review and edit the plan, then Start' 2-review.png -label '3. Approve each change in the diff editor' 3-approve.png
//     -label '4. Done: the changed files, and Undo run' 4-summary.png -geometry 640x400+10+6 -tile 2x2 -strip flow.png
//   convert flow.png -dither None -colors 128 PNG8:../../../docs/images/flow.png
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { FakeOpenAiServer } from '../fakes/fakeOpenAiServer';
import { openDemoWorkbench } from './demoWorkbench';
import { stopSharedHosts } from './sharedCodeServer';
import { commandInput, planPanelFrame, runCommand } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'readme');
const request = 'Add a remove command to the CLI, then run the tests';

const demo = (path: string): string => readFileSync(join(root, 'test', 'fixtures', 'demo-workspace', path), 'utf8');
/** `text` with each [search, replace] applied once; throws when the demo workspace no longer has a search text. */
const changed = (text: string, edits: [string, string][]): string =>
  edits.reduce((result, [search, replace]) => {
    if (!result.includes(search)) throw new Error(`the demo workspace changed: "${search}" is gone`);
    return result.replace(search, replace);
  }, text);
const notes = changed(demo('src/notes.js'), [
  ['/** Notes whose text', '/** Returns a new list without the note whose id is `id`. */\nexport function removeNote(notes, id) {\n  return notes.filter((note) => note.id !== id);\n}\n\n/** Notes whose text'],
]);
const cli = changed(demo('src/cli.js'), [
  ['import { addNote, loadNotes, saveNotes, searchNotes }', 'import { addNote, loadNotes, removeNote, saveNotes, searchNotes }'],
  ['  default:', "  case 'remove':\n    saveNotes(file, removeNote(loadNotes(file), Number(rest[0])));\n    break;\n  default:"],
  ['| notes search <query>', '| notes search <query> | notes remove <id>'],
]);
/** What the model answers to the planning request: the plan the pictures show. */
const plan = {
  objective: 'Add a remove command to the notes CLI and check that the tests still pass',
  steps: [
    { id: 'S1', title: 'Read the command line', kind: 'tool', tool: 'read_file', args: { path: 'src/cli.js' }, dependsOn: [] },
    {
      id: 'S2',
      title: 'Add removeNote to the notes module',
      kind: 'tool',
      tool: 'write_file',
      args: { path: 'src/notes.js', content: notes },
      dependsOn: [],
      checks: [{ kind: 'file_contains', path: 'src/notes.js', text: 'export function removeNote' }],
    },
    {
      id: 'S3',
      title: 'Add the remove command to the CLI',
      kind: 'tool',
      tool: 'write_file',
      args: { path: 'src/cli.js', content: cli },
      dependsOn: ['S1', 'S2'],
      checks: [{ kind: 'file_contains', path: 'src/cli.js', text: "case 'remove'" }],
    },
    {
      id: 'S4',
      title: 'Run the tests',
      kind: 'tool',
      tool: 'run_command',
      args: { argv: ['node', '--test', 'test/'] },
      dependsOn: ['S3'],
      onFailure: 'retry',
      maxAttempts: 2,
    },
  ],
};

/** Closes the Chat side bar and clears notifications, so a picture shows Task Planner only. */
async function tidy(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications');
  const chat = page.locator('.part.auxiliarybar');
  if (await chat.isVisible()) {
    await page.keyboard.press('Control+Alt+B'); // View: Toggle Secondary Side Bar Visibility
    await chat.waitFor({ state: 'hidden', timeout: 10_000 });
  }
}

/** Saves the page as `name`.png once what it shows has settled. */
async function shoot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(700);
  await page.screenshot({ path: join(screenshots, `${name}.png`) });
  console.log(`  ${name}.png`);
}

/** The Approve button in the title of the active diff editor, once the diff of step `stepId` is open. */
async function approveButton(page: Page, stepId: string): Promise<Locator> {
  await page.locator('.tab.active', { hasText: stepId }).waitFor({ timeout: 30_000 });
  await page.locator('.monaco-diff-editor').first().waitFor();
  return page.locator('.editor-group-container.active .action-label[aria-label^="Approve"]').first();
}

async function main(): Promise<void> {
  mkdirSync(screenshots, { recursive: true });
  const model = new FakeOpenAiServer();
  await model.start();
  model.enqueue({ kind: 'message', content: JSON.stringify(plan) });
  const workbench = await openDemoWorkbench({
    name: 'readme',
    screenshots,
    files: { '.vscode/settings.json': { 'taskPlanner.llm.provider': 'openai', 'taskPlanner.llm.baseUrl': model.baseURL, 'taskPlanner.llm.model': 'a local model' } },
    viewport: { width: 1280, height: 800 },
  });
  const { page } = workbench;
  try {
    // the first-run notice naming the planner comes once the model is asked for; it is cleared with the others
    await page.locator('.notification-toast', { hasText: 'Task Planner plans with' }).waitFor({ timeout: 20_000 }).catch(() => undefined);
    await tidy(page);
    await commandInput(page, 'Plan task', 'Task Planner: Plan task');
    await page.keyboard.type(request, { delay: 5 });
    await shoot(page, '1-request');
    await page.keyboard.press('Enter');
    const panel = planPanelFrame(page);
    const review = panel.locator('plan-panel-app[data-mode="review"]');
    await review.locator('li.step[data-step-id="S4"]').waitFor({ timeout: 30_000 });
    await tidy(page);
    await shoot(page, '2-review');
    await review.locator('vscode-button[data-action="start"]').click();
    await (await approveButton(page, 'S2')).waitFor();
    await tidy(page);
    await shoot(page, '3-approve');
    await (await approveButton(page, 'S2')).click();
    await (await approveButton(page, 'S3')).click();
    await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Run' }).first().click({ timeout: 30_000 });
    await runCommand(page, 'Task Planner: Show plan');
    await panel.locator('plan-panel-app[data-mode="run"]').waitFor({ timeout: 30_000 });
    await panel.getByText('Undo run').first().waitFor({ timeout: 60_000 });
    await tidy(page);
    await shoot(page, '4-summary');
  } finally {
    await workbench.close();
    await stopSharedHosts();
    await model.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
