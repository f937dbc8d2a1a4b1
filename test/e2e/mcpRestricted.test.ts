// End-to-end: a workspace's MCP server in Restricted Mode. The demo workspace's .vscode/mcp.json defines a server
// whose only effect, when started, is to write a marker file; the folder opens untrusted (trust kept on, no trust
// dialog). "Task Planner: MCP servers" must list it as not started with the Restricted Mode reason, and the marker must
// never appear: no program of an untrusted workspace runs, and nothing was asked.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { openDemoWorkbench, type DemoWorkbench } from './demoWorkbench';
import { runCommand, screenshotIfFailed } from './workbench';

const root = resolve(__dirname, '..', '..');
const screenshots = join(root, 'test-results', 'screenshots', 'e2e');

describe("A workspace's MCP server in Restricted Mode (workspace trust on, browser workbench)", function () {
  let workbench: DemoWorkbench | undefined;
  let page: Page;
  let marker: string;

  before(async function () {
    workbench = await openDemoWorkbench({
      name: 'mcp-restricted',
      screenshots,
      screenshotPrefix: 'mcp-restricted-',
      files: {
        '.vscode/mcp.json': {
          servers: {
            // Started, it would write started.txt in the workspace folder and exit.
            marker: { type: 'stdio', command: process.execPath, args: ['-e', "require('fs').writeFileSync('started.txt', 'started')"], cwd: '${workspaceFolder}' },
          },
        },
      },
      server: { workspaceTrust: true },
      openView: false,
    });
    page = workbench.page;
    marker = join(workbench.folder, 'started.txt');
  });

  after(async function () {
    await workbench?.close();
  });

  afterEach(async function () {
    await screenshotIfFailed(workbench?.page, this.currentTest, screenshots, 'mcp-restricted-');
  });

  it('lists the server as not started, says why and what to do, asks nothing and runs nothing', async () => {
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 30_000 });
    await runCommand(page, 'Task Planner: MCP servers');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'marker' }).first();
    await row.waitFor({ timeout: 30_000 });
    const text = (await row.innerText()).replace(/\s+/g, ' ');
    await page.screenshot({ path: join(screenshots, 'mcp-restricted-servers.png') });
    assert.match(text, /Restricted Mode \(not trusted\).*Trust the workspace/);
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'a start question was shown in Restricted Mode');
    await page.keyboard.press('Escape');
    assert.equal(existsSync(marker), false, 'the workspace server ran in Restricted Mode');
  });
});
