// Plans as files in the real extension host: the JSON language service applies the contributed schema to
// *.plan.json, and "Run plan file" runs the editor's text (unsaved edits included) or refuses a file that cannot run.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunResult } from '../../src/core/engine/runOptions';
import type { Plan } from '../../src/core/plan/planSchema';
import type { TaskPlannerApi } from './testBuild/testExtension';

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const folder = (): vscode.Uri => {
  const first = vscode.workspace.workspaceFolders?.[0];
  assert.ok(first, 'the integration suite opens a workspace');
  return first.uri;
};

/** Plan files the tests wrote into the shared workspace (removed after the suite, so other suites see the workspace as it was). */
const written: vscode.Uri[] = [];

async function openPlanFile(name: string, plan: unknown): Promise<vscode.TextEditor> {
  const uri = vscode.Uri.joinPath(folder(), name);
  written.push(uri);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${JSON.stringify(plan, null, 2)}\n`));
  return vscode.window.showTextDocument(uri);
}

const readingPlan = {
  objective: 'Saved objective',
  steps: [
    { id: 'list', title: 'List the files', tool: 'list_files', args: {}, maxAttempts: 2 },
    { id: 'read', title: 'Read the README', tool: 'read_file', args: { path: 'README.md' }, dependsOn: ['list'] },
  ],
};

describe('plans as files in the VS Code extension host', () => {
  let api: TaskPlannerApi;

  before(async () => {
    const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
    assert.ok(extension);
    api = await extension.activate();
  });

  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  after(async () => {
    for (const uri of written) await vscode.workspace.fs.delete(uri);
  });

  it('a misspelt field in a *.plan.json file is a schema error in the editor; a field\'s hover says what it means', async () => {
    const editor = await openPlanFile('wrong-field.plan.json', { objective: 'x', steps: [{ id: 'a', dependson: ['b'] }] });
    const problems = await until('the schema error', () => {
      const found = vscode.languages.getDiagnostics(editor.document.uri).filter((diagnostic) => /dependson/.test(diagnostic.message));
      return found.length > 0 ? found : undefined;
    });
    assert.match(problems[0]!.message, /not allowed/i);
    const good = await openPlanFile('good.plan.json', readingPlan);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    assert.deepEqual(vscode.languages.getDiagnostics(good.document.uri).map((diagnostic) => diagnostic.message), []);
    // Hovering a field shows what it means, from the schema's descriptions.
    const at = good.document.positionAt(good.document.getText().indexOf('"maxAttempts"') + 3);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', good.document.uri, at);
    const text = hovers.flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : content.value))).join('\n');
    assert.match(text, /How many times the step is tried in all/);
  });

  it('"Save plan as file" proposes <objective>.plan.json in the workspace, writes the plan in the panel and opens it', async () => {
    const plan = {
      id: 'saved-it',
      version: 2,
      objective: 'Tidy the README',
      createdAt: '2026-01-01T00:00:00.000Z',
      agents: {},
      steps: [
        {
          id: 'list',
          title: 'List the files',
          kind: 'tool',
          tool: 'list_files',
          args: {},
          dependsOn: [],
          onFailure: 'stop',
          maxAttempts: 1,
          critical: true,
          onVerificationFailure: 'stop',
        },
      ],
    } as const satisfies Plan;
    api.planPanel.show(plan);
    const target = vscode.Uri.joinPath(folder(), 'tidy-the-readme.plan.json');
    written.push(target);
    try {
      const saving = vscode.commands.executeCommand<vscode.Uri | undefined>('taskPlanner.savePlanAsFile');
      // The web workbench asks with its own file dialog (a quick input holding the proposed path): accept it as
      // proposed, again every half second until the command returns (the dialog may take a moment to open).
      let settled = false;
      void saving.then(() => (settled = true));
      for (let tries = 0; !settled && tries < 40; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        if (!settled) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      }
      const saved = await saving;
      assert.equal(saved?.toString(), target.toString());
      assert.deepEqual(JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(target))), plan);
      await until('the saved file in front', () => vscode.window.activeTextEditor?.document.uri.toString() === target.toString());
      // A saved plan is a valid plan file: the schema finds nothing in it (the JSON language server is warm by now:
      // the test before waited for its first finding).
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      assert.deepEqual(vscode.languages.getDiagnostics(target).map((diagnostic) => diagnostic.message), []);
    } finally {
      api.planPanel.close();
    }
  });

  it('"Run plan file" runs the text in the editor, unsaved edits included', async () => {
    const editor = await openPlanFile('reading.plan.json', readingPlan);
    // The edit renames a step: the run's results show which text ran.
    await editor.edit((edit) => {
      const at = editor.document.getText().indexOf('"id": "read"');
      edit.replace(new vscode.Range(editor.document.positionAt(at), editor.document.positionAt(at + '"id": "read"'.length)), '"id": "readme"');
    });
    assert.ok(editor.document.isDirty);
    const before = await api.runIds();
    const started = await vscode.commands.executeCommand<{ run: Promise<RunResult | undefined> } | undefined>('taskPlanner.runPlanFile', editor.document.uri);
    assert.ok(started, 'the plan file did not start');
    const result = await started.run;
    assert.equal(result?.status, 'completed');
    assert.deepEqual(Object.keys(result.results).sort(), ['list', 'readme']);
    assert.equal((await api.runIds()).length, before.length + 1);
    assert.ok(api.planTreeLabels().some((label) => /Read the README/.test(label)));
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.equal(editor.document.isDirty, false);
  });

  it('attack: "Run plan file" clicked on one file runs that file, never the editor in front (an e2e run ran the plan shown before)', async () => {
    // The extension host may hear of an editor after a click on its title bar reaches it: here the clicked file has no
    // editor at all, and another plan file is in front.
    await openPlanFile('in-front.plan.json', { objective: 'In front', steps: [{ id: 'front', title: 'List in front', tool: 'list_files', args: {} }] });
    const clicked = vscode.Uri.joinPath(folder(), 'clicked.plan.json');
    written.push(clicked);
    await vscode.workspace.fs.writeFile(clicked, new TextEncoder().encode(JSON.stringify({ objective: 'Clicked', steps: [{ id: 'clicked', title: 'List clicked', tool: 'list_files', args: {} }] })));
    assert.equal(vscode.workspace.textDocuments.some((document) => document.uri.toString() === clicked.toString()), false, 'the clicked file is open: the attack proves nothing');
    const started = await vscode.commands.executeCommand<{ run: Promise<RunResult | undefined> } | undefined>('taskPlanner.runPlanFile', clicked);
    assert.ok(started, 'the clicked plan file did not start');
    const result = await started.run;
    assert.deepEqual(Object.keys(result?.results ?? {}), ['clicked']);
  });

  it('attack: "Run plan file" on a file that is gone runs nothing, not the plan file in front instead', async () => {
    await openPlanFile('front.plan.json', { objective: 'In front', steps: [{ id: 'front', title: 'List in front', tool: 'list_files', args: {} }] });
    const before = await api.runIds();
    const started = await vscode.commands.executeCommand<unknown>('taskPlanner.runPlanFile', vscode.Uri.joinPath(folder(), 'gone.plan.json'));
    assert.equal(started, undefined);
    assert.deepEqual(await api.runIds(), before);
  });

  it('"Review plan file" hands the plan to the review and runs the plan the review started', async () => {
    const reviewed: string[] = [];
    api.setPlanReview(async (plan) => {
      reviewed.push(plan.objective);
      return { ...plan, steps: plan.steps.filter((step) => step.id === 'list') };
    });
    try {
      const editor = await openPlanFile('review.plan.json', readingPlan);
      const outcome = await vscode.commands.executeCommand<{ run?: Promise<RunResult | undefined> }>('taskPlanner.reviewPlanFile', editor.document.uri);
      assert.deepEqual(reviewed, ['Saved objective']);
      const result = await outcome.run;
      assert.equal(result?.status, 'completed');
      assert.deepEqual(Object.keys(result.results), ['list'], 'the run is of the plan as the review left it');
    } finally {
      api.setPlanReview(undefined);
    }
  });

  it('"Run plan file" opens the panel\'s review showing what reading ignored, as the CLI prints it (issue 28 item 7)', async () => {
    const misspelt = { objective: 'Misspelt', steps: [{ id: 'list', tool: 'list_files', args: {}, onFailur: 'continue' }] };
    const editor = await openPlanFile('misspelt.plan.json', misspelt);
    try {
      const started = await vscode.commands.executeCommand<{ run: Promise<RunResult | undefined> } | undefined>('taskPlanner.runPlanFile', editor.document.uri);
      assert.ok(started, 'the file is a plan that can run');
      const notice = await until('the notice delivered to the panel', () =>
        api.planPanel.posted().find((message) => message.type === 'notice' && /onFailur/.test(message.text)),
      );
      assert.ok(notice.type === 'notice' && /^Reading the plan: Step "list": ignored unknown field "onFailur"/.test(notice.text), JSON.stringify(notice));
    } finally {
      api.planPanel.close();
    }
  });

  it('"Run plan file" opens the review of a file read only after repairing its JSON, saying so (a newcomer\'s file missing a comma ran)', async () => {
    const uri = vscode.Uri.joinPath(folder(), 'comma.plan.json');
    written.push(uri);
    const text = '{ "objective": "Missing comma", "steps": [ { "id": "a", "tool": "list_files", "args": {} } { "id": "b", "tool": "list_files", "args": {} } ] }\n';
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    const editor = await vscode.window.showTextDocument(uri);
    const before = await api.runIds();
    try {
      await vscode.commands.executeCommand<unknown>('taskPlanner.runPlanFile', editor.document.uri);
      const notice = await until('the notice delivered to the panel', () =>
        api.planPanel.posted().find((message) => message.type === 'notice' && /not valid JSON as written/.test(message.text)),
      );
      assert.ok(notice.type === 'notice' && /^Reading the plan: The file is not valid JSON as written \(.+\); it was read repaired/.test(notice.text), JSON.stringify(notice));
      assert.deepEqual(await api.runIds(), before, 'nothing ran before the review');
    } finally {
      api.planPanel.close();
    }
  });

  it('"Run plan file" runs nothing from a file that cannot run', async () => {
    const editor = await openPlanFile('broken.plan.json', { objective: 'x', steps: [{ id: 'a', tool: 'no_such_tool', args: {} }] });
    const before = await api.runIds();
    const started = await vscode.commands.executeCommand<unknown>('taskPlanner.runPlanFile', editor.document.uri);
    assert.equal(started, undefined);
    assert.equal(api.isRunning(), false);
    assert.deepEqual(await api.runIds(), before);
  });
});
