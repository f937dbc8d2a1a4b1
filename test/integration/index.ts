// Entry point the extension host loads (extensionTestsPath): runs the bundled *.test.js files next to it with
// mocha, inside the real VS Code extension host, then prints one "[test-stats] {json}" line that the code shim
// writes to $TEST_STATS_FILE for scripts/test.mjs. A rejected run() makes the host exit non-zero, and so does
// a committed `.only` (forbidOnly), which would otherwise run one test and pass.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { failureSummary } from '../support/failureSummary.cjs';
import { activatedApi } from './shownRuns';

/** How long a multi-root window may take to show its folders before it is taken for one that dropped them, in ms. */
const foldersWaitMs = 15_000;

/**
 * Whether this window was opened on a workspace file and still has no folders after `foldersWaitMs`: the web workbench
 * now and then drops the folders it read from the file (test/host/README.md, about one multi-root window in twelve).
 */
async function foldersDropped(): Promise<boolean> {
  if (vscode.workspace.workspaceFile === undefined) return false;
  for (let waited = 0; waited < foldersWaitMs; waited += 250) {
    if ((vscode.workspace.workspaceFolders?.length ?? 0) > 0) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return true;
}

/**
 * After a failed test, the runs it left going are cancelled (and waited for, up to 10 s), so that one failure is one
 * failure: a clean clone's run left waiting on an approval failed the 21 tests after it with "A run is already in progress".
 */
async function cancelRunsLeftGoing(this: Mocha.Context): Promise<void> {
  if (this.currentTest?.state !== 'failed') return;
  const api = await activatedApi();
  if (!api.isRunning()) return;
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const runId = api.runningIn(folder.name);
    if (runId === undefined) continue;
    console.log(`    (the failed test left run ${runId} going in ${folder.name}: cancelled)`);
    await vscode.commands.executeCommand('taskPlanner.cancelRun', runId);
  }
  for (let waited = 0; api.isRunning() && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
}

export async function run(): Promise<void> {
  // The read filled the workbench's cache of the workspace file, so one reload brings the folders; the tests then run in
  // the reloaded window's extension host (the test run's address is the window's). Only once: a second window without
  // folders runs its tests, which then fail for it, saying so.
  const workspaceFile = vscode.workspace.workspaceFile;
  if (workspaceFile !== undefined && (await foldersDropped())) {
    const reloaded = join(dirname(workspaceFile.fsPath), '.reloaded-for-its-folders');
    if (!existsSync(reloaded)) {
      writeFileSync(reloaded, '');
      console.log('The multi-root window came up without its folders; reloading it once.');
      await vscode.commands.executeCommand('workbench.action.reloadWindow');
      return new Promise(() => undefined);
    }
  }
  // mocha comes from the repository's node_modules (it is kept out of the bundle).
  const { default: Mocha } = await import('mocha');
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec', forbidOnly: true, rootHooks: { afterEach: cancelRunsLeftGoing } });
  const testFiles = readdirSync(__dirname).filter((name) => name.endsWith('.test.js')).sort();
  if (testFiles.length === 0) throw new Error(`no *.test.js files next to ${__filename}`);
  for (const name of testFiles) mocha.addFile(join(__dirname, name));
  await mocha.loadFilesAsync();
  const failedTests: { title: string; file: string; message: string }[] = [];
  const stats = await new Promise<{ passed: number; failed: number; skipped: number }>((resolve) => {
    const runner = mocha.run(() => {
      resolve({ passed: runner.stats?.passes ?? 0, failed: runner.stats?.failures ?? 0, skipped: runner.stats?.pending ?? 0 });
    });
    // The failed tests' titles travel with the counts, so the closing lines of `npm test` name them.
    runner.on('fail', (test, error: unknown) => {
      failedTests.push({ title: test.fullTitle(), file: test.file ?? '', message: failureSummary(error) });
    });
  });
  console.log(`[test-stats] ${JSON.stringify({ ...stats, failedTests })}`);
  if (stats.failed > 0) throw new Error(`${stats.failed} integration test(s) failed`);
}
