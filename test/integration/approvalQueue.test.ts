// Approvals in plan order, one at a time, "Approve the rest", and Reject with feedback, in the real editor (issue 28, items 3 and 4).
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TaskPlannerApi } from './testBuild/testExtension';
import { FakeOpenAiServer, planReply } from '../fakes/fakeOpenAiServer';
import { forgetFakeModel, useFakeModel } from './fakeModelSettings';

const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';

async function api(): Promise<TaskPlannerApi> {
  const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
  assert.ok(extension);
  return extension.activate();
}

async function until<T>(probe: () => T | undefined | false, timeoutMs = 10_000): Promise<T | undefined> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if ((value !== undefined && value !== false) || Date.now() > end) return value === false ? undefined : value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The labels of the open proposal diffs, in tab order. */
function proposalDiffs(): string[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === 'task-planner-proposal')
    .map((tab) => tab.label);
}

function activeDiffLabel(): string | undefined {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  return tab?.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === 'task-planner-proposal' ? tab.label : undefined;
}

describe('Approvals in the editor: in plan order, one at a time, the rest at once, and rejected with feedback', function () {
  this.timeout(90_000);
  const server = new FakeOpenAiServer();
  const config = () => vscode.workspace.getConfiguration('taskPlanner');

  before(async () => {
    await useFakeModel(server);
    await config().update('maxConcurrency', 4, vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    await forgetFakeModel();
    await config().update('maxConcurrency', undefined, vscode.ConfigurationTarget.Workspace);
    await server.close();
  });

  afterEach(async () => {
    // A test that failed leaves no run behind for the next one.
    if ((await api()).isRunning()) await vscode.commands.executeCommand('taskPlanner.cancelRun');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('12 identical one-line edits: one diff at a time in plan order with the count waiting, then "the rest of this run" approves the other 11', async () => {
    const planner = await api();
    const ids = Array.from({ length: 12 }, (_, index) => `S${String(index + 1).padStart(3, '0')}`);
    for (const id of ids) writeFileSync(join(root, `q-${id}.js`), 'var answer = 42;\n');
    // Independent steps: up to four run at once, and the last ones ask first when their reads are quicker.
    server.enqueue(
      planReply(
        ids.map((id) => ({ id, title: `Use let in ${id}`, kind: 'tool', dependsOn: [], tool: 'edit_file', args: { path: `q-${id}.js`, edits: [{ search: 'var ', replace: 'let ' }] } })),
      ),
    );
    const outcome = await planner.planTask('Use let instead of var in the q files', { accept: true });
    await planner.nextPrompt();
    const first = await until(() => activeDiffLabel());
    assert.match(first ?? '', /^q-S001\.js \(edit, proposed\) · S001 /, 'the first step of the plan is shown first');
    await until(() => /more waiting/.test(planner.statusBarText()));
    assert.equal(proposalDiffs().length, 1, `one approval on screen at a time: ${proposalDiffs().join(' | ')}`);
    // The count follows what waits (steps still arriving): read it once it agrees with the prompts waiting.
    const counted = await until(() => {
      const waiting = planner.pendingPrompts().length - 1;
      return planner.statusBarText() === `$(shield) Task Planner: Approval needed (${waiting} more waiting)` && waiting;
    });
    assert.ok(counted !== undefined && counted >= 1, `steps run in parallel and wait for their turn: ${planner.statusBarText()}`);
    // Ctrl+Alt+Y approves what is shown, the first of the plan: S001, never a later step.
    await vscode.commands.executeCommand('taskPlanner.approve');
    await until(() => readFileSync(join(root, 'q-S001.js'), 'utf8') === 'let answer = 42;\n');
    assert.equal(readFileSync(join(root, 'q-S002.js'), 'utf8'), 'var answer = 42;\n', 'only S001 was approved');
    const second = await until(() => /^q-S002\.js/.test(activeDiffLabel() ?? '') && activeDiffLabel());
    assert.ok(second, `then S002, next in the plan: ${proposalDiffs().join(' | ')}`);
    assert.equal(proposalDiffs().length, 1);
    await vscode.commands.executeCommand('taskPlanner.approveRest', undefined, 'run');
    const result = await outcome.run;
    assert.equal(result?.status, 'completed', JSON.stringify(result?.metadata.reason));
    for (const id of ids) assert.equal(readFileSync(join(root, `q-${id}.js`), 'utf8'), 'let answer = 42;\n', id);
    assert.deepEqual(planner.pendingPrompts(), [], 'no approval was asked after "the rest of this run"');
  });

  it('"the rest of this run" never covers a command, nor a step that declared no files', async () => {
    const planner = await api();
    writeFileSync(join(root, 'r-1.js'), 'var a;\n');
    writeFileSync(join(root, 'r-2.js'), 'var b;\n');
    server.enqueue(
      planReply([
        { id: 'E1', title: 'Edit r-1', kind: 'tool', dependsOn: [], tool: 'edit_file', args: { path: 'r-1.js', edits: [{ search: 'var', replace: 'let' }] } },
        { id: 'C1', title: 'List files', kind: 'tool', dependsOn: ['E1'], tool: 'run_command', args: { argv: ['ls'] } },
        { id: 'E2', title: 'Edit r-2', kind: 'tool', dependsOn: ['C1'], tool: 'edit_file', args: { path: 'r-2.js', edits: [{ search: 'var', replace: 'let' }] } },
      ]),
    );
    const outcome = await planner.planTask('Edit and list', { accept: true });
    await planner.nextPrompt();
    await until(() => activeDiffLabel());
    await vscode.commands.executeCommand('taskPlanner.approveRest', undefined, 'run');
    const command = await until(() => planner.pendingPrompts().find((prompt) => prompt.stepId === 'C1'));
    assert.deepEqual(command, { stepId: 'C1', kind: 'approval' }, 'the command still asks');
    await vscode.commands.executeCommand('taskPlanner.reject', 'C1');
    const result = await outcome.run;
    assert.equal(readFileSync(join(root, 'r-1.js'), 'utf8'), 'let a;\n');
    assert.equal(readFileSync(join(root, 'r-2.js'), 'utf8'), 'var b;\n', 'E2 never ran: it waited on the rejected command');
    assert.notEqual(result?.status, 'completed');
  });

  it('Reject with feedback…: the agent gets the reason and proposes again within the step; the journal keeps it', async () => {
    const planner = await api();
    server.enqueue(
      planReply([{ id: 'A1', title: 'Write the greeting', kind: 'agent', dependsOn: [], input: 'Write greeting-fb.txt', critical: true }]),
      { kind: 'message', toolCalls: [{ name: 'write_file', arguments: { path: 'greeting-fb.txt', content: 'hi\n' } }] },
      { kind: 'message', toolCalls: [{ name: 'write_file', arguments: { path: 'greeting-fb.txt', content: 'Hello, world!\n' } }] },
      { kind: 'message', content: 'Wrote the greeting.' },
    );
    const outcome = await planner.planTask('Write a greeting', { accept: true });
    await planner.nextPrompt();
    await until(() => activeDiffLabel());
    const before = server.chatRequests.length;
    await vscode.commands.executeCommand('taskPlanner.rejectWithFeedback', undefined, 'Say "Hello, world!" \u001b[31minstead');
    await until(() => server.chatRequests.length > before && planner.pendingPrompts().length > 0);
    const told = JSON.stringify(server.chatRequests[before]?.body);
    assert.match(told, /The user rejected the change and said:.*Hello, world!.*u001b\[31minstead.*Propose the change again/);
    assert.ok(!told.includes('\u001b'), 'the escape sequence reaches the model escaped');
    assert.equal(existsSync(join(root, 'greeting-fb.txt')), false);
    await until(() => /^greeting-fb\.txt/.test(activeDiffLabel() ?? ''));
    await vscode.commands.executeCommand('taskPlanner.approve');
    const result = await outcome.run;
    assert.equal(result?.status, 'completed', JSON.stringify(result?.metadata.reason));
    assert.equal(readFileSync(join(root, 'greeting-fb.txt'), 'utf8'), 'Hello, world!\n');
  });

  it('attack: Approve from the tree row of a change still waiting behind the diff on screen shows that change instead of writing it unseen', async () => {
    const planner = await api();
    const unseen = join(root, 'unseen-approval.txt');
    server.enqueue(
      planReply([
        { id: 'V1', title: 'Write the shown file', kind: 'tool', dependsOn: [], tool: 'write_file', args: { path: 'shown-approval.txt', content: 'shown\n' } },
        { id: 'V2', title: 'Tidy up', kind: 'tool', dependsOn: [], tool: 'write_file', args: { path: 'unseen-approval.txt', content: 'never shown\n' } },
      ]),
    );
    await planner.planTask('Write two files', { accept: true });
    await until(() => /^shown-approval\.txt/.test(activeDiffLabel() ?? ''));
    assert.ok(await until(() => planner.pendingPrompts().some((prompt) => prompt.stepId === 'V2')), 'V2 waits behind V1');
    // The row says "Tidy up", not what it writes: its Approve shows the change instead of writing it.
    const row = planner.planTreeNodes().find((node) => node.stepId === 'V2');
    assert.ok(row);
    await vscode.commands.executeCommand('taskPlanner.approve', row);
    assert.ok(await until(() => /^unseen-approval\.txt/.test(activeDiffLabel() ?? '')), `V2's diff is shown: ${activeDiffLabel() ?? 'none'}`);
    assert.equal(existsSync(unseen), false, 'the change was written from a tree row that never showed it');
    assert.ok(planner.pendingPrompts().some((prompt) => prompt.stepId === 'V2'), 'the change is still asked');
    // Shown now: the same Approve writes it.
    await vscode.commands.executeCommand('taskPlanner.approve', planner.planTreeNodes().find((node) => node.stepId === 'V2'));
    assert.ok(await until(() => existsSync(unseen)), 'once shown, the row\'s Approve writes the change');
    await vscode.commands.executeCommand('taskPlanner.cancelRun');
  });

  it('attack: a diff behind another tab is not on screen: Approve from the palette shows it again, and the Plan view\'s key acts on its selected row, showing it first', async () => {
    const planner = await api();
    const [first, second] = [join(root, 'covered-first.txt'), join(root, 'covered-second.txt')];
    server.enqueue(
      planReply([
        { id: 'C1', title: 'Write the first file', kind: 'tool', dependsOn: [], tool: 'write_file', args: { path: 'covered-first.txt', content: 'one\n' } },
        { id: 'C2', title: 'Write the second file', kind: 'tool', dependsOn: [], tool: 'write_file', args: { path: 'covered-second.txt', content: 'two\n' } },
      ]),
    );
    await planner.planTask('Write two covered files', { accept: true });
    // The two steps run at once: whichever diff came first is on screen (a loaded machine may give C2's first), the other waits.
    const shownFirst = await until(() => /^covered-(first|second)\.txt/.exec(activeDiffLabel() ?? '')?.[1], 30_000);
    assert.ok(shownFirst, `a diff is shown: ${activeDiffLabel() ?? 'none'}`);
    const [onScreen, behind] = shownFirst === 'first' ? (['C1', 'C2'] as const) : (['C2', 'C1'] as const);
    const file = { C1: first, C2: second };
    const label = { C1: /^covered-first\.txt/, C2: /^covered-second\.txt/ };
    assert.ok(await until(() => planner.pendingPrompts().some((prompt) => prompt.stepId === behind)), `${behind} waits behind ${onScreen}`);
    // Another file in front of the diff, in the same group: the diff is no longer on screen.
    const other = join(root, 'covered-readme.txt');
    writeFileSync(other, 'in front\n');
    await vscode.window.showTextDocument(vscode.Uri.file(other), { preview: false });
    assert.equal(activeDiffLabel(), undefined);
    await vscode.commands.executeCommand('taskPlanner.approve');
    assert.ok(await until(() => label[onScreen].test(activeDiffLabel() ?? '')), `${onScreen}'s diff is shown again: ${activeDiffLabel() ?? 'none'}`);
    assert.equal(existsSync(file[onScreen]), false, 'a change behind another tab was approved unseen');
    // In the Plan view, the waiting step's row selected: its key shows that step first, then approves it once it is on screen.
    await planner.selectPlanRow(behind);
    await vscode.commands.executeCommand('taskPlanner.approveSelected');
    assert.ok(await until(() => label[behind].test(activeDiffLabel() ?? '')), `${behind}'s diff is shown: ${activeDiffLabel() ?? 'none'}`);
    assert.equal(existsSync(file[behind]), false, "the selected row's change was approved before it was shown");
    assert.equal(existsSync(file[onScreen]), false, 'the key approved the change on screen instead of the selected row');
    await planner.selectPlanRow(behind);
    await vscode.commands.executeCommand('taskPlanner.approveSelected');
    assert.ok(await until(() => existsSync(file[behind])), 'once shown, the selected row is approved');
    assert.equal(existsSync(file[onScreen]), false);
    await vscode.commands.executeCommand('taskPlanner.cancelRun');
  });
});
