// A second run in a folder where one goes on: refused, naming the run that goes on, so "A run is already in progress"
// can offer to show or cancel that very run (src/vscode/runInProgress.ts); Cancel run given a run's id cancels that one only.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Plan } from '../../src/core/plan/planSchema';
import type { TaskPlannerApi } from './testBuild/testExtension';

const folder = vscode.workspace.workspaceFolders?.[0];
const root = folder?.uri.fsPath ?? '';

async function api(): Promise<TaskPlannerApi> {
  const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
  assert.ok(extension);
  return extension.activate();
}

/** A one-step plan writing `path`: it waits for its approval. */
function writePlan(path: string): Plan {
  return {
    id: `plan-${path}`,
    version: 1,
    objective: `Write ${path}`,
    createdAt: '2026-01-01T00:00:00.000Z',
    agents: {},
    steps: [{ id: 'S1', title: `Write ${path}`, kind: 'tool', tool: 'write_file', args: { path, content: 'x\n' }, dependsOn: [], onFailure: 'stop', maxAttempts: 1, critical: true, onVerificationFailure: 'stop' }],
  };
}

describe('A run already in progress (editor)', function () {
  this.timeout(60_000);

  it('refuses a second run naming the run that goes on; Cancel run given that id cancels it, given another cancels nothing', async () => {
    const planner = await api();
    assert.ok(folder);
    const first = planner.startPlan(writePlan('first.txt'));
    await planner.nextPrompt();
    const runId = planner.runningIn(folder.name);
    assert.ok(runId, 'no run goes on in the folder');
    await assert.rejects(planner.startPlan(writePlan('second.txt')), (error: unknown) => {
      assert.equal((error as Error).name, 'RunInProgressError');
      assert.equal((error as { runId?: string }).runId, runId);
      assert.match((error as Error).message, /A run is already in progress: wait for it to finish or cancel it first\./);
      return true;
    });
    await vscode.commands.executeCommand('taskPlanner.cancelRun', 'run-of-nothing');
    assert.equal(planner.runningIn(folder.name), runId, 'a Cancel run naming another run stopped this one');
    assert.deepEqual(planner.pendingPrompts(), [{ stepId: 'S1', kind: 'approval' }]);
    await vscode.commands.executeCommand('taskPlanner.cancelRun', runId);
    const result = await first;
    assert.equal(result.status, 'cancelled');
    assert.equal(existsSync(join(root, 'first.txt')), false);
    assert.equal(existsSync(join(root, 'second.txt')), false);
    assert.equal(planner.isRunning(), false);
  });
});
