// End-to-end: "Always allow in this workspace" for an MCP tool. The user's setting starts server-everything (from
// npm) with no allowedTools; a plan file calls its echo tool twice, one step after the other. The first call asks in
// a modal dialog, answered "Always allow in this workspace"; the second runs without a dialog. "Task Planner: MCP
// servers" then offers to ask before every call again, and after that the next run asks again. Screenshots in
// test-results/screenshots/mcp-always-allow/.
import * as assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { notification, runCommand, runPlanFileFromTitleBar, screenshotIfFailed } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'mcp-always-allow');
const everything = join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

const plan = {
  objective: 'Echo twice',
  steps: [
    { id: 'E1', title: 'Echo once', tool: 'mcp__everything__echo', args: { message: 'first' } },
    { id: 'E2', title: 'Echo again', tool: 'mcp__everything__echo', args: { message: 'second' }, dependsOn: ['E1'] },
  ],
};

describe('MCP tool calls: "Always allow in this workspace" (browser workbench, server-everything)', function () {
  let workbench: DemoWorkbench | undefined;
  let page: Page;

  before(async function () {
    workbench = await openDemoWorkbench({
      name: 'mcp-always-allow',
      screenshots,
      openView: false,
      files: { 'plans/echo.plan.json': plan },
      server: { userSettings: { 'taskPlanner.mcp.servers': { servers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } } } },
    });
    page = workbench.page;
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots);
  });

  after(async () => {
    await workbench?.close();
  });

  /** Runs the plan file from its title bar. */
  const runPlanFile = (): Promise<void> => runPlanFileFromTitleBar(page, 'echo.plan.json');
  const dialog = () => page.locator('.monaco-dialog-box', { hasText: 'wants to call echo (MCP server "everything")' });

  it('asks once, remembers "Always allow in this workspace", and runs the second call without asking', async () => {
    await runPlanFile();
    const first = dialog().first();
    await first.waitFor({ timeout: 60_000 });
    assert.match(await first.innerText(), /every later call of this tool here without asking/);
    await page.screenshot({ path: join(screenshots, 'question.png') });
    await first.locator('.monaco-button', { hasText: 'Always allow in this workspace' }).click();
    await notification(page, /completed in .*2 of 2 steps completed/);
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'the second call asked again');
    await page.screenshot({ path: join(screenshots, 'completed.png') });
  });

  it('"MCP servers" makes every call ask again; the next run asks', async () => {
    await runCommand(page, 'Task Planner: MCP servers');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'everything' }).first();
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    const askAgain = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Ask before every call again (1 tool always allowed here)' }).first();
    await askAgain.waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(screenshots, 'ask-again.png') });
    await askAgain.click();
    await notification(page, /every call of the tool of "everything" asks again/);
    await runPlanFile();
    const asked = dialog().first();
    await asked.waitFor({ timeout: 60_000 });
    await asked.locator('.monaco-button', { hasText: /^Reject$/ }).click();
  });
});
