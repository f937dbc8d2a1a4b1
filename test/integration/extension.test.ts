// Runs inside the real VS Code extension host (code-server), against the built extension in dist/.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TaskPlannerApi } from '../../src/extension';

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
  it('activates and prints its activation time', async () => {
    const extension = vscode.extensions.getExtension<TaskPlannerApi>(extensionId);
    assert.ok(extension, `extension ${extensionId} is not loaded`);
    const wasActive = extension.isActive;
    const started = performance.now();
    const api = await extension.activate();
    const elapsed = performance.now() - started;
    console.log(`    activation took ${elapsed.toFixed(1)} ms (activate() itself ${api.activationMs.toFixed(1)} ms)${wasActive ? ' (already active before the test)' : ''} (VS Code ${vscode.version}, UI kind ${vscode.UIKind[vscode.env.uiKind]}, remote ${vscode.env.remoteName ?? 'none'}, Node ${process.versions.node})`);
    assert.equal(extension.isActive, true);
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
});
