// Runs another window of this workspace journaled (code-server keeps the window of a tab that lost its connection, holding its storage, for a
// reconnect; that window and this one then journal in sibling folders <id> and <id>-1): the Runs view lists them in a
// group of their own, says whether that window is still open, and offers nothing that would act on them from here.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { Plan } from '../../src/core/plan/planSchema';
import type { PlanTreeNode } from '../../src/core/view/planTreeModel';
import type { TaskPlannerApi } from './testBuild/testExtension';

function listPlan(objective: string): Plan {
  return {
    id: `plan-${objective.replace(/\W+/g, '-')}`,
    version: 1,
    objective,
    createdAt: '2026-01-01T00:00:00.000Z',
    agents: {},
    steps: [{ id: 'L1', title: 'List the files', kind: 'tool', tool: 'list_files', args: {}, dependsOn: [], onFailure: 'stop', maxAttempts: 1, critical: true, onVerificationFailure: 'stop' }],
  };
}

describe("runs of another window of the workspace, in the Runs view", function () {
  this.timeout(60_000);
  let planner: TaskPlannerApi;
  /** The fake other window's folder of the extension: a sibling `<id>-7` of this window's workspace storage. */
  let otherDir: string;
  let otherWindow: string;

  before(async () => {
    const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
    assert.ok(extension);
    planner = await extension.activate();
    assert.ok(planner.storageDir, 'the test window has no workspace storage');
    otherWindow = join(dirname(dirname(planner.storageDir)), `${basename(dirname(planner.storageDir)).replace(/-[1-9]$/, '')}-7`);
    otherDir = join(otherWindow, basename(planner.storageDir));
  });

  after(() => rmSync(otherWindow, { recursive: true, force: true }));

  const lock = (pid: number) => writeFileSync(join(otherWindow, 'vscode.lock'), JSON.stringify({ pid, willReleaseAt: 0 }));
  const group = async () => (await planner.runsViewNodes()).find((node) => node.id === 'otherWindowRuns');

  it('lists them apart, says whether that window is open, and Resume, Undo and Delete of one here leave its journal alone', async () => {
    const own = await planner.startPlan(listPlan('Mine to keep'));
    const theirs = await planner.startPlan(listPlan('Made in the other window'));
    assert.equal(theirs.status, 'completed');
    // The second run's journal moves to the other window's folder, as if that window had run it.
    mkdirSync(join(otherDir, 'runs'), { recursive: true });
    for (const name of readdirSync(join(planner.storageDir!, 'runs')).filter((file) => file.startsWith(theirs.runId))) {
      renameSync(join(planner.storageDir!, 'runs', name), join(otherDir, 'runs', name));
    }
    const journal = join(otherDir, 'runs', `${theirs.runId}.jsonl`);
    const journalText = readFileSync(journal, 'utf8');
    lock(process.pid);

    const shown = await group();
    assert.ok(shown, 'no group of the other window');
    assert.equal(shown.contextValue, 'otherWindowRuns');
    const rows = shown.children;
    // This window has the first folder VS Code tries: a reload never gives it the other one's (<id>-7).
    assert.deepEqual(rows.map((row) => [row.label, row.contextValue]), [['Made in the other window', 'otherWindowRun.held.stay']]);
    assert.match(rows[0]!.description, /completed/);
    assert.match(rows[0]!.tooltip, /another window of this workspace, open or \(in code-server\) a tab that lost its connection not long ago.*Answer, resume, undo or delete it in that window/s);
    const nodes = await planner.runsViewNodes();
    assert.ok(nodes.some((node) => node.id === `run:${own.runId}`), "this window's run left the list");
    assert.ok(!nodes.some((node) => node.id === `run:${theirs.runId}`), "the other window's run is listed as this window's");

    // What a row of this window's runs offers, aimed at the other window's run: nothing of it is touched.
    await vscode.commands.executeCommand('taskPlanner.undoRun', theirs.runId);
    await vscode.commands.executeCommand('taskPlanner.deleteRun', theirs.runId);
    const resumed = await vscode.commands.executeCommand<unknown>('taskPlanner.resumeRun', theirs.runId);
    assert.equal(resumed, undefined, 'a run of another window was resumed here');
    assert.equal(readFileSync(journal, 'utf8'), journalText, "the other window's journal changed");
    assert.ok(!existsSync(join(planner.storageDir!, 'runs', `${theirs.runId}.jsonl`)), 'the run was copied into this window');

    // That window ended: its lock is gone (or its process is).
    rmSync(join(otherWindow, 'vscode.lock'));
    const ended = await group();
    assert.equal(ended?.children[0]?.contextValue, 'otherWindowRun.ended.stay');
    assert.match(ended?.children[0]?.tooltip ?? '', /a window of this workspace that has ended/);
  });

  it('follows the other window while the Runs view is visible: its journal written, its window ending, without a refresh here', async () => {
    await vscode.commands.executeCommand('taskPlanner.runs.focus');
    /** The other window's first row as VS Code shows it, once `holds` holds of it (listings before that are passed over). */
    const shows = async (what: string, holds: (row: PlanTreeNode | undefined) => boolean): Promise<void> => {
      // The view looks every 5 s while visible; a loaded machine (a clean clone) took longer than 20 s to show a change.
      const deadline = Date.now() + 60_000;
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        for (;;) {
          const nodes = await Promise.race([
            planner.runsViewShown(),
            new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), deadline - Date.now()))),
          ]);
          clearTimeout(timer);
          assert.ok(nodes, `the Runs view did not show ${what} within 60 s`);
          if (holds(nodes.find((node) => node.id === 'otherWindowRuns')?.children[0])) return;
        }
      } finally {
        clearTimeout(timer);
      }
    };
    const journal = readdirSync(join(otherDir, 'runs')).find((name) => name.endsWith('.jsonl'));
    assert.ok(journal);

    lock(process.pid);
    await shows('the other window open', (row) => row?.contextValue === 'otherWindowRun.held.stay');
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(otherDir, 'runs', journal), later, later);
    await shows("the other window's run written", (row) => row?.description.includes(later.toLocaleString()) === true);
    rmSync(join(otherWindow, 'vscode.lock'));
    await shows('the other window ended', (row) => row?.contextValue === 'otherWindowRun.ended.stay');
  });

  it("offers none of the Runs view's item actions on a run of another window, or on their group", () => {
    const manifest = vscode.extensions.getExtension('task-planner.task-planner')?.packageJSON as { contributes: { menus: Record<string, { command: string; when?: string }[]> } };
    const items = manifest.contributes.menus['view/item/context']!.filter((entry) => /\bview == taskPlanner\.runs\b/.test(entry.when ?? ''));
    assert.ok(items.length >= 4, 'the Runs view has no item actions to check');
    const contexts = ['otherWindowRuns', ...['held', 'ended'].flatMap((held) => ['reload', 'stay'].map((reload) => `otherWindowRun.${held}.${reload}`))];
    for (const entry of items) {
      const pattern = /viewItem =~ \/(.+?)\/(?:\s|$)/.exec(entry.when ?? '')?.[1];
      assert.ok(pattern, `${entry.command} is offered on every row of the Runs view`);
      for (const context of contexts) assert.doesNotMatch(context, new RegExp(pattern), `${entry.command} is offered on ${context}`);
    }
  });

  it("leaves out a damaged journal of the other window, and shows no group when it holds no run", async () => {
    writeFileSync(join(otherDir, 'runs', 'damaged.jsonl'), 'not json\n{"also": "cut');
    const shown = await group();
    assert.deepEqual(shown?.children.map((row) => row.label), ['Made in the other window']);
    rmSync(join(otherDir, 'runs'), { recursive: true, force: true });
    assert.equal(await group(), undefined);
  });
});
