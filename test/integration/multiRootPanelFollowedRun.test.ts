// The plan panel showing a run in one folder of a two-folder workspace (`api` and `web`; see runIntegration.ts)
// while the other folder became the current one ("Open run" in the Runs view): its Cancel stops the run it shows,
// never the current folder's; it follows its run as it goes on and to its end, which it then shows as ended, not as
// running, never switching to the current folder's run; a path it shows opens from its run's folder. Notifications
// of a run (its end, a step that is the user's to do) are about that run too.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RunResult } from '../../src/core/engine/runOptions';
import type { Plan, Step } from '../../src/core/plan/planSchema';
import type { TaskPlannerApi } from './testBuild/testExtension';
import { activatedApi, diffInFront, folderNamed, panelShowing, panelShows, planOfStep, until } from './shownRuns';

/** A plan of one write of `path`, which waits for the user's approval until the test approves it. */
const writing = (id: string, stepId: string, path: string): Plan =>
  planOfStep(id, `Write ${path}`, { id: stepId, title: `Write ${path}`, tool: 'write_file', args: { path, content: `${id}\n` } });

/** A plan of two steps that are the user's to do, the second after the first: each waits until the test marks it done. */
function yours(id: string, first: string, second: string): Plan {
  const manual = (stepId: string, dependsOn: string[]): Step => ({
    id: stepId,
    kind: 'manual',
    title: `Do ${stepId}`,
    input: `Do ${stepId} by hand.`,
    dependsOn,
    onFailure: 'stop',
    maxAttempts: 1,
    critical: true,
    onVerificationFailure: 'stop',
  });
  return { id, version: 1, objective: `Do ${first} and ${second}`, createdAt: '2026-01-01T00:00:00.000Z', agents: {}, steps: [manual(first, []), manual(second, [first])] };
}

/** A plan of one listing of the files, which ends on its own. */
const listing = (id: string): Plan => planOfStep(id, `List the files (${id})`, { id: 'L1', title: 'List the files', tool: 'list_files', args: {} });

describe('The plan panel follows its run in one folder while another folder is current', function () {
  this.timeout(60_000);
  let api: TaskPlannerApi;
  /** Starts `plan` in `folder` and resolves, with the run's id and end, once its step waits for approval. */
  const startWaiting = async (plan: Plan, folder: string): Promise<{ runId: string; ended: Promise<RunResult> }> => {
    const ended = api.startPlan(plan, folderNamed(folder));
    const stepId = plan.steps[0]!.id;
    await until(`step ${stepId} to wait`, () => api.pendingPrompts().some((prompt) => prompt.stepId === stepId && prompt.kind === 'approval'));
    // The only approval waiting opens its diff in front (another waits behind the one shown); Show plan later brings the panel in front of it.
    if (api.pendingPrompts().length === 1) {
      await diffInFront();
    }
    const runId = api.runningIn(folder);
    assert.ok(runId);
    return { runId, ended };
  };
  /** Shows the run the Plan view shows in the panel ("Show plan"), once the view shows step `stepId` waiting. */
  const followInPanel = async (stepId: string): Promise<string> => {
    await until(`the Plan view to show ${stepId} waiting`, () => api.planTreeNodes().some((node) => node.stepId === stepId && node.contextValue === 'step.tool.awaiting_approval'));
    await vscode.commands.executeCommand('taskPlanner.showPlan');
    return until('the panel to follow the run that waits', () => {
      const model = api.planPanel.model();
      return model?.mode === 'run' && model.run.pending.some((prompt) => prompt.stepId === stepId) ? api.planPanel.followedRun() : undefined;
    });
  };

  before(async () => {
    api = await activatedApi();
  });

  beforeEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));
  after(() => api.planPanel.close());

  it("Cancel in the panel stops the run it follows in web, not the run going on in api, the current folder", async () => {
    const inApi = await startWaiting(writing('panel-cancel-api', 'A1', 'panel-cancel-api.txt'), 'api');
    const inWeb = await startWaiting(writing('panel-cancel-web', 'W1', 'panel-cancel-web.txt'), 'web');
    try {
      assert.equal(await followInPanel('W1'), inWeb.runId);
      // The Runs view opens the run going on in api: api is the current folder now; the panel still shows the run in web.
      await vscode.commands.executeCommand('taskPlanner.openRun', inApi.runId);
      assert.equal(api.currentPlan()?.id, 'panel-cancel-api', 'the Plan view does not show the run opened');
      assert.equal(panelShows(api), `run ${inWeb.runId} running`);
      await api.planPanel.send({ type: 'cancelRun' });
      await until('a run to stop', () => api.runningFolders().length < 2).catch(() => undefined);
      assert.deepEqual(api.runningFolders(), ['api'], 'the panel did not cancel the run it shows');
      assert.equal((await inWeb.ended).status, 'cancelled');
      // It followed the run it cancelled to its end.
      assert.equal(await panelShowing(api, `run ${inWeb.runId} cancelled`), `run ${inWeb.runId} cancelled`);
      assert.equal(api.planPanel.followedRun(), undefined, 'the panel still follows the run that ended');
    } finally {
      // Both runs end before the next test starts in the same folders.
      await vscode.commands.executeCommand('taskPlanner.approve', 'A1');
      if (api.runningFolders().includes('web')) await vscode.commands.executeCommand('taskPlanner.cancelRun');
      await Promise.all([inApi.ended, inWeb.ended]);
    }
    assert.equal((await inApi.ended).status, 'completed');
  });

  it("a run in web that ends while api is the current folder: the panel following it shows it ended and follows it no more; its notification's Show run shows it", async () => {
    const earlier = await startWaiting(writing('panel-end-api', 'A2', 'panel-end-api.txt'), 'api');
    await vscode.commands.executeCommand('taskPlanner.approve', 'A2');
    assert.equal((await earlier.ended).status, 'completed');
    const inWeb = await startWaiting(writing('panel-end-web', 'W2', 'panel-end-web.txt'), 'web');
    try {
      assert.equal(await followInPanel('W2'), inWeb.runId);
      // The Runs view opens the run that ended in api: api is the current folder now, with no run going on there.
      await vscode.commands.executeCommand('taskPlanner.openRun', earlier.runId);
      assert.equal(api.currentPlan()?.id, 'panel-end-api', 'the Plan view does not show the run opened');
      // Its end's notification is answered Show run.
      api.answerNextRunEnd('Show run');
      await vscode.commands.executeCommand('taskPlanner.approve', 'W2');
      assert.equal((await inWeb.ended).status, 'completed');
      // Named by its request: two folders' notifications are told apart.
      assert.match(api.lastRunEndMessage() ?? '', /^Task Planner: run "Write panel-end-web\.txt" completed in /);
      assert.equal(await panelShowing(api, `run ${inWeb.runId} completed`), `run ${inWeb.runId} completed`);
      assert.equal(api.planPanel.followedRun(), undefined, 'the panel still follows the run that ended');
      // Show run of the notification shows that run in the Plan view, not the run opened in api.
      await until('the Plan view to show the run that ended', () => api.currentPlan()?.id === 'panel-end-web').catch(() => undefined);
      assert.equal(api.currentPlan()?.id, 'panel-end-web');
    } finally {
      if (api.runningFolders().length > 0) await vscode.commands.executeCommand('taskPlanner.approve', 'W2');
      await inWeb.ended;
    }
  });

  it("a path the panel shows of its run in web opens from web, not from api, the current folder", async () => {
    const inApi = await api.startPlan(listing('panel-path-api'), folderNamed('api'));
    // Followed as it goes on, the run in web stays in the panel when the Runs view opens the run in api, and after it ends.
    const inWeb = await startWaiting(writing('panel-path-web', 'WP1', 'panel-path-web.txt'), 'web');
    assert.equal(api.runFolder(inWeb.runId), 'web');
    assert.equal(await followInPanel('WP1'), inWeb.runId);
    await vscode.commands.executeCommand('taskPlanner.openRun', inApi.runId);
    assert.equal(api.currentPlan()?.id, 'panel-path-api', 'the Plan view does not show the run opened');
    await vscode.commands.executeCommand('taskPlanner.approve', 'WP1');
    assert.equal((await inWeb.ended).status, 'completed');
    assert.equal(await panelShowing(api, `run ${inWeb.runId} completed`), `run ${inWeb.runId} completed`);
    writeFileSync(join(folderNamed('web').uri.fsPath, 'panel-path-web-only.txt'), 'only in web\n');
    await api.planPanel.send({ type: 'openFile', path: 'panel-path-web-only.txt' });
    const opened = await until('the file to open', () => vscode.window.activeTextEditor?.document.uri.fsPath).catch(() => undefined);
    assert.equal(opened, join(folderNamed('web').uri.fsPath, 'panel-path-web-only.txt'));
  });

  it("the panel follows its run in web as it goes on, never the run going on in api, the current folder, whose step a notification announces", async () => {
    const started = async (plan: Plan, folder: string): Promise<{ runId: string; ended: Promise<RunResult> }> => {
      const ended = api.startPlan(plan, folderNamed(folder));
      const stepId = plan.steps[0]!.id;
      await until(`step ${stepId} to wait`, () => api.pendingPrompts().some((prompt) => prompt.stepId === stepId && prompt.kind === 'manual'));
      const runId = api.runningIn(folder);
      assert.ok(runId);
      return { runId, ended };
    };
    const inApi = await started(yours('panel-live-api', 'AM1', 'AM2'), 'api');
    const inWeb = await started(yours('panel-live-web', 'WM1', 'WM2'), 'web');
    /** The steps the panel's run waits on the user for, once they are `stepIds`, else after 5 s. */
    const panelWaitsOn = async (stepIds: string[]): Promise<string> => {
      const shown = (): string => {
        const model = api.planPanel.model();
        return model?.mode === 'run' ? `${model.run.runId}: ${model.run.pending.map((prompt) => prompt.stepId).join(' ')}` : String(model?.mode);
      };
      await until(stepIds.join(' '), () => shown() === `${inWeb.runId}: ${stepIds.join(' ')}`).catch(() => undefined);
      return shown();
    };
    try {
      await until('the Plan view to show WM1 waiting', () => api.planTreeNodes().some((node) => node.stepId === 'WM1' && node.contextValue === 'step.manual.awaiting_user'));
      await vscode.commands.executeCommand('taskPlanner.showPlan');
      assert.equal(await panelWaitsOn(['WM1']), `${inWeb.runId}: WM1`);
      await vscode.commands.executeCommand('taskPlanner.openRun', inApi.runId);
      // The run in api, the current folder now, goes on: the panel goes on showing the run in web.
      await vscode.commands.executeCommand('taskPlanner.markStepDone', 'AM1', 'done');
      await until('the Plan view to show AM2 waiting', () => api.planTreeNodes().some((node) => node.stepId === 'AM2' && node.contextValue === 'step.manual.awaiting_user'));
      assert.equal(await panelWaitsOn(['WM1']), `${inWeb.runId}: WM1`);
      // The panel does not show it: a notification says AM2 is the user's to do.
      await until('AM2 to be announced', () => api.manualStepsAnnounced.some((announced) => announced.stepId === 'AM2')).catch(() => undefined);
      assert.deepEqual(
        api.manualStepsAnnounced.filter((announced) => announced.runId === inApi.runId).map((announced) => announced.stepId),
        ['AM1', 'AM2'],
      );
      // The run in web goes on: the panel shows it live.
      await vscode.commands.executeCommand('taskPlanner.markStepDone', 'WM1', 'done');
      assert.equal(await panelWaitsOn(['WM2']), `${inWeb.runId}: WM2`);
      // The panel shows WM2 with Done and Failed: no notification besides.
      assert.deepEqual(
        api.manualStepsAnnounced.filter((announced) => announced.runId === inWeb.runId).map((announced) => announced.stepId),
        ['WM1'],
      );
    } finally {
      // Every step still to do is done, so both runs end before the next test.
      for (const deadline = Date.now() + 10_000; api.runningFolders().length > 0 && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
        const waiting = api.pendingPrompts().find((prompt) => prompt.kind === 'manual');
        if (waiting) await vscode.commands.executeCommand('taskPlanner.markStepDone', waiting.stepId, 'done');
      }
      await Promise.all([inApi.ended, inWeb.ended]);
    }
    assert.equal((await inWeb.ended).status, 'completed');
    assert.equal(await panelShowing(api, `run ${inWeb.runId} completed`), `run ${inWeb.runId} completed`);
  });
});
