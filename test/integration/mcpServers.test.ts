// MCP servers in the real extension host: the user's setting taskPlanner.mcp.servers starts server-everything (from npm)
// before planning; the planner is offered its tools, and a plan calling them runs, with structured and image results.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { TaskPlannerApi } from './testBuild/testExtension';
import { FakeOpenAiServer } from '../fakes/fakeOpenAiServer';
import { forgetFakeModel, useFakeModel } from './fakeModelSettings';
import { isAlive } from '../support/processWatch';

// This file is bundled into out/integration-XXXXXX/ under the repository.
const repository = resolve(__dirname, '..', '..');
const everything = join(repository, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/**
 * The processes of server-everything this extension host started, running now (it starts them as `node …/index.js stdio`);
 * not those of other programs (the unit tests run beside this suite).
 */
function everythingProcesses(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(everything) && startedHere(pid);
      } catch {
        return false;
      }
    });
}

/** Whether this process is an ancestor of `pid`. */
function startedHere(pid: number): boolean {
  for (let at = pid, depth = 0; at > 1 && depth < 10; depth++) {
    // The parent is the second field after the name, which is in parentheses and may hold anything.
    const stat = readFileSync(`/proc/${at}/stat`, 'utf8');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent === process.pid) return true;
    at = parent;
  }
  return false;
}

/** Whether `condition` holds within 20 s, asked every 200 ms. */
async function until(condition: () => boolean | Promise<boolean>): Promise<boolean> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 200))) {
    if (await condition()) return true;
  }
  return false;
}

/**
 * Changes the MCP timeout setting to `seconds` and holds the servers as the next planning does, again until a planning
 * started after the change runs a server process not in `held` (Task Planner hears of the change a moment later): that
 * planning's hold.
 */
async function planningAfterChange(planner: TaskPlannerApi, held: readonly number[], seconds: number): Promise<vscode.Disposable> {
  await vscode.workspace.getConfiguration('taskPlanner').update('mcp.timeoutSeconds', seconds, vscode.ConfigurationTarget.Global);
  let next: vscode.Disposable | undefined;
  const started = await until(async () => {
    next?.dispose();
    next = await planner.holdMcpServers();
    return everythingProcesses().some((pid) => !held.includes(pid));
  });
  if (started && next) return next;
  next?.dispose();
  assert.fail('no planning after the change started the servers again');
}

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
    await useFakeModel(server);
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
    await forgetFakeModel();
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

  it('a change of the MCP settings during a planning stops none of the servers it holds; they stop once it has ended', async () => {
    const planner = await api();
    const planning = await planner.holdMcpServers();
    let next: vscode.Disposable | undefined;
    const held = everythingProcesses();
    assert.ok(held.length > 0, "the user's server is not running");
    try {
      next = await planningAfterChange(planner, held, 45);
      assert.deepEqual(held.filter(isAlive), held, "the held servers were stopped under the planning");
      assert.ok(planner.offeredToolNames().includes('mcp__everything__echo'));
      planning.dispose();
      assert.ok(await until(() => held.every((pid) => !isAlive(pid))), 'the servers the ended planning held are still running');
      const current = everythingProcesses();
      next?.dispose();
      assert.deepEqual(current.filter(isAlive), current, 'the servers of the configuration as it is now stopped when a planning ended');
    } finally {
      planning.dispose();
      next?.dispose();
      await config().update('mcp.timeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("a run waiting for an approval keeps its servers through a change of the MCP settings and its own write of mcp.json", async () => {
    const planner = await api();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    server.enqueue({
      kind: 'message',
      content: JSON.stringify({
        objective: 'Empty the MCP file, then echo',
        steps: [
          { id: 'W1', title: 'Empty the MCP file', kind: 'tool', dependsOn: [], tool: 'write_file', args: { path: '.vscode/mcp.json', content: '{ "servers": {} }\n' } },
          { id: 'E1', title: 'Echo', kind: 'tool', dependsOn: ['W1'], tool: 'mcp__everything__echo', args: { message: 'still here' } },
        ],
      }),
    });
    const outcome = await planner.planTask('Empty the MCP file, then echo', { accept: true });
    assert.equal(outcome.error, undefined);
    let next: vscode.Disposable | undefined;
    try {
      assert.deepEqual(await planner.nextPrompt(), { stepId: 'W1', kind: 'approval' });
      const held = everythingProcesses();
      next = await planningAfterChange(planner, held, 46);
      next.dispose();
      assert.deepEqual(held.filter(isAlive), held, 'the servers were stopped under the waiting run');
      await vscode.commands.executeCommand('taskPlanner.approve', 'W1');
      const result = await outcome.run;
      assert.equal(result?.status, 'completed', JSON.stringify(result?.metadata));
      assert.match(JSON.stringify(result.results['E1']), /still here/);
      assert.ok(await until(() => held.every((pid) => !isAlive(pid))), 'the servers the ended run held are still running');
    } finally {
      next?.dispose();
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder, '.vscode', 'mcp.json')).then(undefined, () => undefined);
      await config().update('mcp.timeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
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
        // Heard here too, after Task Planner's older watcher (bounded, in case none comes): a planning reads the file as it is.
        // An event that reaches Task Planner later, during the planning, stops none of the servers that planning holds.
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
        server.enqueue({ kind: 'message', content: JSON.stringify({ objective: 'List', steps: [{ id: 'L1', title: 'List the files', kind: 'tool', dependsOn: [], tool: 'list_files', args: {} }] }) });
        const asked = server.chatRequests.length;
        const outcome = await planner.planTask(`List the files (${target})`, { accept: false });
        assert.equal(outcome.error, undefined);
        const offered = JSON.stringify(server.chatRequests.slice(asked));
        assert.ok(!offered.includes('mcp__outside__'), `the servers of ${target} were offered`);
        assert.ok(offered.includes('mcp__everything__'), "the user's own server is not offered");
      }
    } finally {
      rmSync(link, { force: true });
      rmSync(outside, { recursive: true, force: true });
      await config().update('mcp.timeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
