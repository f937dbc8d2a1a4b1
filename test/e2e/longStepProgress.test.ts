// End-to-end (issue 29, from the seeds): a long command step reports how far it is, 0–100, from its own output, and the
// Plan tree's row and the status bar show the percentage rising while it runs. The command is a Node script printing
// pytest-style "[ n%]" lines, allowed in the user's settings so nothing asks. Screenshots in
// test-results/screenshots/long-step-progress/.
import * as assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { notification, runPlanFileFromTitleBar, screenshotIfFailed } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'long-step-progress');

/**
 * Ten pytest-style lines, one every 1.2 s: longer than the engine's 500 ms throttle, so each one shows, and long enough
 * in all for a loaded machine's workbench to draw three of them (at 800 ms a clean clone once saw none).
 */
const script = `for (let i = 1; i <= 10; i++) setTimeout(() => console.log('tests/test_' + i + '.py .    [' + String(i * 10).padStart(3) + '%]'), i * 1200);\n`;

describe('A long step shows its progress in the Plan tree (browser workbench)', function () {
  this.timeout(240_000);
  let workbench: DemoWorkbench | undefined;
  let page: Page;

  before(async () => {
    workbench = await openDemoWorkbench({
      name: 'long-step-progress',
      screenshots,
      server: { userSettings: { 'taskPlanner.commands.allowed': [['node', 'slowTests.js']] } },
      files: {
        'slowTests.js': script,
        'plans/slow.plan.json': {
          objective: 'Run the slow tests',
          steps: [{ id: 'T1', title: 'Run the slow tests', kind: 'tool', tool: 'run_command', args: { argv: ['node', 'slowTests.js'] }, dependsOn: [] }],
        },
      },
    });
    page = workbench.page;
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots);
  });

  after(async () => {
    await workbench?.close();
  });

  it('the running step\'s row starts with its percentage, rising, and names the command; the status bar says it too; it is gone once done', async () => {
    await runPlanFileFromTitleBar(page, 'slow.plan.json');
    const row = page
      .locator('.sidebar .pane')
      .filter({ has: page.locator('.pane-header', { hasText: /^\s*Plan/ }) })
      .locator('.monaco-list-row')
      .filter({ hasText: 'Run the slow tests' })
      .first();
    const seen: number[] = [];
    let last: string | undefined;
    let shot = false;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const text = (await row.innerText().catch(() => '')).replace(/\s+/g, ' ');
      last = text;
      const percent = /(\d{1,3})% · run_command · running · running node slowTests\.js/.exec(text)?.[1];
      if (percent !== undefined && seen.at(-1) !== Number(percent)) seen.push(Number(percent));
      if (!shot && percent !== undefined && Number(percent) >= 20 && Number(percent) <= 50) {
        shot = true;
        await page.mouse.move(700, 700);
        await page.screenshot({ path: join(screenshots, 'running-with-percent.png') });
        const status = (await page.locator('.statusbar-item', { hasText: 'Task Planner' }).first().innerText()).replace(/\s+/g, ' ');
        assert.match(status, /Task Planner 0\/1 · T1 \d{1,3}%/);
      }
      if (/completed/.test(text) || Date.now() > deadline) break;
      await page.waitForTimeout(150);
    }
    assert.ok(seen.length >= 3, `the row showed a rising percentage, it showed ${seen.join(', ') || 'none'}; it last read "${last ?? ''}"`);
    assert.deepEqual([...seen].sort((a, b) => a - b), seen, `rising: ${seen.join(', ')}`);
    assert.ok(shot, 'a screenshot was taken while it ran');
    await notification(page, /completed in/);
    const done = (await row.innerText()).replace(/\s+/g, ' ');
    assert.doesNotMatch(done, /%/, 'no percentage once the step ended');
    await page.mouse.move(700, 700);
    await page.screenshot({ path: join(screenshots, 'completed.png') });
  });
});
