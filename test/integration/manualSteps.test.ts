// A step that is yours to do, in the real extension host: planned without a model, marked Done from the Plan tree.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TaskPlannerApi } from './testBuild/testExtension';

const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a step that is yours to do (no model)', function () {
  this.timeout(60_000);
  const config = () => vscode.workspace.getConfiguration('taskPlanner');
  let api: TaskPlannerApi;

  before(async () => {
    const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
    assert.ok(extension);
    api = await extension.activate();
    await config().update('llm.provider', 'heuristic', vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    await config().update('llm.provider', undefined, vscode.ConfigurationTarget.Workspace);
    rmSync(join(root, 'MANUAL-IT.md'), { force: true });
  });

  it('waits as "yours to do" in the tree and status bar; Mark Done from the tree completes it with the note as its result', async () => {
    const outcome = await api.planTask('Create an empty file MANUAL-IT.md, then fill it in with the changes', { accept: true });
    assert.deepEqual(outcome.plan?.steps.map((step) => step.kind), ['tool', 'manual']);
    assert.deepEqual(await api.nextPrompt(), { stepId: 'S001', kind: 'approval' });
    await vscode.commands.executeCommand('taskPlanner.approve', 'S001');
    await until('the manual step to wait for the person', () => api.pendingPrompts().find((prompt) => prompt.kind === 'manual'));
    assert.equal(readFileSync(join(root, 'MANUAL-IT.md'), 'utf8'), '');
    const node = await until('the tree to show the step as yours to do', () => api.planTreeNodes().find((entry) => entry.stepId === 'S002' && entry.contextValue === 'step.manual.awaiting_user'));
    assert.equal(node.icon, 'person');
    assert.match(node.description, /yours to do/);
    assert.match(api.statusBarText(), /Your step/);
    await vscode.commands.executeCommand('taskPlanner.markStepDone', node, 'Listed the three changes');
    const result = await outcome.run;
    assert.equal(result?.status, 'completed');
    assert.equal(result?.results['S002'], 'Listed the three changes');
    const done = api.planTreeNodes().find((entry) => entry.stepId === 'S002');
    assert.equal(done?.contextValue, 'step.manual.completed');
    assert.deepEqual(api.pendingPrompts(), []);
    assert.ok(existsSync(join(root, 'MANUAL-IT.md')));
  });

  it('Mark Failed from the tree fails the step with the reason, and a step that waits for nothing else says so', async () => {
    const outcome = await api.planTask('Fill in MANUAL-IT.md with the changes', { accept: true });
    assert.deepEqual(outcome.plan?.steps.map((step) => step.kind), ['manual']);
    await until('the manual step to wait for the person', () => api.pendingPrompts().find((prompt) => prompt.kind === 'manual'));
    await vscode.commands.executeCommand('taskPlanner.approve', 'S001');
    assert.deepEqual(api.pendingPrompts(), [{ stepId: 'S001', kind: 'manual' }], 'Approve is not an answer to a manual step');
    await vscode.commands.executeCommand('taskPlanner.markStepFailed', 'S001', 'The changes are not decided yet');
    const result = await outcome.run;
    assert.equal(result?.status, 'failed');
    assert.equal(result?.steps['S001']?.error, 'You marked step S001 as failed: The changes are not decided yet.');
  });
});
