// End-to-end: a folder's .vscode/mcp.json written outside the editor (as `echo > .vscode/mcp.json` in a terminal would)
// is noticed without a reload (issue 28 item 9), in the second folder of a multi-root workspace:
// 1. written after the servers were first asked for, its server is offered at the next "MCP servers", after asking;
// 2. the attack: the same server name with another command line, written behind the user's back, starts nothing by
//    itself, and the next start asks again naming the new command line (the earlier Allow does not carry over);
// 3. a malformed file is said at once in a notification naming the file, and nothing crashes.
// Screenshots in test-results/screenshots/mcp-watch/.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { notification, runCommand, screenshotIfFailed } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'mcp-watch');
const fixtureServer = join(root, 'test', 'fixtures', 'mcp', 'misbehavingServer.cjs');

/** A stdio server that writes `marker` (holding `text`) in its working folder, then serves the fixture's tools. */
const marking = (marker: string, text: string): object => ({
  type: 'stdio',
  command: process.execPath,
  args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, ${JSON.stringify(text)}); require(${JSON.stringify(fixtureServer)});`],
});

describe('MCP: .vscode/mcp.json changed outside the editor (browser workbench, multi-root)', function () {
  this.timeout(300_000);
  let workbench: DemoWorkbench | undefined;
  let page: Page;
  let web: string;

  const writeMcpJson = (text: string): void => {
    mkdirSync(join(web, '.vscode'), { recursive: true });
    writeFileSync(join(web, '.vscode', 'mcp.json'), text);
  };
  const startQuestion = () => page.locator('.monaco-dialog-box', { hasText: 'Start the MCP server "notes"' }).first();
  const serverRow = () => page.locator('.quick-input-list .monaco-list-row', { hasText: 'notes' }).first();

  before(async () => {
    workbench = await openDemoWorkbench({ name: 'mcp-watch', multiRoot: ['api', 'web'], screenshots, openView: false });
    page = workbench.page;
    web = join(workbench.folder, 'web');
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots);
  });

  after(async () => {
    await workbench?.close();
  });

  it('1. a file written by another program is read at the next "MCP servers": its server is asked about, then runs', async () => {
    // The servers are read once before the file exists: none.
    await runCommand(page, 'Task Planner: MCP servers');
    await notification(page, /No MCP servers are configured/);
    writeMcpJson(JSON.stringify({ servers: { notes: marking('started.txt', 'first') } }, null, 2));
    await page.waitForTimeout(2_000);
    await runCommand(page, 'Task Planner: MCP servers');
    const question = startQuestion();
    await question.waitFor({ timeout: 60_000 });
    assert.match((await question.innerText()).replace(/\s+/g, ' '), /defined in web\/\.vscode\/mcp\.json/);
    // The question opens by itself when a plan needs the server: a stray Enter must not start the repository's program.
    await page.waitForFunction(() => document.activeElement?.closest('.monaco-dialog-box') !== null, undefined, { timeout: 5_000 });
    assert.equal(await page.evaluate(() => (document.activeElement?.textContent ?? '').trim()), 'Do not start', 'the question focuses Allow');
    await page.screenshot({ path: join(screenshots, '1-asked.png') });
    await question.locator('.monaco-button', { hasText: 'Allow' }).click();
    await serverRow().waitFor({ timeout: 60_000 });
    assert.match((await serverRow().innerText()).replace(/\s+/g, ' '), /running · web\/\.vscode\/mcp\.json/);
    await page.screenshot({ path: join(screenshots, '1-running.png') });
    await page.keyboard.press('Escape');
    assert.equal(readFileSync(join(web, 'started.txt'), 'utf8'), 'first');
  });

  it('2. the same name with another command line starts nothing by itself, and asks again naming the new command', async () => {
    writeMcpJson(JSON.stringify({ servers: { notes: marking('pwned.txt', 'swapped') } }, null, 2));
    await page.waitForTimeout(3_000);
    assert.equal(existsSync(join(web, 'pwned.txt')), false, 'the changed server started without asking');
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'a change of the file alone asked to start a server');
    await runCommand(page, 'Task Planner: MCP servers');
    const question = startQuestion();
    await question.waitFor({ timeout: 60_000 });
    assert.match(await question.innerText(), /pwned\.txt/, 'the question does not name the new command line');
    await page.screenshot({ path: join(screenshots, '2-asked-again.png') });
    await question.locator('.monaco-button', { hasText: 'Cancel' }).click();
    await serverRow().waitFor({ timeout: 60_000 });
    assert.match((await serverRow().innerText()).replace(/\s+/g, ' '), /not allowed/);
    await page.keyboard.press('Escape');
    assert.equal(existsSync(join(web, 'pwned.txt')), false, 'the server the user did not allow started');
    // The way back, said as the question is answered (a newcomer found none).
    await notification(page, /the MCP server "notes" was not started, so a plan cannot use its tools\. To be asked again, run "Task Planner: MCP servers", pick it and choose Restart\./);
  });

  it('3. a malformed file is said at once, naming the file; "MCP servers" still answers', async () => {
    writeMcpJson('{ "servers": { "notes": ');
    const said = await notification(page, /web\/\.vscode\/mcp\.json is not valid JSON/);
    await page.screenshot({ path: join(screenshots, '3-malformed.png') });
    assert.ok(await said.isVisible());
    await runCommand(page, 'Task Planner: MCP servers');
    await notification(page, /No MCP servers are configured/);
  });
});
