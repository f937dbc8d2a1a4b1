// What the integration tests of "the run the user sees" share (openRunShowPlan, planTreeShownRun, multiRootOpenRun,
// multiRootPanelFollowedRun): plans of tool steps, waiting on a condition or a write's diff, a workspace folder by name, and what the
// plan panel shows in a few words.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Plan, Step } from '../../src/core/plan/planSchema';
import type { TaskPlannerApi } from './testBuild/testExtension';

/** The test build's API, once the extension is active. */
export async function activatedApi(): Promise<TaskPlannerApi> {
  const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
  assert.ok(extension);
  return extension.activate();
}

/** A tool step with the defaults a plan file would give it (no dependency, stop on failure, one attempt, critical). */
export function toolStep(id: string, fields: Pick<Step, 'title' | 'tool' | 'args'> & Partial<Pick<Step, 'dependsOn'>>): Step {
  return { id, kind: 'tool', dependsOn: [], onFailure: 'stop', maxAttempts: 1, critical: true, onVerificationFailure: 'stop', ...fields };
}

/** A plan of `steps`, its id and objective as given. */
export function planOf(id: string, objective: string, steps: Step[]): Plan {
  return { id, version: 1, objective, createdAt: '2026-01-01T00:00:00.000Z', agents: {}, steps };
}

/** A plan of one tool step (`step` with its id). */
export function planOfStep(id: string, objective: string, { id: stepId, ...fields }: Pick<Step, 'id' | 'title' | 'tool' | 'args'>): Plan {
  return planOf(id, objective, [toolStep(stepId, fields)]);
}

/**
 * Until the active tab is a diff (a write's approval): an editor opened while that diff is still coming can fail to open
 * ("Could NOT open editor", on a loaded machine).
 */
export async function diffInFront(): Promise<void> {
  await until('the diff of the write', () => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff);
}

/** The value `probe` gives once it gives one (neither `undefined` nor `false`), polled every 50 ms; fails naming `what` after `timeoutMs`. */
export async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The workspace folder named `name` (see runIntegration.ts for the two-folder workspace). */
export function folderNamed(name: string): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.name === name);
  assert.ok(folder, `the workspace has no folder ${name}`);
  return folder;
}

/** What the plan panel shows, in a few words: `run <id> <status>`, `review of <plan id>` or its mode. */
export function panelShows(api: TaskPlannerApi): string {
  const model = api.planPanel.model();
  if (model?.mode === 'run') return `run ${model.run.runId} ${model.run.status}`;
  return model?.mode === 'review' ? `review of ${model.review.planId}` : String(model?.mode);
}

/**
 * What the panel shows once it shows `expected` (a webview brought back in front posts when it is ready again), else after
 * 20 s: a panel opened anew loads its webview first, which took more than 5 s on a loaded CI machine.
 */
export async function panelShowing(api: TaskPlannerApi, expected: string): Promise<string> {
  await until(expected, () => panelShows(api) === expected).catch(() => undefined);
  return panelShows(api);
}
