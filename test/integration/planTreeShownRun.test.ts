// The Plan tree's step actions (Open result, Undo from here, Run from here) act on the run the Plan view shows: a run
// opened from the Runs view while another run of the folder goes on, or no run at all for a plan shown before it runs,
// never the folder's latest run.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { PlanTreeNode } from '../../src/core/view/planTreeModel';
import type { TaskPlannerApi } from './testBuild/testExtension';
import { activatedApi, diffInFront, planOf, toolStep, until } from './shownRuns';

const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';

describe('The Plan tree acts on the run it shows', function () {
  this.timeout(60_000);
  let api: TaskPlannerApi;
  /** Files the tests wrote into the workspace, removed afterwards. */
  const written: string[] = [];
  const write = (name: string, text: string): void => {
    writeFileSync(join(root, name), text);
    written.push(name);
  };
  /** The Plan tree's node of step `stepId` as the view shows it now. */
  const nodeOf = (stepId: string): PlanTreeNode => {
    const node = api.planTreeNodes().find((candidate) => candidate.stepId === stepId);
    assert.ok(node, `the Plan tree shows no step ${stepId}`);
    return node;
  };
  /**
   * Shows `plan` in the Plan tree before it runs, read as "Review plan file" reads it. A review closed without a run
   * leaves the Plan view as it was before (a newcomer's trial): the plan it was given is shown as the tree shows a plan
   * edited there.
   */
  const showUnrun = async (name: string, plan: { objective: string; steps: unknown[] }): Promise<void> => {
    write(name, `${JSON.stringify(plan, null, 2)}\n`);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(join(root, name)));
    let reviewed: Parameters<typeof api.setCurrentPlan>[0] | undefined;
    api.setPlanReview(async (given) => {
      reviewed = given;
      return undefined;
    });
    try {
      await vscode.commands.executeCommand('taskPlanner.reviewPlanFile', editor.document.uri);
    } finally {
      api.setPlanReview(undefined);
    }
    assert.ok(reviewed, 'the review was not given the plan');
    api.setCurrentPlan(reviewed);
    assert.equal(api.currentPlan()?.objective, plan.objective, 'the Plan tree does not show the plan');
  };

  before(async () => {
    api = await activatedApi();
  });

  beforeEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));
  after(() => {
    for (const name of written) rmSync(join(root, name), { force: true });
  });

  it("Open result, after Open run, shows the step's result of the run opened, not of the run going on", async () => {
    const plan = planOf('shown-result', 'Read the note, then write the copy', [
      toolStep('R1', { title: 'Read the note', tool: 'read_file', args: { path: 'shown-result.txt' } }),
      toolStep('W1', { title: 'Write the copy', tool: 'write_file', args: { path: 'shown-result-copy.txt', content: 'copy\n' }, dependsOn: ['R1'] }),
    ]);
    write('shown-result.txt', 'read by the first run\n');
    written.push('shown-result-copy.txt');
    const first = api.startPlan(plan);
    assert.deepEqual(await api.nextPrompt(), { stepId: 'W1', kind: 'approval' });
    await vscode.commands.executeCommand('taskPlanner.approve', 'W1');
    const ended = await first;
    assert.equal(ended.status, 'completed');
    // The same plan again, reading another text; its write waits, so the run goes on.
    write('shown-result.txt', 'read by the second run\n');
    rmSync(join(root, 'shown-result-copy.txt'));
    const second = api.startPlan(plan);
    try {
      assert.deepEqual(await api.nextPrompt(), { stepId: 'W1', kind: 'approval' });
      // The Plan view shows the run going on (its coalesced update came), as the user sees it before opening another.
      await until('the Plan view to show the waiting step', () => nodeOf('W1').contextValue === 'step.tool.awaiting_approval');
      // Its diff has opened (on a loaded machine it came while the result opened, and that editor failed to open).
      await diffInFront();
      await vscode.commands.executeCommand('taskPlanner.openRun', ended.runId);
      // The Plan view shows the run opened: its write completed, none waiting.
      await until('the Plan view to show the run opened', () => nodeOf('W1').icon === 'pass-filled');
      await vscode.commands.executeCommand('taskPlanner.openResult', nodeOf('R1'));
      const shown = await until('the result to open', () => vscode.window.activeTextEditor?.document.getText());
      assert.match(shown, /read by the first run/);
      assert.doesNotMatch(shown, /read by the second run/);
      // Shown as `key: value` lines: plain text, not a JSON file with a problem on its first line (a trial).
      assert.equal(vscode.window.activeTextEditor?.document.languageId, 'plaintext');
    } finally {
      await vscode.commands.executeCommand('taskPlanner.approve', 'W1');
      assert.equal((await second).status, 'completed');
    }
  });

  it('Undo from here on a step of a plan shown before it runs takes back nothing of the run that ended before', async () => {
    const earlier = planOf('undo-unrun-earlier', 'Write the undo note', [
      toolStep('S1', { title: 'Write the undo note', tool: 'write_file', args: { path: 'undo-unrun-note.txt', content: 'written by the earlier run\n' } }),
    ]);
    written.push('undo-unrun-note.txt');
    const running = api.startPlan(earlier);
    assert.deepEqual(await api.nextPrompt(), { stepId: 'S1', kind: 'approval' });
    await vscode.commands.executeCommand('taskPlanner.approve', 'S1');
    assert.equal((await running).status, 'completed');
    // Another plan, with a step of the same id, shown in the Plan tree before it runs.
    await showUnrun('undo-unrun.plan.json', { objective: 'List the files', steps: [{ id: 'S1', title: 'List the files', tool: 'list_files', args: {} }] });
    await vscode.commands.executeCommand('taskPlanner.undoFromHere', nodeOf('S1'));
    assert.ok(existsSync(join(root, 'undo-unrun-note.txt')), 'Undo from here took back the earlier run');
    assert.equal(readFileSync(join(root, 'undo-unrun-note.txt'), 'utf8'), 'written by the earlier run\n');
  });

  it('Run from here on a step of a plan shown before it runs keeps no result of the run that ended before', async () => {
    const earlier = planOf('rerun-unrun-earlier', 'List the files', [toolStep('S1', { title: 'List the files', tool: 'list_files', args: {} })]);
    assert.equal((await api.startPlan(earlier)).status, 'completed');
    // Another plan, whose S1 is not S2's dependency: running it from S2 keeps the result S1 has in the run shown, if any.
    await showUnrun('rerun-unrun.plan.json', {
      objective: 'Read the README and list the files',
      steps: [
        { id: 'S1', title: 'Read the README', tool: 'read_file', args: { path: 'README.md' } },
        { id: 'S2', title: 'List the files', tool: 'list_files', args: {} },
      ],
    });
    await vscode.commands.executeCommand('taskPlanner.runFromHere', nodeOf('S2'));
    const [runId] = await api.runIds();
    assert.ok(runId);
    const journal = (await api.journal(runId)) as { type: string; stepId?: string; restored?: boolean }[];
    assert.ok(journal.some((entry) => entry.type === 'run_started'));
    assert.deepEqual(
      journal.filter((entry) => entry.type === 'step_completed' && entry.restored === true).map((entry) => entry.stepId),
      [],
      'the run kept a result of another run',
    );
    assert.ok(journal.some((entry) => entry.type === 'step_started' && entry.stepId === 'S1'), 'S1 did not run');
  });

  it('Undo run from the Command Palette, after Open run, undoes the run opened, not the run going on', async () => {
    const opened = planOf('palette-undo-opened', 'Write the first note', [
      toolStep('X1', { title: 'Write the first note', tool: 'write_file', args: { path: 'palette-undo-opened.txt', content: 'opened\n' } }),
    ]);
    const going = planOf('palette-undo-going', 'Write two notes', [
      toolStep('Y1', { title: 'Write the second note', tool: 'write_file', args: { path: 'palette-undo-going.txt', content: 'going\n' } }),
      toolStep('Y2', { title: 'Write the third note', tool: 'write_file', args: { path: 'palette-undo-going-2.txt', content: 'going\n' }, dependsOn: ['Y1'] }),
    ]);
    written.push('palette-undo-opened.txt', 'palette-undo-going.txt', 'palette-undo-going-2.txt');
    const first = api.startPlan(opened);
    assert.deepEqual(await api.nextPrompt(), { stepId: 'X1', kind: 'approval' });
    await vscode.commands.executeCommand('taskPlanner.approve', 'X1');
    const ended = await first;
    assert.equal(ended.status, 'completed');
    // Another run changes a file, then waits.
    const second = api.startPlan(going);
    try {
      assert.deepEqual(await api.nextPrompt(), { stepId: 'Y1', kind: 'approval' });
      await vscode.commands.executeCommand('taskPlanner.approve', 'Y1');
      await until('Y2 to wait', () => api.pendingPrompts().some((prompt) => prompt.stepId === 'Y2'));
      await until('the Plan view to show Y2 waiting', () => nodeOf('Y2').contextValue === 'step.tool.awaiting_approval');
      await vscode.commands.executeCommand('taskPlanner.openRun', ended.runId);
      assert.equal(api.currentPlan()?.id, opened.id, 'the Plan view does not show the run opened');
      await vscode.commands.executeCommand('taskPlanner.undoRun');
      assert.ok(existsSync(join(root, 'palette-undo-going.txt')), 'Undo run took back the run going on');
      assert.ok(!existsSync(join(root, 'palette-undo-opened.txt')), 'Undo run did not take back the run opened');
      // The run going on, named: refused (its next steps would go on from files Undo put back), and not offered in its row.
      const rows = await api.runsViewNodes();
      const goingRow = rows.find((node) => node.icon === 'sync~spin');
      assert.equal(goingRow?.contextValue, 'run.running');
      assert.equal(rows.find((node) => node.id === `run:${ended.runId}`)?.contextValue, 'run.completed', 'Undo offered for a run undone already');
      assert.equal(await vscode.commands.executeCommand('taskPlanner.undoRun', goingRow.id.replace(/^run:/, '')), undefined);
      assert.ok(existsSync(join(root, 'palette-undo-going.txt')), 'Undo run took back a run going on');
    } finally {
      await vscode.commands.executeCommand('taskPlanner.approve', 'Y2');
      await second;
    }
  });

  it("After Open run, the Plan view keeps the run opened while another run goes on and ends; the status bar's click shows that run", async () => {
    const opened = planOf('kept-opened', 'List the files once', [toolStep('K1', { title: 'List the files', tool: 'list_files', args: {} })]);
    const going = planOf('kept-going', 'Write the kept note', [
      toolStep('K2', { title: 'Write the kept note', tool: 'write_file', args: { path: 'kept-going.txt', content: 'going\n' } }),
    ]);
    written.push('kept-going.txt');
    const ended = await api.startPlan(opened);
    assert.equal(ended.status, 'completed');
    const second = api.startPlan(going);
    assert.deepEqual(await api.nextPrompt(), { stepId: 'K2', kind: 'approval' });
    await until('the Plan view to show the waiting step', () => api.currentPlan()?.id === going.id && nodeOf('K2').contextValue === 'step.tool.awaiting_approval');
    await vscode.commands.executeCommand('taskPlanner.openRun', ended.runId);
    assert.equal(api.currentPlan()?.id, opened.id, 'the Plan view does not show the run opened');
    // Its title says which run it shows (the plan panel may show another).
    assert.equal(api.planViewDescription(), 'completed · List the files once');
    // The run going on changes (its write approved and done) and ends: each of its snapshots reaches the views at once.
    await vscode.commands.executeCommand('taskPlanner.approve', 'K2');
    const result = await second;
    assert.equal(result.status, 'completed');
    assert.equal(api.currentPlan()?.id, opened.id, 'the Plan view jumped back to the run going on');
    assert.equal(nodeOf('K1').icon, 'pass-filled');
    // The status bar names the run that went on; its click shows it.
    assert.match(api.statusBarTooltip(), /^Run "Write the kept note": completed, /);
    const command = api.statusBarCommand();
    assert.equal(command?.command, 'taskPlanner.openRun');
    await vscode.commands.executeCommand(command.command, ...((command.arguments ?? []) as unknown[]));
    assert.equal(api.currentPlan()?.id, going.id, "the status bar's click did not show its run");
    assert.equal(api.planViewDescription(), 'completed · Write the kept note');
    assert.equal(api.planTreeNodes().find((node) => node.stepId === 'K2')?.icon, 'pass-filled');
  });

  // A newcomer's trial (2026-12-02): a second request planned with the same steps left the first request's title on the
  // Plan view, since no row changed; and a long request's "(36 more characters cut)" note was cut by the view itself.
  it("A second plan of the same steps is shown as that plan: the view's title names its request, cut with a plain '…'", async () => {
    const steps = [toolStep('T1', { title: 'List the files', tool: 'list_files', args: {} })];
    api.setCurrentPlan(planOf('titled-first', 'Echo hello from the first request', steps));
    assert.equal(api.planViewDescription(), 'Echo hello from the first request');
    const long = 'Echo hello again from a second request that is longer than the title has room for';
    api.setCurrentPlan(planOf('titled-second', long, steps));
    const title = api.planViewDescription() ?? '';
    assert.ok(title.startsWith('Echo hello again from a second') && title.endsWith('…') && title.length <= 48, title);
    assert.doesNotMatch(title, /more characters/);
  });

  it('A plan shown while a run waits stays in the Plan view as the run goes on; the next run started is followed', async () => {
    const going = planOf('shown-while-going', 'Write the waiting note', [
      toolStep('G1', { title: 'Write the waiting note', tool: 'write_file', args: { path: 'shown-while-going.txt', content: 'going\n' } }),
    ]);
    written.push('shown-while-going.txt');
    const running = api.startPlan(going);
    assert.deepEqual(await api.nextPrompt(), { stepId: 'G1', kind: 'approval' });
    // Its diff has opened: the plan file opened while it came failed to open on a loaded machine (a clean clone).
    await diffInFront();
    await showUnrun('shown-while-going.plan.json', { objective: 'Read the README later', steps: [{ id: 'R9', title: 'Read the README', tool: 'read_file', args: { path: 'README.md' } }] });
    await vscode.commands.executeCommand('taskPlanner.approve', 'G1');
    assert.equal((await running).status, 'completed');
    assert.equal(api.currentPlan()?.objective, 'Read the README later', 'the run going on replaced the plan shown');
    // A run started afterwards is followed again.
    const next = planOf('followed-next', 'List the files afterwards', [toolStep('F1', { title: 'List the files', tool: 'list_files', args: {} })]);
    assert.equal((await api.startPlan(next)).status, 'completed');
    assert.equal(api.currentPlan()?.id, next.id, 'the Plan view does not follow the run started');
    assert.equal(nodeOf('F1').icon, 'pass-filled');
  });

  it("the status bar leaves a run that ended while the Plan view shows a plan not run yet, and shows it again with the run", async () => {
    const ended = await api.startPlan(planOf('status-bar-ended', 'List the files for the status bar', [toolStep('B1', { title: 'List the files', tool: 'list_files', args: {} })]));
    assert.equal(ended.status, 'completed');
    assert.equal(api.statusBarShown(), true, 'the run that ended left the status bar at once');
    assert.match(api.statusBarText(), /^\$\(pass\) Task Planner 1\/1$/);
    // A new plan in review: the last run's "✓ 1/1" is not this plan's.
    await showUnrun('status-bar-review.plan.json', { objective: 'Write the status note', steps: [toolStep('N1', { title: 'Write the note', tool: 'list_files', args: {} })] });
    assert.equal(api.statusBarShown(), false, "the status bar showed the last run's outcome beside a plan in review");
    // Opened again, the run is back in the Plan view and in the status bar.
    await vscode.commands.executeCommand('taskPlanner.openRun', ended.runId);
    await until('the run in the status bar again', () => api.statusBarShown());
    assert.match(api.statusBarText(), /^\$\(pass\) Task Planner 1\/1$/);
  });

  it('Cancel run, while the Plan view shows a run that ended, asks before stopping the run going on (dialogs answer nothing in tests)', async () => {
    const ended = await api.startPlan(planOf('cancel-asks-ended', 'List the files first', [toolStep('Q1', { title: 'List the files', tool: 'list_files', args: {} })]));
    const going = planOf('cancel-asks-going', 'Write the cancel note', [
      toolStep('Q2', { title: 'Write the cancel note', tool: 'write_file', args: { path: 'cancel-asks.txt', content: 'going\n' } }),
    ]);
    written.push('cancel-asks.txt');
    const second = api.startPlan(going);
    await until('the write to wait', () => api.pendingPrompts().some((prompt) => prompt.stepId === 'Q2'));
    await vscode.commands.executeCommand('taskPlanner.openRun', ended.runId);
    await vscode.commands.executeCommand('taskPlanner.cancelRun');
    assert.equal(api.isRunning(), true, 'the run going on was stopped without asking, while another run was shown');
    // Opened in the Plan view, it is the one Cancel run stops.
    const goingId = api.runningIn(vscode.workspace.workspaceFolders?.[0]?.name ?? '');
    assert.ok(goingId);
    await vscode.commands.executeCommand('taskPlanner.openRun', goingId);
    await vscode.commands.executeCommand('taskPlanner.cancelRun');
    assert.equal((await second).status, 'cancelled');
  });
});
