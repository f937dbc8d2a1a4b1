// Runs inside the real VS Code extension host (code-server), against the built extension in dist/.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { withStepDefaults } from '../../src/core/plan/planSchema';
import type { TaskPlannerApi } from './testBuild/testExtension';

const extensionId = 'task-planner.task-planner';

interface Manifest {
  contributes: { commands: { command: string }[] };
}

async function activatedApi(): Promise<TaskPlannerApi> {
  const extension = vscode.extensions.getExtension<TaskPlannerApi>(extensionId);
  assert.ok(extension, `extension ${extensionId} is not loaded`);
  return extension.activate();
}

describe('Task Planner in the VS Code extension host', () => {
  it('is active and returns its API (activation.test.ts measures and prints what activating costs)', async () => {
    const api = await activatedApi();
    assert.equal(vscode.extensions.getExtension(extensionId)?.isActive, true);
    assert.equal(typeof api.planTask, 'function');
    assert.equal(typeof api.planTreeLabels, 'function');
  });

  it('registers every command contributed in package.json', async () => {
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension);
    await extension.activate();
    const manifest = JSON.parse(readFileSync(join(extension.extensionPath, 'package.json'), 'utf8')) as Manifest;
    const contributed = manifest.contributes.commands.map((entry) => entry.command);
    assert.ok(contributed.length > 0, 'package.json contributes no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((command) => !registered.has(command));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('"Plan task" fills the Plan tree with the request\'s steps', async () => {
    const api = await activatedApi();
    await api.planTask('Read README.md, then add a CHANGELOG entry for the new parser, then run `npm test`', { accept: false });
    const labels = api.planTreeLabels();
    assert.equal(labels.length, 3, `expected three steps, got: ${JSON.stringify(labels)}`);
    assert.match(labels[0] ?? '', /README\.md/);
    assert.match(labels[1] ?? '', /CHANGELOG/);
    assert.match(labels[2] ?? '', /npm test/);
  });

  it('replaces the previous plan when planning again', async () => {
    const api = await activatedApi();
    await api.planTask('List the TypeScript files, then summarise what each one does', { accept: false });
    const labels = api.planTreeLabels();
    assert.equal(labels.length, 2, `expected two steps, got: ${JSON.stringify(labels)}`);
    assert.ok(labels.every((label) => !/CHANGELOG/.test(label)), 'the earlier plan is still shown');
  });

  it('keeps the selection an attachment of the request, never a step of the plan made without a model', async () => {
    const api = await activatedApi();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder');
    const editor = await vscode.window.showTextDocument(vscode.Uri.joinPath(folder.uri, 'src', 'notes.js'));
    editor.selection = new vscode.Selection(0, 0, 2, 0);
    try {
      const outcome = await api.planTask('Refactor this into smaller functions', { accept: false });
      assert.deepEqual(outcome.plan?.steps.map((step) => step.title), ['Refactor this into smaller functions']);
      assert.deepEqual(outcome.plan?.steps[0]?.attachments?.map((attachment) => attachment.label), ['selection in src/notes.js (lines 1-3)']);
      // the selected text itself goes with it, as it was when the request was made
      assert.equal(outcome.plan?.steps[0]?.attachments?.[0]?.text, editor.document.getText(new vscode.Range(0, 0, 2, 0)));
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
  });

  it('plans a multi-line request from an editor: the whole text, or only the selection', async () => {
    const api = await activatedApi();
    const reviewed: string[][] = [];
    api.setPlanReview(async (plan) => {
      reviewed.push(plan.steps.map((step) => step.title));
      return undefined;
    });
    try {
      const request = ['Three things, please:', '', '1. Read README.md', '2. List the files in src', '3. Run `npm test`'].join('\n');
      const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: request });
      const editor = await vscode.window.showTextDocument(document);
      const whole = await vscode.commands.executeCommand<{ plan?: { steps: unknown[] } }>('taskPlanner.planTaskFromEditor');
      assert.equal(whole.plan?.steps.length, 3, `expected a step per list line, got: ${JSON.stringify(reviewed.at(-1))}`);
      assert.match(reviewed.at(-1)?.[2] ?? '', /npm test/);
      // Closed without a run, the review leaves the Plan view as it was before it (a newcomer's trial).
      assert.doesNotMatch(api.planTreeLabels().join('\n'), /List the files in src/, 'the Plan view kept the plan of a review closed without a run');
      editor.selection = new vscode.Selection(3, 0, 3, document.lineAt(3).text.length);
      const selected = await vscode.commands.executeCommand<{ plan?: { steps: { title: string }[] } }>('taskPlanner.planTaskFromEditor');
      assert.equal(selected.plan?.steps.length, 1);
      assert.match(selected.plan?.steps[0]?.title ?? '', /List the files/i);
      assert.equal(reviewed.length, 2, 'each plan went to the review');
      editor.selection = new vscode.Selection(1, 0, 1, 0);
      await editor.edit((edit) => edit.replace(new vscode.Range(0, 0, document.lineCount, 0), '<!-- only a comment -->\n'));
      const blank = await vscode.commands.executeCommand<{ plan?: unknown }>('taskPlanner.planTaskFromEditor');
      assert.equal(blank.plan, undefined, 'a blank request was planned');
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      // The next untitled document may get this one's name: wait until the host has let it go.
      const closing = Date.now() + 5_000;
      while (!document.isClosed && Date.now() < closing) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(document.isClosed, true, 'the reverted request document stayed open');
    } finally {
      api.setPlanReview(undefined);
    }
  });

  it('a request editor keeps its text while its run fails, and closes once a run completes; with text it is unsaved (closing asks)', async () => {
    const api = await activatedApi();
    const isOpen = (document: vscode.TextDocument): boolean =>
      vscode.window.tabGroups.all.flatMap((group) => group.tabs).some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === document.uri.toString());
    // A run an earlier test left waiting would refuse this test's runs ("A run is already in progress").
    if (api.isRunning()) await vscode.commands.executeCommand('taskPlanner.cancelRun');
    const idle = Date.now() + 10_000;
    while (api.isRunning() && Date.now() < idle) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(api.isRunning(), false, 'a run of an earlier test is still in progress');
    let path = 'no-such-file.txt';
    api.setPlanReview(async (plan) => ({ ...plan, steps: [withStepDefaults({ id: 'R1', title: `Read ${path}`, kind: 'tool', tool: 'read_file', args: { path }, maxAttempts: 1, onFailure: 'stop' })] }));
    try {
      const editor = await api.openRequestEditor('Read the notes');
      assert.equal(editor.document.isDirty, true, 'a request editor with text would close without asking');
      // The command's result loses its run promise on the way: the Plan tree tells how the run ended.
      const ended = async (status: string): Promise<void> => {
        const end = Date.now() + 30_000;
        while (!(api.planTreeNodes().find((node) => node.stepId === 'R1')?.description ?? '').includes(status) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
        assert.match(api.planTreeNodes().find((node) => node.stepId === 'R1')?.description ?? '', new RegExp(status));
      };
      await vscode.commands.executeCommand('taskPlanner.planTaskFromEditor');
      await ended('failed');
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.ok(isOpen(editor.document), 'the request editor closed although its run failed');
      assert.match(editor.document.getText(), /Read the notes/);
      path = 'README.md';
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand('taskPlanner.planTaskFromEditor');
      await ended('completed');
      const end = Date.now() + 5_000;
      while (isOpen(editor.document) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(isOpen(editor.document), false, 'the request editor stayed open after its run completed');
    } finally {
      api.setPlanReview(undefined);
    }
  });
});
