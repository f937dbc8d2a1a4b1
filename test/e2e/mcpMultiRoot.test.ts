// End-to-end: MCP servers of a multi-root workspace (folders `api` and `web`, each with its own .vscode/mcp.json).
// "Task Planner: MCP servers" asks to start each folder's server in a dialog naming its file, starts them, and each
// runs in its own folder: both write `started.txt` where they run, then serve the tools of the test fixture server,
// whose hostile tool name is listed with its control characters escaped. A server name both folders define is the
// first folder's; the user is told the second was left out.
// Screenshots in test-results/screenshots/mcp-multi-root/.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { notification, runCommand, screenshotIfFailed } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'mcp-multi-root');
const fixtureServer = join(root, 'test', 'fixtures', 'mcp', 'misbehavingServer.cjs');

/** A server that writes `started.txt` (holding `name`) in its working folder, then serves the fixture's tools. */
const marking = (name: string): object => ({
  type: 'stdio',
  command: process.execPath,
  args: ['-e', `require('fs').writeFileSync('started.txt', ${JSON.stringify(name)}); require(${JSON.stringify(fixtureServer)});`],
});

/** A folder's `.vscode/mcp.json`: its own `<name>-notes`, and a `shared` server both folders define. */
const mcpJson = (name: string): object => ({ servers: { [`${name}-notes`]: marking(name), shared: { type: 'stdio', command: process.execPath, args: [fixtureServer] } } });

describe('MCP servers of a multi-root workspace (browser workbench)', function () {
  let workbench: DemoWorkbench | undefined;
  let page: Page;

  before(async () => {
    workbench = await openDemoWorkbench({
      name: 'mcp-multi-root',
      multiRoot: ['api', 'web'],
      screenshots,
      openView: false,
      files: { 'api/.vscode/mcp.json': mcpJson('api'), 'web/.vscode/mcp.json': mcpJson('web') },
    });
    page = workbench.page;
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots);
  });

  after(async () => {
    await workbench?.close();
  });

  it("asks for each folder's server naming its file, and starts each in its own folder", async () => {
    await runCommand(page, 'Task Planner: MCP servers');
    // The servers start together: the second question shows as soon as the first is answered.
    const asked: string[] = [];
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'Start the MCP server' }).first();
    const end = Date.now() + 60_000;
    while (asked.length < 3 && Date.now() < end) {
      await dialog.waitFor({ timeout: 60_000 });
      const text = (await dialog.innerText()).replace(/\s+/g, ' ');
      if (asked.includes(text)) {
        await page.waitForTimeout(100);
        continue;
      }
      asked.push(text);
      if (asked.length === 1) await page.screenshot({ path: join(screenshots, 'start-question.png') });
      await dialog.locator('.monaco-button', { hasText: 'Allow' }).click();
    }
    await page.locator('.monaco-dialog-box').waitFor({ state: 'detached', timeout: 15_000 });
    const questionOf = (name: string): string => asked.find((text) => text.includes(`"${name}-notes"`)) ?? '';
    assert.match(questionOf('api'), /defined in api\/\.vscode\/mcp\.json/, `the questions: ${JSON.stringify(asked)}`);
    assert.match(questionOf('web'), /defined in web\/\.vscode\/mcp\.json/, `the questions: ${JSON.stringify(asked)}`);
    assert.equal(asked.filter((text) => text.includes('"shared"')).length, 1, 'the second "shared" was asked about');
    // The second folder's "shared" is left out, and the user is told so (not only the log).
    await notification(page, /MCP server "shared" of web\/\.vscode\/mcp\.json was ignored: api\/\.vscode\/mcp\.json defines a server of that name; give one of them another name/);
    for (const name of ['api', 'web']) {
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: `${name}-notes` }).first();
      await row.waitFor({ timeout: 30_000 });
      const text = (await row.innerText()).replace(/\s+/g, ' ');
      assert.match(text, new RegExp(`running · ${name}/\\.vscode/mcp\\.json.*14 tools`));
      // The fixture server names a tool "bad<ESC>[31mname<BEL>": its controls are shown escaped.
      assert.ok(text.includes('bad\\u001b[31mname\\u0007'), `the tool names: ${text}`);
    }
    await page.screenshot({ path: join(screenshots, 'servers.png') });
    await page.keyboard.press('Escape');
    const folder = workbench!.folder;
    assert.equal(readFileSync(join(folder, 'api', 'started.txt'), 'utf8'), 'api');
    assert.equal(readFileSync(join(folder, 'web', 'started.txt'), 'utf8'), 'web');
    assert.equal(existsSync(join(folder, 'started.txt')), false, 'a server ran outside its folder');
  });
});
