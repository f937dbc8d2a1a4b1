// "Open run" in the Runs view, then "Show plan", in a workspace of two folders (`api` and `web`; see runIntegration.ts):
// the plan panel shows the run opened, not the run of the other folder it followed, which ended while `api` was current.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Plan, Step } from '../../src/core/plan/planSchema';
import type { TaskPlannerApi } from './testBuild/testExtension';

function folderNamed(name: string): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.name === name);
  assert.ok(folder, `the workspace has no folder ${name}`);
  return folder;
}

function planOf(id: string, objective: string, step: Pick<Step, 'id' | 'title' | 'tool' | 'args'>): Plan {
  return {
    id,
    version: 1,
    objective,
    createdAt: '2026-01-01T00:00:00.000Z',
    agents: {},
    steps: [{ kind: 'tool', dependsOn: [], onFailure: 'stop', maxAttempts: 1, critical: true, onVerificationFailure: 'stop', ...step }],
  };
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('Open run, then Show plan, in a workspace of two folders', function () {
  this.timeout(60_000);
  let api: TaskPlannerApi;
  /** What the panel shows, in a few words: `run <id> <status>`, `review of <plan id>` or its mode. */
  const panelShows = (): string => {
    const model = api.planPanel.model();
    if (model?.mode === 'run') return `run ${model.run.runId} ${model.run.status}`;
    return model?.mode === 'review' ? `review of ${model.review.planId}` : String(model?.mode);
  };
  /** What the panel shows once it shows `expected` (a webview brought back in front posts when it is ready again), else after 5 s. */
  const panelShowing = async (expected: string): Promise<string> => {
    await until(expected, () => panelShows() === expected, 5_000).catch(() => undefined);
    return panelShows();
  };
  const showPlan = () => vscode.commands.executeCommand('taskPlanner.showPlan');

  before(async () => {
    const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
    assert.ok(extension);
    api = await extension.activate();
  });

  after(() => api.planPanel.close());

  it("both runs ended: Show plan shows the run opened in one folder, not the other folder's run the panel followed", async () => {
    const listing = planOf('open-run-api', 'List the api folder', { id: 'L1', title: 'List the files', tool: 'list_files', args: {} });
    const ended = await api.startPlan(listing, folderNamed('api'));
    assert.equal(ended.status, 'completed');
    const writing = planOf('open-run-web', 'Write a note in web', {
      id: 'W1',
      title: 'Write the note',
      tool: 'write_file',
      args: { path: 'open-run-note.txt', content: 'note\n' },
    });
    const other = api.startPlan(writing, folderNamed('web'));
    assert.deepEqual(await api.nextPrompt(), { stepId: 'W1', kind: 'approval' });
    await until('the diff of the write', () => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff);
    await until('the Plan view to show the waiting step', () => api.planTreeNodes().some((node) => node.contextValue === 'step.tool.awaiting_approval'));
    await showPlan();
    const followed = await until('the panel to follow the run in web', () => {
      const model = api.planPanel.model();
      return model?.mode === 'run' && model.run.pending.length > 0 ? model.run.runId : undefined;
    });
    await vscode.commands.executeCommand('taskPlanner.openRun', ended.runId);
    assert.equal(api.currentPlan()?.id, listing.id, 'the Plan view does not show the run opened');
    // The run in web ends while api is the current folder: both runs have ended now.
    await vscode.commands.executeCommand('taskPlanner.approve', 'W1');
    assert.equal((await other).status, 'completed');
    assert.equal(api.currentPlan()?.id, listing.id, 'the Plan view left the run opened');
    await showPlan();
    assert.equal(await panelShowing(`run ${ended.runId} completed`), `run ${ended.runId} completed`);
    // Opened in turn, the run of web shows as it ended, not as the panel last saw it.
    await vscode.commands.executeCommand('taskPlanner.openRun', followed);
    await showPlan();
    assert.equal(await panelShowing(`run ${followed} completed`), `run ${followed} completed`);
  });
});
