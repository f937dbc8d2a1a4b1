// A multi-root workspace (two folders, `api` and `web`, opened from a .code-workspace file; see runIntegration.ts):
// Plan task asks which folder or takes the active editor's, the run is confined to that folder and refuses paths of
// the other in words naming its own, and runs of the two folders go on at once.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TaskPlannerApi } from './testBuild/testExtension';
import { FakeOpenAiServer } from '../fakes/fakeOpenAiServer';
import { forgetFakeModel, useFakeModel } from './fakeModelSettings';

function folderNamed(name: string): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.name === name);
  assert.ok(folder, `the workspace has no folder ${name}`);
  return folder;
}

const pathIn = (name: string, ...parts: string[]): string => join(folderNamed(name).uri.fsPath, ...parts);

function planReply(steps: unknown[]): { kind: 'message'; content: string } {
  return { kind: 'message', content: JSON.stringify({ objective: 'multi-root test', steps }) };
}

/** A folder pick answering `name`, recording the folders it was offered. */
function picking(name: string | undefined, offered: string[][]): (folders: readonly vscode.WorkspaceFolder[]) => Promise<vscode.WorkspaceFolder | undefined> {
  return async (folders) => {
    offered.push(folders.map((folder) => folder.name));
    return name === undefined ? undefined : folders.find((folder) => folder.name === name);
  };
}

/** Every open diff editor's input showing a proposed change. */
function diffTabs(): vscode.TabInputTextDiff[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .map((tab) => tab.input)
    .filter((input): input is vscode.TabInputTextDiff => input instanceof vscode.TabInputTextDiff && input.modified.scheme === 'task-planner-proposal');
}

/** `probe`'s first truthy value, polled for up to 10 s. */
async function until<T>(probe: () => T | undefined | false): Promise<T> {
  for (let waited = 0; waited < 100; waited++) {
    const value = probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('timed out waiting');
}

describe('a multi-root workspace (two folders)', function () {
  this.timeout(60_000);
  const server = new FakeOpenAiServer();
  let planner: TaskPlannerApi;

  before(async () => {
    assert.deepEqual(
      vscode.workspace.workspaceFolders?.map((folder) => folder.name),
      ['api', 'web'],
    );
    const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
    assert.ok(extension);
    planner = await extension.activate();
    await useFakeModel(server);
  });

  after(async () => {
    await forgetFakeModel();
    await server.close();
  });

  beforeEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('asks which folder, plans and runs there, writes only there, and the Plan tree names the folder', async () => {
    const offered: string[][] = [];
    server.enqueue(planReply([{ id: 'S1', title: 'Write the note', kind: 'tool', dependsOn: [], tool: 'write_file', args: { path: 'note.txt', content: 'in web\n' } }]));
    const outcome = await planner.planTask('Write a note', { accept: true, pickFolder: picking('web', offered) });
    assert.deepEqual(offered, [['api', 'web']]);
    assert.deepEqual(planner.planTreeNodes()[0] && { label: planner.planTreeNodes()[0]?.label, contextValue: planner.planTreeNodes()[0]?.contextValue }, {
      label: 'web',
      contextValue: 'workspaceFolder',
    });
    assert.deepEqual(await planner.nextPrompt(), { stepId: 'S1', kind: 'approval' });
    await vscode.commands.executeCommand('taskPlanner.approve', 'S1');
    const result = await outcome.run;
    assert.equal(result?.status, 'completed');
    assert.equal(readFileSync(pathIn('web', 'note.txt'), 'utf8'), 'in web\n');
    assert.equal(existsSync(pathIn('api', 'note.txt')), false, 'the run wrote into the other folder');
    assert.equal(planner.runFolder(result.runId), 'web');
    assert.ok((await planner.runIds()).includes(result.runId), 'the run is not in the Runs view');
  });

  it("refuses paths of the other folder (relative, absolute, through a link), naming the folder it is confined to", async () => {
    symlinkSync(folderNamed('api').uri.fsPath, pathIn('web', 'api-link'));
    // A path climbing out with ".." is refused by the plan's validation before anything runs (a newcomer's plan scored
    // 10/10 and failed at Start); what only the run can see is refused where the change happens.
    // With a model, the planner gives the model the refusal and takes its corrected plan.
    server.enqueue(planReply([{ id: 'R1', title: 'Climb into api', kind: 'tool', dependsOn: [], tool: 'write_file', args: { path: '../api/stolen.txt', content: 'x\n' } }]));
    server.enqueue(planReply([{ id: 'R1', title: 'Write here', kind: 'tool', dependsOn: [], tool: 'write_file', args: { path: 'kept-here.txt', content: 'x\n' } }]));
    const climbing = await planner.planTask('Climb into the other folder', { accept: true, pickFolder: picking('web', []) });
    assert.match(server.chatRequests.at(-1)?.rawBody ?? '', /its path \\"\.\.\/api\/stolen\.txt\\" is refused: it climbs out of the workspace root/);
    assert.deepEqual(climbing.plan?.steps.map((step) => step.args?.['path']), ['kept-here.txt']);
    await planner.nextPrompt();
    await vscode.commands.executeCommand('taskPlanner.approve', 'R1');
    assert.equal((await climbing.run)?.status, 'completed');
    assert.equal(readFileSync(pathIn('web', 'kept-here.txt'), 'utf8'), 'x\n');
    assert.equal(existsSync(pathIn('api', 'stolen.txt')), false);
    const steps = [
      { id: 'R2', title: 'Read api by absolute path', kind: 'tool', dependsOn: [], critical: false, tool: 'read_file', args: { path: pathIn('api', 'README.md') } },
      { id: 'R3', title: 'Write through the link', kind: 'tool', dependsOn: [], critical: false, tool: 'write_file', args: { path: 'api-link/linked.txt', content: 'x\n' } },
    ];
    server.enqueue(planReply(steps));
    const outcome = await planner.planTask('Touch the other folder', { accept: true, pickFolder: picking('web', []) });
    assert.equal(outcome.plan?.steps.length, 2);
    const result = await outcome.run;
    for (const id of ['R2', 'R3']) {
      const step = result?.steps[id];
      // A failed step that is not critical ends skipped, with its error.
      assert.ok(step?.status === 'failed' || step?.status === 'skipped', `${id} was not refused: ${JSON.stringify(step)}`);
      assert.match(step.error ?? '', /^Refused path .*; this run is confined to the workspace folder "web"/, `${id}: ${step.error ?? ''}`);
    }
    assert.equal(existsSync(pathIn('api', 'stolen.txt')), false);
    assert.equal(existsSync(pathIn('api', 'linked.txt')), false);
    assert.deepEqual(planner.pendingPrompts(), [], 'a refused change was offered for approval');
  });

  it('a cancelled folder pick does nothing: no planning, nothing started', async () => {
    const asked = server.chatRequests.length;
    const offered: string[][] = [];
    const outcome = await planner.planTask('Anything', { accept: true, pickFolder: picking(undefined, offered) });
    assert.deepEqual(outcome, {});
    assert.equal(offered.length, 1);
    assert.equal(server.chatRequests.length, asked, 'the model was asked although the pick was cancelled');
  });

  it('files from two folders are a clear error, and nothing is planned', async () => {
    const asked = server.chatRequests.length;
    const outcome = await planner.planTask('Compare them', {
      accept: true,
      files: [vscode.Uri.file(pathIn('api', 'README.md')), vscode.Uri.file(pathIn('web', 'README.md'))],
      pickFolder: () => Promise.reject(new Error('the folder pick was shown')),
    });
    assert.match(outcome.error ?? '', /more than one workspace folder \("api", "web"\)/);
    assert.equal(outcome.run, undefined);
    assert.equal(server.chatRequests.length, asked);
  });

  it("takes the active editor's folder without asking, and runs of the two folders go on at once", async () => {
    await vscode.window.showTextDocument(vscode.Uri.file(pathIn('api', 'README.md')));
    server.enqueue(planReply([{ id: 'S1', title: 'Write in api', kind: 'tool', dependsOn: [], tool: 'write_file', args: { path: 'api-note.txt', content: 'in api\n' } }]));
    const inApi = await planner.planTask('Write in api', { accept: true, pickFolder: () => Promise.reject(new Error('the folder pick was shown')) });
    assert.deepEqual(await planner.nextPrompt(), { stepId: 'S1', kind: 'approval' });
    assert.deepEqual(planner.runningFolders(), ['api']);

    // While api's run waits for its approval, a run in web starts and ends; its step has the same id.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    server.enqueue(planReply([{ id: 'S1', title: 'List web', kind: 'tool', dependsOn: [], tool: 'list_files', args: {} }]));
    const inWeb = await planner.planTask('List the files', { accept: true, pickFolder: picking('web', []) });
    const webResult = await inWeb.run;
    assert.equal(webResult?.status, 'completed');
    assert.equal(planner.runFolder(webResult.runId), 'web');
    assert.deepEqual(planner.runningFolders(), ['api'], "web's run disturbed api's");
    assert.deepEqual(planner.pendingPrompts(), [{ stepId: 'S1', kind: 'approval' }]);

    await vscode.commands.executeCommand('taskPlanner.approve', 'S1');
    const apiResult = await inApi.run;
    assert.equal(apiResult?.status, 'completed');
    assert.equal(planner.runFolder(apiResult.runId), 'api');
    assert.equal(readFileSync(pathIn('api', 'api-note.txt'), 'utf8'), 'in api\n');
    assert.equal(existsSync(pathIn('web', 'api-note.txt')), false);
  });

  it("Cancel run stops the run, and Resume continues it in its own folder while another folder is current", async () => {
    server.enqueue(planReply([{ id: 'S1', title: 'Write later', kind: 'tool', dependsOn: [], tool: 'write_file', args: { path: 'later.txt', content: 'resumed in web\n' } }]));
    const inWeb = await planner.planTask('Write later', { accept: true, pickFolder: picking('web', []) });
    await planner.nextPrompt();
    await vscode.commands.executeCommand('taskPlanner.cancelRun');
    const cancelled = await inWeb.run;
    assert.equal(cancelled?.status, 'cancelled');
    assert.deepEqual(planner.pendingPrompts(), []);

    // api becomes the current folder (its plan shows in the Plan tree)…
    server.enqueue(planReply([{ id: 'L1', title: 'List api', kind: 'tool', dependsOn: [], tool: 'list_files', args: {} }]));
    const inApi = await planner.planTask('List the files', { accept: true, pickFolder: picking('api', []) });
    assert.equal((await inApi.run)?.status, 'completed');
    assert.equal(planner.planTreeNodes()[0]?.label, 'api');

    // …and resuming web's run from the Runs view continues it in web.
    const resumed = planner.resumeRun(cancelled.runId);
    assert.deepEqual(await planner.nextPrompt(), { stepId: 'S1', kind: 'approval' });
    assert.equal(planner.planTreeNodes()[0]?.label, 'web');
    await vscode.commands.executeCommand('taskPlanner.approve', 'S1');
    assert.equal((await resumed).status, 'completed');
    assert.equal(readFileSync(pathIn('web', 'later.txt'), 'utf8'), 'resumed in web\n');
    assert.equal(existsSync(pathIn('api', 'later.txt')), false);
  });

  it('two runs waiting on a step of the same id at once keep both prompts: each approval reaches its own run (attack E1 of issue 27)', async () => {
    server.enqueue(
      planReply([{ id: 'S1', title: 'Write twin', kind: 'tool', dependsOn: [], tool: 'write_file', args: { path: 'twin.txt', content: 'api\n' } }]),
    );
    const inApi = await planner.planTask('Write twin in api', { accept: true, pickFolder: picking('api', []) });
    await planner.nextPrompt();
    await until(() => diffTabs().length > 0);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    server.enqueue(
      planReply([{ id: 'S1', title: 'Write twin', kind: 'tool', dependsOn: [], tool: 'write_file', args: { path: 'twin.txt', content: 'web\n' } }]),
    );
    const inWeb = await planner.planTask('Write twin in web', { accept: true, pickFolder: picking('web', []) });
    await until(() => planner.pendingPrompts().length === 2);
    assert.deepEqual(planner.pendingPrompts(), [
      { stepId: 'S1', kind: 'approval' },
      { stepId: 'S1', kind: 'approval' },
    ]);
    assert.deepEqual([...planner.runningFolders()].sort(), ['api', 'web']);

    // web's diff opens and stays open (it used to close itself: api's older prompt of S1 was taken for it).
    const webDiff = await until(() => diffTabs().find((input) => input.modified.query.includes('side=proposed')));
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.ok(
      diffTabs().some((input) => input.modified.toString() === webDiff.modified.toString()),
      "web's diff closed itself",
    );

    // Both folders hold twin.txt: the tab says whose it is.
    const webTab = vscode.window.tabGroups.all.flatMap((group) => group.tabs)
      .find((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === webDiff.modified.toString());
    assert.match(webTab?.label ?? '', /^twin\.txt in folder "web" \(create, proposed\)/);

    // The Plan tree shows web's run: its Approve (the row's menu passes the node) approves web's change, not api's.
    assert.equal(planner.planTreeNodes()[0]?.label, 'web');
    const row = planner.planTreeNodes().find((node) => node.stepId === 'S1');
    assert.ok(row, 'the Plan tree has no row of S1');
    await vscode.commands.executeCommand('taskPlanner.approve', row);
    assert.equal((await inWeb.run)?.status, 'completed');
    assert.equal(readFileSync(pathIn('web', 'twin.txt'), 'utf8'), 'web\n');
    assert.equal(existsSync(pathIn('api', 'twin.txt')), false, "api's change was applied by web's approval");
    assert.deepEqual(planner.pendingPrompts(), [{ stepId: 'S1', kind: 'approval' }]);
    assert.deepEqual(planner.runningFolders(), ['api']);

    // The status bar names api's request; its click shows api's diff, whose Approve completes api's run.
    const command = planner.statusBarCommand();
    assert.ok(command, 'the status bar offers nothing');
    await vscode.commands.executeCommand(command.command, ...((command.arguments ?? []) as unknown[]));
    const apiDiff = await until(() => diffTabs().find((input) => input.modified.query.includes('side=proposed')));
    await vscode.commands.executeCommand('taskPlanner.approve', apiDiff.modified);
    assert.equal((await inApi.run)?.status, 'completed');
    assert.equal(readFileSync(pathIn('api', 'twin.txt'), 'utf8'), 'api\n');
    assert.equal(readFileSync(pathIn('web', 'twin.txt'), 'utf8'), 'web\n');
  });

  it('the same change asked by runs of two folders (one request id) is answered per run: a diff approves its own run only', async () => {
    const twin = (content: string) =>
      planReply([{ id: 'S1', title: 'Write same', kind: 'tool', dependsOn: [], tool: 'write_file', args: { path: 'same.txt', content } }]);
    server.enqueue(twin('same\n'));
    const inApi = await planner.planTask('Write same in api', { accept: true, pickFolder: picking('api', []) });
    await planner.nextPrompt();
    const apiDiff = await until(() => diffTabs().find((input) => input.modified.query.includes('side=proposed')));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    server.enqueue(twin('same\n'));
    const inWeb = await planner.planTask('Write same in web', { accept: true, pickFolder: picking('web', []) });
    await until(() => planner.pendingPrompts().length === 2);

    // A bare step id answers the run on screen (web's: the current folder's), not the oldest.
    await vscode.commands.executeCommand('taskPlanner.approve', 'S1');
    assert.equal((await inWeb.run)?.status, 'completed');
    assert.equal(existsSync(pathIn('api', 'same.txt')), false, "api's change was applied by web's approval");
    // api's diff (its URI names api's run) approves api's change, though web's request had the same id.
    assert.match(apiDiff.modified.query, /run=/);
    await vscode.commands.executeCommand('taskPlanner.approve', apiDiff.modified);
    assert.equal((await inApi.run)?.status, 'completed');
    assert.equal(readFileSync(pathIn('api', 'same.txt'), 'utf8'), 'same\n');
    assert.equal(readFileSync(pathIn('web', 'same.txt'), 'utf8'), 'same\n');
  });

  it("Undo of a run restores its own folder's file, not the current folder's file of the same path changed by a run with the same step id", async () => {
    writeFileSync(pathIn('api', 'shared.txt'), 'api before\n');
    writeFileSync(pathIn('web', 'shared.txt'), 'web before\n');
    /** Plans and runs, in `folder`, step S1 writing `content` into shared.txt, approved. */
    const writeShared = async (folder: string, content: string) => {
      server.enqueue(planReply([{ id: 'S1', title: 'Write shared', kind: 'tool', dependsOn: [], tool: 'write_file', args: { path: 'shared.txt', content } }]));
      const outcome = await planner.planTask(`Write shared in ${folder}`, { accept: true, pickFolder: picking(folder, []) });
      await planner.nextPrompt();
      await vscode.commands.executeCommand('taskPlanner.approve', 'S1');
      const run = await outcome.run;
      assert.equal(run?.status, 'completed');
      return run;
    };
    const apiRun = await writeShared('api', 'api after\n');
    const webRun = await writeShared('web', 'web after\n');
    assert.equal(planner.planTreeNodes()[0]?.label, 'web');

    // web is the current folder; the Runs view's Undo of api's run restores api's file from api's checkpoints.
    await vscode.commands.executeCommand('taskPlanner.undoRun', apiRun.runId);
    assert.equal(readFileSync(pathIn('api', 'shared.txt'), 'utf8'), 'api before\n');
    assert.equal(readFileSync(pathIn('web', 'shared.txt'), 'utf8'), 'web after\n', "undoing api's run touched web's file");
    await vscode.commands.executeCommand('taskPlanner.undoRun', webRun.runId);
    assert.equal(readFileSync(pathIn('web', 'shared.txt'), 'utf8'), 'web before\n');
    assert.equal(readFileSync(pathIn('api', 'shared.txt'), 'utf8'), 'api before\n');
  });

  it('shows a folder whose name holds control and direction characters with them escaped (attack: a hostile .code-workspace)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostile-folder-'));
    const name = 'evil\u202etxt.exe\u001b[31m';
    const changed = (): Promise<void> =>
      new Promise((resolve) => {
        const subscription = vscode.workspace.onDidChangeWorkspaceFolders(() => {
          subscription.dispose();
          resolve();
        });
      });
    const added = changed();
    assert.ok(vscode.workspace.updateWorkspaceFolders(2, 0, { uri: vscode.Uri.file(dir), name }));
    await added;
    try {
      server.enqueue(planReply([{ id: 'L1', title: 'List the files', kind: 'tool', dependsOn: [], tool: 'list_files', args: {} }]));
      const outcome = await planner.planTask('List the files', { accept: true, pickFolder: picking(name, []) });
      assert.equal((await outcome.run)?.status, 'completed');
      const row = planner.planTreeNodes()[0];
      assert.equal(row?.label, 'evil\\u202etxt.exe\\u001b[31m');
      assert.match(String(row?.tooltip), /workspace folder evil\\u202etxt\.exe\\u001b\[31m, and only there/);
    } finally {
      const removed = changed();
      vscode.workspace.updateWorkspaceFolders(2, 1);
      await removed;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
