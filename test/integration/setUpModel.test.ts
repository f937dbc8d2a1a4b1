// "Set up a model" in the real extension host: a local server (the fake OpenAI server) chosen, its models listed,
// the user settings written, the connection tested; then plan and run with it; a planning failure, then Retry.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TaskPlannerApi } from './testBuild/testExtension';
import type { ModelSetupUi, SetupItem } from '../../src/vscode/modelSetupFlow';
import { FakeOpenAiServer } from '../fakes/fakeOpenAiServer';
import { closedPort } from '../support/closedPort';

const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
const keys = ['llm.provider', 'llm.baseUrl', 'llm.model', 'llm.vscodeModelFamily'];

async function api(): Promise<TaskPlannerApi> {
  const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
  assert.ok(extension);
  return extension.activate();
}

/** Answers the setup's questions from a script (pick by label, input by text) and keeps what it was asked. */
function scriptedUi(answers: string[]): ModelSetupUi & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async pick<T>(title: string, _placeholder: string, items: readonly SetupItem<T>[]) {
      asked.push(`${title}: ${items.map((item) => `${item.label}${item.detail ? ` (${item.detail})` : ''}`).join(' | ')}`);
      const answer = answers.shift();
      const item = items.find((entry) => entry.label === answer);
      assert.ok(item, `no "${answer}" among ${items.map((entry) => entry.label).join(', ')}`);
      return item.value;
    },
    async input(title, options) {
      asked.push(`${title}: ${options.prompt}`);
      return answers.shift();
    },
  };
}

describe('Set up a model, then plan and run with it (fake local server)', function () {
  this.timeout(60_000);
  const server = new FakeOpenAiServer({ models: ['fake-local-model', 'other-model'] });
  const config = () => vscode.workspace.getConfiguration('taskPlanner');

  before(async () => {
    await server.start();
    // The setup writes user settings: workspace values set by other suites would win over them.
    for (const key of keys) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    for (const key of keys) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  it('a local server: its models listed, the user settings written, one tiny test request, success in words', async () => {
    const planner = await api();
    server.enqueue({ kind: 'message', content: 'OK' });
    const ui = scriptedUi(['A local server', 'Another address…', server.baseURL, 'fake-local-model']);
    const outcome = await planner.setUpModel(ui);
    assert.equal(outcome?.ok, true, outcome?.message);
    assert.match(outcome?.message ?? '', /^Connected: fake-local-model at http:\/\/127\.0\.0\.1:\d+ answered\./);
    assert.match(ui.asked.at(-1) ?? '', /fake-local-model \| other-model/, 'the server\'s models were not offered');
    assert.equal(config().inspect('llm.provider')?.globalValue, 'openai');
    assert.equal(config().inspect('llm.baseUrl')?.globalValue, server.baseURL);
    assert.equal(config().inspect('llm.model')?.globalValue, 'fake-local-model');
    const test = server.chatRequests.at(-1);
    assert.equal(test?.body?.model, 'fake-local-model');
    assert.ok(Number(test?.body?.['max_tokens'] ?? test?.body?.['max_completion_tokens']) <= 8, 'the test request is not tiny');
  });

  // An outside attack (2026-12-02): a repository's `taskPlanner.llm.baseUrl` came pre-filled as the address, the key typed
  // next went to it, and it was saved as the user's own address.
  it("attack: offers the user's own address, never the workspace's, and names where the key goes", async () => {
    const planner = await api();
    await config().update('llm.baseUrl', 'https://llm.attacker.example/v1', vscode.ConfigurationTarget.Workspace);
    const before = config().inspect('llm.baseUrl')?.globalValue;
    try {
      const offered: { title: string; prompt: string; value: string | undefined }[] = [];
      const ui: ModelSetupUi = {
        async pick<T>(_title: string, _placeholder: string, items: readonly SetupItem<T>[]) {
          return items.find((item) => item.label === 'A hosted service')?.value;
        },
        async input(title, options) {
          offered.push({ title, prompt: options.prompt, value: options.value });
          // Enter on the address offered, then Escape at the key.
          return offered.length === 1 ? options.value : undefined;
        },
      };
      await planner.setUpModel(ui);
      assert.equal(offered.length, 2, JSON.stringify(offered));
      assert.doesNotMatch(JSON.stringify(offered), /attacker/, 'the workspace\'s address was offered');
      // The user's own address (the one the test before set up), offered and named as where the key goes.
      assert.equal(typeof before, 'string');
      assert.equal(offered[0]?.value, before);
      assert.equal(offered[1]?.prompt, `The API key of ${String(before)}. Sent only there; kept in VS Code's secret storage, never in settings.`);
      assert.equal(config().inspect('llm.baseUrl')?.globalValue, before, 'the user settings changed');
    } finally {
      await config().update('llm.baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('plans with the model set up and runs the plan', async () => {
    const planner = await api();
    server.reset();
    server.enqueue({ kind: 'message', content: JSON.stringify({ objective: 'note', steps: [{ id: 'S1', title: 'Write the note', kind: 'tool', dependsOn: [], tool: 'write_file', args: { path: 'set-up-note.txt', content: 'planned by the local model\n' } }] }) });
    const outcome = await planner.planTask('Write a note', { accept: true });
    assert.equal(server.chatRequests.length, 1, 'the local model did not plan');
    assert.equal(outcome.plan?.steps[0]?.tool, 'write_file');
    assert.deepEqual(await planner.nextPrompt(), { stepId: 'S1', kind: 'approval' });
    await vscode.commands.executeCommand('taskPlanner.approve', 'S1');
    assert.equal((await outcome.run)?.status, 'completed');
    assert.equal(readFileSync(join(root, 'set-up-note.txt'), 'utf8'), 'planned by the local model\n');
  });

  it('a planning failure offers Retry, which plans the same request again', async () => {
    const planner = await api();
    server.reset();
    server.enqueue({ kind: 'error', status: 404, message: 'model "fake-local-model" is not loaded yet' });
    server.enqueue({ kind: 'message', content: JSON.stringify({ objective: 'list', steps: [{ id: 'L1', title: 'List the files', kind: 'tool', dependsOn: [], tool: 'list_files', args: {} }] }) });
    const offered: string[] = [];
    const failed = await planner.planTask('List the files', { accept: false, afterFailure: async (message) => (offered.push(message), 'Retry') });
    assert.equal(failed.plan, undefined);
    assert.match(failed.error ?? '', /404|not loaded yet/);
    assert.deepEqual(offered, [failed.error], 'the failure was not offered to the user');
    const retried = await failed.followUp;
    assert.deepEqual(retried?.plan?.steps.map((step) => step.id), ['L1']);
    assert.equal(server.chatRequests.length, 2);
    assert.deepEqual(planner.planTreeLabels(), ['1. List the files']);
  });

  it('"Plan without a model" after a failure plans with the heuristic planner', async () => {
    const planner = await api();
    server.reset();
    server.enqueue({ kind: 'error', status: 404, message: 'no such model' });
    const failed = await planner.planTask('Read README.md, then list the files', { accept: false, afterFailure: async () => 'Plan without a model' });
    const fallback = await failed.followUp;
    assert.equal(fallback?.plan?.steps.length, 2, JSON.stringify(fallback?.plan?.steps.map((step) => step.title)));
    assert.equal(server.chatRequests.length, 1, 'the model was asked again');
  });

  it('a local server that does not answer: the model name is typed, and the outcome says to start the server', async () => {
    const planner = await api();
    const port = await closedPort();
    const ui = scriptedUi(['A local server', 'Ollama', `http://127.0.0.1:${port}/v1`, 'qwen2.5:7b']);
    const outcome = await planner.setUpModel(ui);
    assert.equal(outcome?.ok, false);
    assert.equal(outcome?.message, `No server answered at http://127.0.0.1:${port}/v1: start Ollama (\`ollama serve\`) or check the port.`);
    assert.match(ui.asked.at(-1) ?? '', /No server answered at .*Type the model's name/);
  });
});
