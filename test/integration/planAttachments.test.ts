// "Plan task with files": an image attached to the request is sent to the model as an image, read through the folder's
// confinement, so a file named like an image that is a link out of the workspace (to a key, say) sends nothing of it.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { FakeOpenAiServer, planReply } from '../fakes/fakeOpenAiServer';
import { forgetFakeModel, useFakeModel } from './fakeModelSettings';
import { activatedApi } from './shownRuns';

const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';

describe('Plan task with image files', function () {
  this.timeout(60_000);
  const server = new FakeOpenAiServer();
  const made: string[] = [];

  before(async () => {
    await useFakeModel(server);
  });

  after(async () => {
    await forgetFakeModel();
    await server.close();
    for (const path of made) rmSync(path, { recursive: true, force: true });
  });

  it('attack: an "image" that is a link out of the workspace is not sent to the model; an image inside it is', async () => {
    const api = await activatedApi();
    const outside = mkdtempSync(join(tmpdir(), 'task-planner-secret-'));
    made.push(outside);
    const secret = 'PRIVATE KEY MATERIAL never to leave the machine';
    writeFileSync(join(outside, 'id_ed25519'), secret);
    const linked = join(root, 'attached-logo.png');
    symlinkSync(join(outside, 'id_ed25519'), linked);
    const real = join(root, 'attached-real.png');
    writeFileSync(real, Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    made.push(linked, real);
    server.enqueue(planReply([{ id: 'S1', title: 'Describe them', kind: 'manual', dependsOn: [], input: 'Look at both images' }], 'Describe the images'));
    await api.planTask('Describe these two images', { accept: false, files: [vscode.Uri.file(linked), vscode.Uri.file(real)] });
    const sent = JSON.stringify(server.chatRequests.map((request) => request.body));
    assert.doesNotMatch(sent, new RegExp(Buffer.from(secret).toString('base64').slice(0, 24)), "the linked file's bytes were sent to the model");
    assert.doesNotMatch(sent, /PRIVATE KEY MATERIAL/);
    assert.match(sent, /data:image\/png;base64,iVBORw0KGgoAAAANSUhEUg/, 'the image inside the workspace was not sent');
  });

  it('attack: a selection in a file opened from outside the workspace is not sent with the request; one in the workspace is', async () => {
    const api = await activatedApi();
    const outside = mkdtempSync(join(tmpdir(), 'task-planner-private-'));
    made.push(outside);
    writeFileSync(join(outside, 'config'), 'Host prod\n  IdentityFile ~/.ssh/private-prod-key\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(join(outside, 'config')));
    editor.selection = new vscode.Selection(0, 0, 1, 40);
    server.enqueue(planReply([{ id: 'S1', title: 'Explain it', kind: 'manual', dependsOn: [], input: 'Explain the selection' }], 'Explain'));
    await api.planTask('Explain the selected lines', { accept: false });
    // What the request carries goes to the model planning it, and with the plan to the steps' agents.
    const carried = (): string => JSON.stringify([server.chatRequests.map((request) => request.body), api.currentPlan()]);
    assert.doesNotMatch(carried(), /private-prod-key|selection in [^"]*task-planner-private/, 'a selection outside the workspace was sent');
    // Inside the workspace, the selection goes with the request, as documented.
    const inside = join(root, 'selection-inside.txt');
    writeFileSync(inside, 'INSIDE-SELECTION-TEXT\n');
    made.push(inside);
    const own = await vscode.window.showTextDocument(vscode.Uri.file(inside));
    own.selection = new vscode.Selection(0, 0, 0, 21);
    server.enqueue(planReply([{ id: 'S1', title: 'Explain it', kind: 'manual', dependsOn: [], input: 'Explain the selection' }], 'Explain'));
    await api.planTask('Explain the selected lines', { accept: false });
    assert.match(carried(), /selection in selection-inside\.txt \(lines 1-1\)/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
