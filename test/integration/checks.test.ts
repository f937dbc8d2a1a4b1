// Step checks in the real extension host: `no_new_diagnostics` over the TypeScript language service, and the
// Start-time question about a plan's check commands.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Check, Plan } from '../../src/core/plan/planSchema';
import type { TaskPlannerApi } from './testBuild/testExtension';

const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';

async function api(): Promise<TaskPlannerApi> {
  const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
  assert.ok(extension);
  return extension.activate();
}

/** A one-step plan: write `path` with `content`, then run `checks`. */
function writePlan(path: string, content: string, checks: Check[]): Plan {
  return {
    id: `plan-${path}`,
    version: 1,
    objective: `Write ${path}`,
    createdAt: '2026-01-01T00:00:00.000Z',
    agents: {},
    steps: [
      { id: 'S1', title: `Write ${path}`, kind: 'tool', tool: 'write_file', args: { path, content }, dependsOn: [], onFailure: 'stop', maxAttempts: 1, critical: true, onVerificationFailure: 'stop', checks },
    ],
  };
}

/** Resolves once the TypeScript service reports an error for `uri` (it may take a while to start on a busy machine). */
async function typeErrorReported(uri: vscode.Uri, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!vscode.languages.getDiagnostics(uri).some((diagnostic) => diagnostic.severity === vscode.DiagnosticSeverity.Error)) {
    if (Date.now() > end) throw new Error(`no TypeScript error reported for ${uri.fsPath} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('Step checks in the editor', function () {
  this.timeout(120_000);
  const config = () => vscode.workspace.getConfiguration('taskPlanner');

  before(async () => {
    // Writes without a diff to approve: the checks are what these tests look at (the user's setting: a workspace's
    // can only make approvals stricter).
    await config().update('approvalPolicy', 'commandsOnly', vscode.ConfigurationTarget.Global);
    // The TypeScript service starts on the first TypeScript file it sees: wait for it once, so the checks below
    // measure the settling of diagnostics after a write, not the service's start.
    const warm = join(root, 'warm-up.ts');
    writeFileSync(warm, 'export const warm: number = "not a number";\n');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(warm)));
    await typeErrorReported(vscode.Uri.file(warm));
  });

  after(async () => {
    await config().update('approvalPolicy', undefined, vscode.ConfigurationTarget.Global);
  });

  it('no_new_diagnostics fails when a write gives a TypeScript file a type error, and passes once it is fixed', async () => {
    const planner = await api();
    const broken = await planner.startPlan(writePlan('typed.ts', 'export const count: number = "three";\n', [{ kind: 'no_new_diagnostics' }]));
    assert.equal(broken.status, 'failed', broken.metadata.reason);
    const step = broken.steps.S1;
    assert.match(step?.diagnosis ?? '', /^Check 1 \(no new errors in the changed files\) failed: 1 new error: typed\.ts:1 Type 'string' is not assignable to type 'number'\. \(ts\)/);
    assert.deepEqual(step?.checks?.map((check) => [check.kind, check.passed]), [['no_new_diagnostics', false]]);

    const fixed = await planner.startPlan(writePlan('typed.ts', 'export const count: number = 3;\n', [{ kind: 'no_new_diagnostics', paths: ['typed.ts'] }]));
    assert.equal(fixed.status, 'completed', fixed.metadata.reason ?? fixed.steps.S1?.diagnosis);
    assert.deepEqual(fixed.steps.S1?.checks, [{ kind: 'no_new_diagnostics', passed: true, detail: 'no new errors in typed.ts' }]);
  });

  it('asks about the plan\'s check commands once at Start: declined, they fail as not allowed; allowed, they run without asking again', async () => {
    const planner = await api();
    const check: Check = { kind: 'command', argv: [process.execPath, '-e', 'process.exit(0)'] };
    const plan = writePlan('checked.txt', 'checked\n', [check, check]);
    const asked = planner.checkCommands.questions.length;

    planner.checkCommands.answer(false);
    const declined = await planner.startPlan(plan);
    assert.equal(declined.status, 'failed');
    assert.match(declined.steps.S1?.diagnosis ?? '', /^Check 1 \(command `.+ -e process\.exit\(0\)`\) failed: not allowed: the check commands were declined when the run started\nCheck 2/);
    assert.equal(planner.checkCommands.questions.length, asked + 1, 'one question for the plan, not one per check');
    assert.match(planner.checkCommands.questions[asked] ?? '', /^This plan runs these commands to check its work:\n {2}.+ -e "process\.exit\(0\)" \(in the workspace folder\)\nAny other command asks you when it runs\.\nAllow them for this run\?$/);

    planner.checkCommands.answer(true);
    const allowed = await planner.startPlan(plan);
    assert.equal(allowed.status, 'completed', allowed.steps.S1?.diagnosis);
    assert.deepEqual(planner.pendingPrompts(), []);
    assert.deepEqual(allowed.steps.S1?.checks?.map((outcome) => outcome.detail), ['exit code 0', 'exit code 0']);

    planner.checkCommands.answer(undefined);
    await assert.rejects(planner.startPlan(plan), /The run was not started: the question whether its check commands may run was closed without an answer\./);
    planner.checkCommands.answer(true);
  });
});
