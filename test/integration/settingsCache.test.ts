// The settings are read once and kept until VS Code reports a change (src/vscode/settings.ts `readSettings`): a plan
// panel asks for them at each snapshot, and reading them all took milliseconds, which kept a 200-step run busy. The
// promise kept here: a read never returns a value older than what VS Code itself returns at that moment.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TaskPlannerApi } from './testBuild/testExtension';

const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
const settingsFile = join(root, '.vscode', 'settings.json');
const config = () => vscode.workspace.getConfiguration('taskPlanner');

async function api(): Promise<TaskPlannerApi> {
  const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
  assert.ok(extension);
  return extension.activate();
}

describe('The settings as the extension reads them (kept until VS Code reports a change)', function () {
  this.timeout(30_000);

  afterEach(async () => {
    await config().update('maxConcurrency', undefined, vscode.ConfigurationTarget.Global);
    await config().update('review.show', undefined, vscode.ConfigurationTarget.Global);
  });

  it('reads once between changes, and hands out settings no caller can change for the others', async () => {
    const planner = await api();
    const first = planner.settings();
    assert.equal(planner.settings(), first, 'read again without a change');
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.budget) && Object.isFrozen(first.replan));
    assert.throws(() => {
      (first as { maxConcurrency: number }).maxConcurrency = 99;
    }, TypeError);
  });

  it('sees a change made through VS Code as soon as the change is made, with no wait', async () => {
    const planner = await api();
    const before = planner.settings().maxConcurrency;
    for (const value of [before + 3, before + 5, before + 1]) {
      await config().update('maxConcurrency', value, vscode.ConfigurationTarget.Global);
      assert.equal(planner.settings().maxConcurrency, value);
    }
    await config().update('review.show', 'quickPick', vscode.ConfigurationTarget.Global);
    assert.equal(planner.settings().review, 'quickPick');
    assert.equal(planner.settings().maxConcurrency, before + 1, 'a change of another setting keeps this one');
  });

  it('sees a settings file written by another program once VS Code reads it, at the same moment as VS Code', async () => {
    const planner = await api();
    const original = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined;
    const before = planner.settings().maxConcurrency;
    mkdirSync(join(root, '.vscode'), { recursive: true });
    try {
      // Lower: a workspace's limit counts only when it is stricter than the user's (tighterLimit).
      writeFileSync(settingsFile, JSON.stringify({ ...(original ? (JSON.parse(original) as object) : {}), 'taskPlanner.maxConcurrency': before - 1 }));
      const seen = await new Promise<number>((resolve) => {
        const listening = vscode.workspace.onDidChangeConfiguration((event) => {
          if (!event.affectsConfiguration('taskPlanner.maxConcurrency')) return;
          listening.dispose();
          resolve(planner.settings().maxConcurrency);
        });
      });
      assert.equal(seen, before - 1, "a listener of VS Code's change event reads the new value");
    } finally {
      if (original === undefined) rmSync(settingsFile, { force: true });
      else writeFileSync(settingsFile, original);
    }
    const end = Date.now() + 10_000;
    while (config().inspect('maxConcurrency')?.workspaceValue !== undefined && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(planner.settings().maxConcurrency, before);
  });
});
