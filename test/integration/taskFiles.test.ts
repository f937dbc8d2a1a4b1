// Task files of other tools in the real extension host: the CodeLens shows on a Spec Kit tasks.md and not on other
// Markdown, "Plan from file…" hands the review the plan with what came from where, and with ticking on each completed
// step's checkbox is ticked in the file once the user approves that change.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunResult } from '../../src/core/engine/runOptions';
import type { Plan } from '../../src/core/plan/planSchema';
import type { TaskPlannerApi } from './testBuild/testExtension';

const folder = (): vscode.Uri => {
  const first = vscode.workspace.workspaceFolders?.[0];
  assert.ok(first, 'the integration suite opens a workspace');
  return first.uri;
};

const tasksText = ['# Tasks: Albums', '', '## Phase 1: Setup', '- [ ] T001 List the files', '- [ ] T002 [P] List them again', ''].join('\r\n');

async function write(path: string, text: string): Promise<vscode.Uri> {
  const uri = vscode.Uri.joinPath(folder(), path);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}

async function read(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

describe('task files of other tools in the VS Code extension host', function () {
  this.timeout(60_000);
  let api: TaskPlannerApi;
  const config = () => vscode.workspace.getConfiguration('taskPlanner');

  before(async () => {
    const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
    assert.ok(extension);
    api = await extension.activate();
  });

  afterEach(async () => {
    api.setPlanReview(undefined);
    await config().update('taskFiles.tickCheckboxes', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder(), 'specs'), { recursive: true, useTrash: false }).then(undefined, () => undefined);
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder(), 'notes.md')).then(undefined, () => undefined);
  });

  it('shows "Plan from this file" on a Spec Kit tasks.md and no lens of its own on another Markdown file with a checkbox', async () => {
    const tasks = await write('specs/001/tasks.md', tasksText);
    const notes = await write('notes.md', '# Notes\n\n- [ ] call Bob\n');
    await vscode.window.showTextDocument(tasks);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', tasks);
    const ours = lenses.filter((lens) => lens.command?.command === 'taskPlanner.planFromFile');
    assert.equal(ours.length, 1);
    assert.match(ours[0]!.command!.title, /Plan from this file/);
    assert.equal(ours[0]!.range.start.line, 0);
    await vscode.window.showTextDocument(notes);
    const noteLenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', notes);
    assert.deepEqual(noteLenses.filter((lens) => lens.command?.command === 'taskPlanner.planFromFile'), []);
  });

  it('"Plan from file" reviews the plan with its origins, and ticks each completed step in the file after its approval', async () => {
    await config().update('taskFiles.tickCheckboxes', true, vscode.ConfigurationTarget.Workspace);
    const tasks = await write('specs/001/tasks.md', tasksText);
    const told: string[] = [];
    let reviewed: Plan | undefined;
    // The review turns the imported steps into steps that complete on their own (listing files), their origins kept.
    api.setPlanReview(async (plan, _critique, warnings) => {
      told.push(...warnings);
      reviewed = plan;
      return { ...plan, agents: {}, steps: plan.steps.map((step) => ({ ...step, kind: 'tool', tool: 'list_files', args: {} })) };
    });
    const outcome = await vscode.commands.executeCommand<{ run?: Promise<RunResult | undefined> }>('taskPlanner.planFromFile', tasks);
    assert.match(told[0] ?? '', /^From specs\/001\/tasks\.md \(Spec Kit tasks\.md\): 2 tasks from \d+ lines; /);
    assert.match(told[1] ?? '', /its checkbox in specs\/001\/tasks\.md is ticked/);
    assert.match(reviewed?.steps[0]?.input ?? '', /From specs\/001\/tasks\.md, line 4:\n- Task: T001/);
    for (let answered = 0; answered < 2; answered++) {
      const prompt = await api.nextPrompt();
      assert.equal(prompt.kind, 'approval');
      await vscode.commands.executeCommand('taskPlanner.approve', prompt.stepId);
    }
    const result = await outcome.run;
    assert.equal(result?.status, 'completed');
    assert.equal(await read(tasks), tasksText.replace(/- \[ \]/g, '- [x]'), 'both boxes ticked, CRLF kept');
  });

  it('a task the user removed from the file meanwhile is not ticked, and the run says so', async () => {
    await config().update('taskFiles.tickCheckboxes', true, vscode.ConfigurationTarget.Workspace);
    const tasks = await write('specs/002/tasks.md', tasksText);
    api.setPlanReview(async (plan) => {
      await write('specs/002/tasks.md', '# Tasks\r\n\r\n- [ ] T009 Something else\r\n');
      return { ...plan, agents: {}, steps: plan.steps.map((step) => ({ ...step, kind: 'tool', tool: 'list_files', args: {} })) };
    });
    const outcome = await vscode.commands.executeCommand<{ run?: Promise<RunResult | undefined> }>('taskPlanner.planFromFile', tasks);
    const result = await outcome.run;
    assert.equal(result?.status, 'completed');
    assert.equal(await read(tasks), '# Tasks\r\n\r\n- [ ] T009 Something else\r\n');
    assert.equal(api.pendingPrompts().length, 0, 'nothing was asked: there was nothing to tick');
    const warnings = result?.metadata.warnings ?? [];
    assert.ok(
      warnings.some((warning) => warning.includes('specs/002/tasks.md has no checkbox for task T001 any more')),
      JSON.stringify(warnings),
    );
  });
});
