// A second run in a folder where one goes on: refused, naming the run that goes on, so "A run is already in progress"
// can offer to show or cancel that very run (src/vscode/runInProgress.ts); Cancel run given a run's id cancels that one only.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Plan } from '../../src/core/plan/planSchema';
import { activatedApi, planOfStep } from './shownRuns';

const folder = vscode.workspace.workspaceFolders?.[0];
const root = folder?.uri.fsPath ?? '';

/** A one-step plan writing `path`: it waits for its approval. */
const writePlan = (path: string): Plan => planOfStep(`plan-${path}`, `Write ${path}`, { id: 'S1', title: `Write ${path}`, tool: 'write_file', args: { path, content: 'x\n' } });

describe('A run already in progress (editor)', function () {
  this.timeout(60_000);

  it('refuses a second run naming the run that goes on; Cancel run given that id cancels it, given another cancels nothing', async () => {
    const planner = await activatedApi();
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

  it('Resume of a run going on, or of one that ended, resumes nothing (an older notice\'s Resume did nothing, silently)', async () => {
    const planner = await activatedApi();
    assert.ok(folder);
    // A resume journals `run_resumed`; the run's own events go on being written meanwhile, so they are not counted.
    const resumes = async (runId: string): Promise<number> => (await planner.journal(runId)).filter((event) => event.type === 'run_resumed').length;
    const going = planner.startPlan(writePlan('going.txt'));
    await planner.nextPrompt();
    const runId = planner.runningIn(folder.name);
    assert.ok(runId);
    assert.equal(await vscode.commands.executeCommand<unknown>('taskPlanner.resumeRun', runId), undefined);
    assert.equal(await resumes(runId), 0, 'a run going on was resumed a second time');
    await vscode.commands.executeCommand('taskPlanner.cancelRun', runId);
    assert.equal((await going).status, 'cancelled');
    const { runId: ended } = await planner.startPlan(planOfStep('plan-read', 'Read the readme', { id: 'R1', title: 'Read the readme', tool: 'read_file', args: { path: 'README.md' } }));
    assert.equal(await vscode.commands.executeCommand<unknown>('taskPlanner.resumeRun', ended), undefined);
    assert.equal(await resumes(ended), 0, 'a run that ended was resumed');
  });
});
