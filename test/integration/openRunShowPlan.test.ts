// "Open run" in the Runs view, then "Show plan": the plan panel shows the run that was opened (the one the Plan view
// shows), never another run of the folder, whether or not another run is going on there.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RunResult } from '../../src/core/engine/runOptions';
import type { Plan } from '../../src/core/plan/planSchema';
import type { RunView } from '../../src/shared/panelViewModel';
import type { TaskPlannerApi } from './testBuild/testExtension';
import { activatedApi, diffInFront, panelShowing, planOf, toolStep, until } from './shownRuns';

const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';

/** A plan that runs to its end on its own. */
const listing = planOf('open-run-listing', 'List the demo workspace', [toolStep('L1', { title: 'List the files', tool: 'list_files', args: {} })]);
/** A plan whose run waits for the user's approval of its write until the test approves it. */
const writing = (path: string): Plan =>
  planOf('open-run-writing', 'Write a note', [toolStep('W1', { title: `Write ${path}`, tool: 'write_file', args: { path, content: 'note\n' } })]);

describe('Open run, then Show plan', function () {
  this.timeout(60_000);
  let api: TaskPlannerApi;
  /** The run the panel shows now, `undefined` when it shows none. */
  const panelRun = (): RunView | undefined => {
    const model = api.planPanel.model();
    return model?.mode === 'run' ? model.run : undefined;
  };
  const showPlan = async (): Promise<void> => {
    await vscode.commands.executeCommand('taskPlanner.showPlan');
  };
  /** Starts `plan` and resolves once its write waits for approval, with the run's end. */
  const startWaiting = async (plan: Plan): Promise<{ runId: string; ended: Promise<RunResult> }> => {
    const ended = api.startPlan(plan);
    assert.deepEqual(await api.nextPrompt(), { stepId: 'W1', kind: 'approval' });
    // The write's diff opens in front; Show plan then brings the panel back in front of it (a hidden webview gets no snapshots).
    await diffInFront();
    // The Plan view shows the waiting run (its coalesced update came), as the user sees it before opening another.
    await until('the Plan view to show the waiting step', () => api.planTreeNodes().some((node) => node.contextValue === 'step.tool.awaiting_approval'));
    await showPlan();
    const run = await until('the panel to follow the run that waits', () => (panelRun()?.pending.length ? panelRun() : undefined));
    return { runId: run.runId, ended };
  };
  const finish = async (waiting: { ended: Promise<RunResult> }): Promise<void> => {
    await vscode.commands.executeCommand('taskPlanner.approve', 'W1');
    assert.equal((await waiting.ended).status, 'completed');
  };

  before(async () => {
    api = await activatedApi();
  });

  beforeEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));
  after(() => api.planPanel.close());

  it('two runs ended: Show plan shows the run opened, not the one that ended last', async () => {
    const first = await api.startPlan(listing);
    assert.equal(first.status, 'completed');
    await showPlan();
    await until('the panel to show the first run', () => panelRun()?.runId === first.runId);
    const second = await startWaiting(writing('open-run-ended.txt'));
    await finish(second);
    await until('the panel to show the second run ended', () => panelRun()?.runId === second.runId && panelRun()?.status === 'completed');
    await vscode.commands.executeCommand('taskPlanner.openRun', first.runId);
    assert.equal(api.currentPlan()?.id, listing.id, 'the Plan view does not show the run opened');
    await showPlan();
    assert.equal(await panelShowing(api, `run ${first.runId} completed`), `run ${first.runId} completed`);
    assert.equal(panelRun()?.objective, listing.objective);
  });

  it('Open run with the panel open shows the run there too: the Plan view and the panel agree (a newcomer saw them differ)', async () => {
    const first = await api.startPlan(listing);
    assert.equal(first.status, 'completed');
    await showPlan();
    const second = await startWaiting(writing('open-run-agree.txt'));
    await finish(second);
    await until('the panel to show the second run ended', () => panelRun()?.runId === second.runId && panelRun()?.status === 'completed');
    await vscode.commands.executeCommand('taskPlanner.openRun', first.runId);
    assert.equal(api.currentPlan()?.id, listing.id, 'the Plan view does not show the run opened');
    assert.equal(await panelShowing(api, `run ${first.runId} completed`), `run ${first.runId} completed`);
    rmSync(join(root, 'open-run-agree.txt'), { force: true });
  });

  it('a run opened again after Undo shows its changes undone and offers no Undo (it showed the file changed, and Undo)', async () => {
    const undone = await startWaiting(writing('open-run-undone.txt'));
    await finish(undone);
    await vscode.commands.executeCommand('taskPlanner.undoRun', undone.runId);
    assert.equal(existsSync(join(root, 'open-run-undone.txt')), false, 'Undo did not take the file back');
    const other = await api.startPlan(listing);
    await until('the panel to show the other run', () => panelRun()?.runId === other.runId);
    await vscode.commands.executeCommand('taskPlanner.openRun', undone.runId);
    const shown = await until('the panel to show the run undone', () => {
      const run = panelRun();
      return run?.runId === undone.runId && run.steps.find((step) => step.id === 'W1')?.changesUndone === true ? run : undefined;
    });
    assert.deepEqual(shown.summary?.changedFiles, []);
    assert.equal(shown.summary?.canUndo, false);
    // Show plan shows it the same way.
    await showPlan();
    await until('Show plan to show the run undone', () => (panelRun()?.runId === undone.runId && panelRun()?.summary?.canUndo === false ? true : undefined));
  });

  it('a run of another plan waits: Show plan shows the run opened, as it ran (not its plan for a new review)', async () => {
    const ended = await api.startPlan(listing);
    assert.equal(ended.status, 'completed');
    const waiting = await startWaiting(writing('open-run-other-plan.txt'));
    try {
      await vscode.commands.executeCommand('taskPlanner.openRun', ended.runId);
      assert.equal(api.currentPlan()?.id, listing.id, 'the Plan view does not show the run opened');
      await showPlan();
      assert.equal(await panelShowing(api, `run ${ended.runId} completed`), `run ${ended.runId} completed`);
    } finally {
      await finish(waiting);
    }
  });

  it('a later run of the same plan waits (Run from here, a plan file run again): Show plan shows the run opened, not the one going on', async () => {
    const plan = writing('open-run-same-plan.txt');
    const earlier = await startWaiting(plan);
    await finish(earlier);
    // Gone again, so the same write asks again.
    rmSync(join(root, 'open-run-same-plan.txt'));
    const later = await startWaiting(plan);
    try {
      assert.notEqual(later.runId, earlier.runId);
      await vscode.commands.executeCommand('taskPlanner.openRun', earlier.runId);
      // The Plan view shows the run opened: its step completed, none waiting.
      await until('the Plan view to show the run opened', () => api.planTreeNodes().find((node) => node.stepId === 'W1')?.icon === 'pass-filled');
      await showPlan();
      assert.equal(await panelShowing(api, `run ${earlier.runId} completed`), `run ${earlier.runId} completed`);
      // Opened in turn, the run going on is followed live again: its end reaches the panel.
      await vscode.commands.executeCommand('taskPlanner.openRun', later.runId);
      await showPlan();
      assert.equal(await panelShowing(api, `run ${later.runId} running`), `run ${later.runId} running`);
      await finish(later);
      await until('the panel to follow the run to its end', () => panelRun()?.runId === later.runId && panelRun()?.status === 'completed');
    } finally {
      if (api.isRunning()) await finish(later);
    }
  });

  it("a later run of the same plan waits: Export as Markdown checklist has the run opened's statuses, from the Plan view and from the panel", async () => {
    const plan = writing('open-run-export.txt');
    const earlier = await startWaiting(plan);
    await finish(earlier);
    rmSync(join(root, 'open-run-export.txt'));
    const later = await startWaiting(plan);
    try {
      await vscode.commands.executeCommand('taskPlanner.openRun', earlier.runId);
      await until('the Plan view to show the run opened', () => api.planTreeNodes().find((node) => node.stepId === 'W1')?.icon === 'pass-filled');
      // From the Plan view's title bar: no panel in front.
      api.planPanel.close();
      const fromView = await vscode.commands.executeCommand<string | undefined>('taskPlanner.exportPlanMarkdown');
      assert.match(fromView ?? '', /· run completed/);
      assert.match(fromView ?? '', /^- \[x\] \*\*W1\*\*/m);
      // From the panel's, showing the run opened.
      await showPlan();
      assert.equal(await panelShowing(api, `run ${earlier.runId} completed`), `run ${earlier.runId} completed`);
      await until('the panel in front', () => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputWebview);
      const fromPanel = await vscode.commands.executeCommand<string | undefined>('taskPlanner.exportPlanMarkdown');
      assert.match(fromPanel ?? '', /· run completed/);
      assert.match(fromPanel ?? '', /^- \[x\] \*\*W1\*\*/m);
    } finally {
      await finish(later);
    }
  });

  it('a run a window left running (its journal ends mid-run, no snapshot) opens as interrupted, with Resume; not as going on', async () => {
    const ended = await api.startPlan(listing);
    assert.equal(ended.status, 'completed');
    // Another run after it, so the run is read from its journal, not from the view of it last shown; the panel open on it.
    const other = await api.startPlan(listing);
    assert.equal(other.status, 'completed');
    await showPlan();
    assert.equal(await panelShowing(api, `run ${other.runId} completed`), `run ${other.runId} completed`);
    // What a window that died mid-run leaves: the journal up to the step's start, and no snapshot of the end.
    const runs = join(api.storageDir!, 'runs');
    const journal = join(runs, `${ended.runId}.jsonl`);
    const lines = readFileSync(journal, 'utf8').split('\n').filter((line) => line !== '');
    const started = lines.findIndex((line) => (JSON.parse(line) as { type?: string }).type === 'step_started');
    assert.ok(started > 0, 'the journal has no step_started line');
    writeFileSync(journal, `${lines.slice(0, started + 1).join('\n')}\n`);
    for (const name of readdirSync(runs)) if (name.startsWith(ended.runId) && name !== `${ended.runId}.jsonl`) rmSync(join(runs, name));
    // Opened with the panel open, the panel shows it as the Runs view and the Plan view do (it read "running": a trial).
    await vscode.commands.executeCommand('taskPlanner.openRun', ended.runId);
    assert.equal(await panelShowing(api, `run ${ended.runId} interrupted`), `run ${ended.runId} interrupted`);
    assert.match(api.planViewDescription() ?? '', /interrupted/);
    await showPlan();
    assert.equal(await panelShowing(api, `run ${ended.runId} interrupted`), `run ${ended.runId} interrupted`);
  });

  it("the panel's Run from here runs the plan of the run it shows again, the run opened in the Runs view", async () => {
    const shown = await api.startPlan(listing);
    assert.equal(shown.status, 'completed');
    const other = await startWaiting(writing('open-run-rerun.txt'));
    await finish(other);
    assert.equal(await panelShowing(api, `run ${other.runId} completed`), `run ${other.runId} completed`);
    // Opened in the Runs view: the panel, open on the other run, shows it too.
    await vscode.commands.executeCommand('taskPlanner.openRun', shown.runId);
    assert.equal(await panelShowing(api, `run ${shown.runId} completed`), `run ${shown.runId} completed`);
    assert.equal(api.currentPlan()?.id, listing.id);
    const before = new Set(await api.runIds());
    await api.planPanel.send({ type: 'runFromHere', stepId: 'L1' });
    try {
      let rerun: string | undefined;
      for (const deadline = Date.now() + 20_000; rerun === undefined && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
        rerun = (await api.runIds()).find((runId) => !before.has(runId));
      }
      assert.ok(rerun, 'no run started');
      assert.equal(await panelShowing(api, `run ${rerun} completed`), `run ${rerun} completed`);
      assert.equal(panelRun()?.objective, listing.objective);
      assert.equal(api.currentPlan()?.id, listing.id);
    } finally {
      if (api.pendingPrompts().some((prompt) => prompt.stepId === 'W1')) await vscode.commands.executeCommand('taskPlanner.approve', 'W1');
      // The panel shows the run completed a moment before the folder is free again: the next suite starts a run of its own.
      await until('the run from here to let its folder go', () => (api.isRunning() ? undefined : true));
    }
  });
});
