// The plan panel in the real extension host: the real webview loads, says `ready`, gets snapshots and renders them.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TaskPlannerApi } from '../../src/extension';
import type { Plan } from '../../src/core/plan/planSchema';
import type { HostToWebviewMessage } from '../../src/shared/panelProtocol';

const plan: Plan = {
  id: 'panel-it',
  version: 1,
  objective: 'Look at the demo workspace',
  createdAt: '2026-01-01T00:00:00.000Z',
  agents: {},
  steps: [
    { id: 'list', title: 'List the files', kind: 'tool', tool: 'list_files', args: {}, dependsOn: [], onFailure: 'stop', maxAttempts: 1, critical: true, onVerificationFailure: 'stop' },
    { id: 'read', title: 'Read the README', kind: 'tool', tool: 'read_file', args: { path: 'README.md' }, dependsOn: ['list'], onFailure: 'stop', maxAttempts: 1, critical: true, onVerificationFailure: 'stop' },
  ],
};

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const snapshots = (posted: HostToWebviewMessage[]) => posted.flatMap((message) => (message.type === 'snapshot' ? [message.model] : []));

describe('plan panel in the VS Code extension host', () => {
  let api: TaskPlannerApi;

  before(async () => {
    const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
    assert.ok(extension);
    api = await extension.activate();
  });

  after(() => api.planPanel.close());

  it('opens, receives ready from the real webview, sends the snapshot and gets it rendered', async () => {
    api.planPanel.show(plan);
    assert.equal(api.planPanel.isOpen(), true);
    await until('the webview to say ready', () => api.planPanel.received().some((message) => message.type === 'ready'));
    const first = await until('a review snapshot', () => snapshots(api.planPanel.posted()).at(-1));
    assert.equal(first.mode, 'review');
    assert.ok(first.mode === 'review' && first.review.steps.length === 2);
    const rendered = await until('the webview to render it', () => api.planPanel.received().find((message) => message.type === 'rendered' && message.version === first.version));
    assert.ok(rendered.type === 'rendered');
    console.log(`    rendered version ${rendered.version} in ${rendered.ms.toFixed(1)} ms`);
  });

  it('applies an edit through editPlan and posts the next version, which the webview renders', async () => {
    const before = api.planPanel.model()!;
    await api.planPanel.send({ type: 'edit', edit: { type: 'updateStep', stepId: 'read', patch: { title: 'Read README.md carefully' } } });
    const after = api.planPanel.model()!;
    assert.equal(after.version, before.version + 1);
    assert.ok(after.mode === 'review');
    assert.equal(after.review.planVersion, 2);
    assert.equal(after.review.steps[1]!.title, 'Read README.md carefully');
    await until('the webview to render the edit', () => api.planPanel.received().some((message) => message.type === 'rendered' && message.version === after.version));
  });

  it('refuses a reorder that breaks a dependency with the reason, and ignores invalid messages', async () => {
    const version = api.planPanel.model()!.version;
    await api.planPanel.send({ type: 'edit', edit: { type: 'moveStep', stepId: 'read', toIndex: 0 } });
    const notice = api.planPanel.posted().at(-1);
    assert.ok(notice?.type === 'notice' && notice.level === 'error');
    assert.match(notice.text, /cannot move before its dependencies "list"/);
    assert.equal(api.planPanel.model()!.version, version, 'a refused edit posts no snapshot');
    await api.planPanel.send({ type: 'edit', edit: { type: 'updateStep', stepId: 'read', patch: { maxAttempts: 0 } } });
    await api.planPanel.send({ type: 'format-disk' });
    assert.equal(api.planPanel.refused().length >= 2, true);
  });

  it('starts the plan and reaches a completed run snapshot', async () => {
    await api.planPanel.send({ type: 'start' });
    const done = await until('a completed run', () => {
      const model = api.planPanel.model();
      return model?.mode === 'run' && model.run.status === 'completed' ? model : undefined;
    });
    assert.ok(done.mode === 'run');
    assert.deepEqual(done.run.steps.map((step) => step.status), ['completed', 'completed']);
    assert.equal(done.run.timeline.bars.length, 2);
  });
});
