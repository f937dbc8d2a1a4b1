// MCP servers in the real extension host: the user's setting taskPlanner.mcp.servers starts server-everything (from npm)
// before planning; the planner is offered its tools, and a plan calling them runs, with structured and image results.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { TaskPlannerApi } from './testBuild/testExtension';
import { FakeOpenAiServer } from '../fakes/fakeOpenAiServer';

// This file is bundled into out/integration-XXXXXX/ under the repository.
const repository = resolve(__dirname, '..', '..');
const everything = join(repository, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

async function api(): Promise<TaskPlannerApi> {
  const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
  assert.ok(extension);
  return extension.activate();
}

describe('MCP servers in the editor (server-everything from npm, fake OpenAI server)', function () {
  this.timeout(90_000);
  const server = new FakeOpenAiServer();
  const config = () => vscode.workspace.getConfiguration('taskPlanner');

  before(async () => {
    await server.start();
    await config().update('llm.provider', 'openai', vscode.ConfigurationTarget.Workspace);
    await config().update('llm.baseUrl', server.baseURL, vscode.ConfigurationTarget.Workspace);
    await config().update(
      'mcp.servers',
      {
        servers: { everything: { command: process.execPath, args: [everything, 'stdio'], allowedTools: ['get-structured-content', 'get-tiny-image', 'echo'] } },
      },
      vscode.ConfigurationTarget.Global,
    );
  });

  after(async () => {
    await config().update('mcp.servers', undefined, vscode.ConfigurationTarget.Global);
    await config().update('llm.provider', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('llm.baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
    await server.close();
  });

  it('"Run plan file" starts the servers before checking the file, so a plan file naming their tools runs', async () => {
    await api();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const uri = vscode.Uri.joinPath(folder, 'echo.plan.json');
    const plan = { objective: 'Echo', steps: [{ id: 'E1', title: 'Echo', tool: 'mcp__everything__echo', args: { message: 'from a plan file' } }] };
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify(plan)));
    try {
      const editor = await vscode.window.showTextDocument(uri);
      const started = await vscode.commands.executeCommand<{ run: Promise<{ status: string; results: Record<string, unknown> } | undefined> } | undefined>(
        'taskPlanner.runPlanFile',
        editor.document.uri,
      );
      assert.ok(started, 'the plan file was refused: its MCP tool was not known');
      const result = await started.run;
      assert.equal(result?.status, 'completed');
      assert.match(JSON.stringify(result.results['E1']), /from a plan file/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.workspace.fs.delete(uri);
    }
  });

  it("starts the user's server before planning, offers its tools to the planner, and runs a plan calling them", async () => {
    const planner = await api();
    server.enqueue({
      kind: 'message',
      content: JSON.stringify({
        objective: 'Weather and logo',
        steps: [
          { id: 'M1', title: 'Get the weather', kind: 'tool', dependsOn: [], tool: 'mcp__everything__get-structured-content', args: { location: 'Chicago' } },
          { id: 'M2', title: 'Get the logo', kind: 'tool', dependsOn: [], tool: 'mcp__everything__get-tiny-image', args: {} },
        ],
      }),
    });
    const outcome = await planner.planTask('Get the weather and the logo', { accept: true });
    assert.ok(JSON.stringify(server.chatRequests).includes('mcp__everything__get-structured-content'), 'the planner was not offered the MCP tools');
    assert.equal(outcome.error, undefined);
    const result = await outcome.run;
    assert.equal(result?.status, 'completed', JSON.stringify(result?.metadata));
    const weather = result.results['M1'] as { structuredContent?: Record<string, unknown> };
    assert.deepEqual(Object.keys(weather.structuredContent ?? {}).sort(), ['conditions', 'humidity', 'temperature']);
    const logo = result.results['M2'] as { media?: unknown };
    assert.deepEqual(logo.media, [{ type: 'image', mimeType: 'image/png', bytes: 4033 }]);
  });

  it(".vscode/mcp.json linked out of the folder or to /dev/zero is not read: its servers are never offered, and planning goes on", async () => {
    const planner = await api();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    const outside = mkdtempSync(join(tmpdir(), 'mcp-json-outside-'));
    writeFileSync(join(outside, 'mcp.json'), JSON.stringify({ servers: { outside: { command: process.execPath, args: [everything, 'stdio'] } } }));
    const link = join(folder, '.vscode', 'mcp.json');
    mkdirSync(join(folder, '.vscode'), { recursive: true });
    try {
      for (const [round, target] of [join(outside, 'mcp.json'), '/dev/zero'].entries()) {
        // Task Planner resets its servers when it hears of the change: a late event would stop the servers this planning
        // started (its tools then not offered). Heard here too, after Task Planner's older watcher; bounded, in case none comes.
        const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.vscode/mcp.json'));
        const heard = new Promise<void>((done) => {
          const timer = setTimeout(done, 5_000);
          const hear = (): void => {
            clearTimeout(timer);
            done();
          };
          watcher.onDidCreate(hear);
          watcher.onDidChange(hear);
        });
        rmSync(link, { force: true });
        symlinkSync(target, link);
        await heard;
        watcher.dispose();
        // A changed MCP setting makes the next planning read the configuration again.
        await config().update('mcp.timeoutSeconds', 30 + round, vscode.ConfigurationTarget.Global);
        // A second planning when the first did not offer the user's server: on a loaded machine the file's event reached
        // Task Planner after the bounded wait above, and its reset stopped the servers that planning had started (a
        // clean clone). The link's servers are offered by neither.
        for (let planning = 1; ; planning++) {
          server.enqueue({ kind: 'message', content: JSON.stringify({ objective: 'List', steps: [{ id: 'L1', title: 'List the files', kind: 'tool', dependsOn: [], tool: 'list_files', args: {} }] }) });
          const asked = server.chatRequests.length;
          const outcome = await planner.planTask(`List the files (${target})`, { accept: false });
          assert.equal(outcome.error, undefined);
          const offered = JSON.stringify(server.chatRequests.slice(asked));
          assert.ok(!offered.includes('mcp__outside__'), `the servers of ${target} were offered`);
          if (offered.includes('mcp__everything__')) break;
          assert.ok(planning < 2, "the user's own server is not offered, in two plannings");
        }
      }
    } finally {
      rmSync(link, { force: true });
      rmSync(outside, { recursive: true, force: true });
      await config().update('mcp.timeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
