import assert from 'node:assert/strict';
import '../../fakes/vscodeL10n';
import { LlmError } from '../../../src/core/llm/llmError';
import type { ConnectionTest, ModelChoice, ModelListing } from '../../../src/core/llm/modelSetup';
import { runModelSetup, type ModelSetupDeps, type ModelSetupUi, type SetupItem } from '../../../src/vscode/modelSetupFlow';

/** A UI port answering from a script: a pick by label, an input by text; `undefined` dismisses. */
class ScriptedSetupUi implements ModelSetupUi {
  readonly asked: { title: string; prompt?: string; value?: string; items?: SetupItem<unknown>[] }[] = [];
  constructor(private readonly answers: (string | undefined)[]) {}

  async pick<T>(title: string, _placeholder: string, items: readonly SetupItem<T>[]): Promise<T | undefined> {
    this.asked.push({ title, items: [...items] as SetupItem<unknown>[] });
    const answer = this.answers.shift();
    if (answer === undefined) return undefined;
    const item = items.find((entry) => entry.label === answer);
    assert.ok(item, `no item "${answer}" in ${items.map((entry) => entry.label).join(', ')}`);
    return item.value;
  }

  async input(title: string, options: { prompt: string; value?: string; validate?: (value: string) => string | undefined }): Promise<string | undefined> {
    this.asked.push({ title, prompt: options.prompt, ...(options.value === undefined ? {} : { value: options.value }) });
    const answer = this.answers.shift();
    if (answer !== undefined) assert.equal(options.validate?.(answer), undefined, `"${answer}" was refused`);
    return answer;
  }
}

function deps(ui: ModelSetupUi, overrides: Partial<ModelSetupDeps> = {}) {
  const saved: { choice: ModelChoice; apiKey: string | undefined }[] = [];
  const tested: ModelChoice[] = [];
  const listed: { baseUrl: string; apiKey: string | undefined }[] = [];
  const value: ModelSetupDeps = {
    ui,
    current: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
    hasKey: async () => false,
    vscodeModels: async () => [],
    listModels: async (baseUrl, apiKey): Promise<ModelListing> => {
      listed.push({ baseUrl, apiKey });
      return baseUrl === 'http://127.0.0.1:11434/v1' ? { ok: true, models: ['qwen2.5:7b', 'llama3.2'] } : { ok: false, problem: 'unreachable', detail: 'no answer' };
    },
    save: async (choice, apiKey) => void saved.push({ choice, apiKey }),
    test: async (choice): Promise<ConnectionTest> => {
      tested.push(choice);
      return choice.provider === 'openai' && choice.baseUrl.includes(':11434') ? { ok: true, model: choice.model } : { ok: false, error: new LlmError('x', 'network', undefined, 1) };
    },
    ...overrides,
  };
  return { deps: value, saved, tested, listed };
}

describe('runModelSetup', () => {
  it('a local Ollama that answers: its default address (not asked again), its models to pick from, saved, tested, success in words', async () => {
    const ui = new ScriptedSetupUi(['A local server', 'Ollama', 'llama3.2']);
    const { deps: setup, saved, tested } = deps(ui);
    const outcome = await runModelSetup(setup);
    const servers = ui.asked[1]?.items ?? [];
    assert.deepEqual(servers.map((item) => [item.label, item.description, item.detail]).slice(0, 4), [
      ['Ollama', 'http://127.0.0.1:11434/v1', 'Answering: 2 models.'],
      ['LM Studio', 'http://127.0.0.1:1234/v1', 'Not answering now.'],
      ['llama.cpp', 'http://127.0.0.1:8080/v1', 'Not answering now.'],
      ['vLLM', 'http://127.0.0.1:8000/v1', 'Not answering now.'],
    ]);
    // A newcomer picked Ollama while it answered, and was asked for its address all the same.
    assert.deepEqual(ui.asked.map((question) => question.title), ['Task Planner: Set up a model (1/3)', 'Task Planner: Set up a model (2/3)', 'Task Planner: Set up a model (3/3)']);
    const choice: ModelChoice = { provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2', server: 'ollama' };
    assert.deepEqual(saved, [{ choice, apiKey: undefined }]);
    assert.deepEqual(tested, [choice]);
    assert.deepEqual(outcome, { choice, ok: true, message: 'Connected: llama3.2 at http://127.0.0.1:11434 answered. Task Planner plans and runs agent steps with it.' });
  });

  it('a local server that does not answer: the model name is typed (the reason shown), and the test says to start it', async () => {
    const ui = new ScriptedSetupUi(['A local server', 'LM Studio', 'http://127.0.0.1:1234/v1', 'qwen2.5-7b-instruct']);
    const { deps: setup, saved } = deps(ui);
    const outcome = await runModelSetup(setup);
    assert.match(ui.asked[3]?.prompt ?? '', /^No server answered at http:\/\/127\.0\.0\.1:1234\/v1: start LM Studio's local server \(Developer tab\) or check the port\. Type the model's name/);
    assert.equal(saved[0]?.choice.provider === 'openai' && saved[0].choice.model, 'qwen2.5-7b-instruct');
    assert.equal(outcome?.ok, false);
    assert.equal(outcome?.message, "No server answered at http://127.0.0.1:1234/v1: start LM Studio's local server (Developer tab) or check the port.");
  });

  it('says whether a prompt fits the model only when the model answered (after a failure, only how to reach it)', async () => {
    const fit = async (): Promise<string> => 'A step\'s prompt needs about 8 338 tokens.';
    const answering = await runModelSetup(deps(new ScriptedSetupUi(['A local server', 'Ollama', 'llama3.2']), { contextFit: fit }).deps);
    assert.match(answering?.message ?? '', / A step's prompt needs about 8 338 tokens\.$/);
    const silent = await runModelSetup(deps(new ScriptedSetupUi(['A local server', 'LM Studio', 'http://127.0.0.1:1234/v1', 'qwen2.5-7b-instruct']), { contextFit: fit }).deps);
    assert.equal(silent?.message, "No server answered at http://127.0.0.1:1234/v1: start LM Studio's local server (Developer tab) or check the port.");
  });

  it('a hosted service: address and key (kept for secret storage), its models listed with that key', async () => {
    const ui = new ScriptedSetupUi(['A hosted service', 'https://openrouter.example/api/v1/', 'sk-typed', 'my-model']);
    const { deps: setup, saved, listed } = deps(ui);
    await runModelSetup(setup);
    assert.deepEqual(listed.at(-1), { baseUrl: 'https://openrouter.example/api/v1', apiKey: 'sk-typed' });
    assert.deepEqual(saved, [{ choice: { provider: 'openai', baseUrl: 'https://openrouter.example/api/v1', model: 'my-model' }, apiKey: 'sk-typed' }]);
  });

  it('a hosted service with a key already stored: an empty key keeps it', async () => {
    const ui = new ScriptedSetupUi(['A hosted service', 'https://api.openai.com/v1', '', 'gpt-4o-mini']);
    const { deps: setup, saved } = deps(ui, { hasKey: async () => true });
    await runModelSetup(setup);
    assert.match(ui.asked[2]?.prompt ?? '', /leave empty to keep the stored one/);
    assert.equal(saved[0]?.apiKey, undefined);
  });

  it('a VS Code chat model: picked from those offered; with none offered it is saved and the test says what is missing', async () => {
    const offered = new ScriptedSetupUi(['A VS Code chat model', 'Claude']);
    const withModels = deps(offered, { vscodeModels: async () => [{ family: 'gpt-4.1', name: 'GPT-4.1' }, { family: 'claude', name: 'Claude' }], test: async () => ({ ok: true, model: 'claude' }) });
    const picked = await runModelSetup(withModels.deps);
    assert.match(offered.asked[0]?.items?.[0]?.description ?? '', /2 available: GPT-4\.1, Claude/);
    assert.deepEqual(picked?.choice, { provider: 'vscode', family: 'claude' });
    const none = new ScriptedSetupUi(['A VS Code chat model']);
    const withoutModels = deps(none, { test: async () => ({ ok: false, error: new Error('No VS Code chat model is available') }) });
    const missing = await runModelSetup(withoutModels.deps);
    // Not first (the choice Enter takes) when none is installed: a newcomer found it preselected.
    assert.deepEqual(none.asked[0]?.items?.map((item) => item.label), ['A local server', 'A hosted service', 'A VS Code chat model', 'No model']);
    assert.equal(none.asked[0]?.items?.[2]?.description, 'none installed yet');
    assert.equal(offered.asked[0]?.items?.[0]?.label, 'A VS Code chat model', 'first when one is installed');
    assert.deepEqual(withoutModels.saved, [{ choice: { provider: 'vscode', family: '' }, apiKey: undefined }]);
    assert.match(missing?.message ?? '', /did not answer: No VS Code chat model is available\. Check that its extension/);
  });

  it('no model: the heuristic planner is saved without a connection test', async () => {
    const { deps: setup, saved, tested } = deps(new ScriptedSetupUi(['No model']));
    const outcome = await runModelSetup(setup);
    assert.deepEqual(saved, [{ choice: { provider: 'heuristic' }, apiKey: undefined }]);
    assert.deepEqual(tested, []);
    assert.equal(outcome?.ok, true);
  });

  it('dismissing any question saves nothing', async () => {
    for (const answers of [[], ['A local server'], ['A local server', 'Ollama'], ['A hosted service', 'https://api.openai.com/v1']]) {
      const { deps: setup, saved } = deps(new ScriptedSetupUi([...answers, undefined]));
      assert.equal(await runModelSetup(setup), undefined);
      assert.deepEqual(saved, [], `saved after ${JSON.stringify(answers)}`);
    }
  });

  it('refuses an address that is not http(s)', async () => {
    let validate: ((value: string) => string | undefined) | undefined;
    const ui: ModelSetupUi = {
      pick: async <T>(_title: string, _placeholder: string, items: readonly SetupItem<T>[]) => items.find((item) => item.label === 'A hosted service')?.value,
      input: async (_title, options) => {
        validate = options.validate;
        return undefined;
      },
    };
    await runModelSetup(deps(ui).deps);
    assert.match(validate?.('ftp://example.com') ?? '', /http:\/\/ or https:\/\//);
    assert.match(validate?.('http://') ?? '', /Enter an address such as/);
    assert.equal(validate?.('localhost:11434/v1'), undefined, 'an address without http:// is taken');
    assert.equal(validate?.('http://127.0.0.1:11434/v1'), undefined);
  });

  it('an address without http:// gets it, and says so in the outcome (issue 28)', async () => {
    const ui = new ScriptedSetupUi(['A local server', 'Another address…', 'localhost:11434/v1', 'llama3.2']);
    const { deps: setup, saved } = deps(ui, {
      listModels: async (baseUrl) => (baseUrl === 'http://localhost:11434/v1' ? { ok: true, models: ['llama3.2'] } : { ok: false, problem: 'unreachable', detail: 'no answer' }),
      test: async (choice) => ({ ok: true, model: choice.provider === 'openai' ? choice.model : '' }),
    });
    const outcome = await runModelSetup(setup);
    assert.deepEqual(saved[0]?.choice, { provider: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'llama3.2' });
    assert.match(outcome?.message ?? '', /^Read "localhost:11434\/v1" as http:\/\/localhost:11434\/v1 \(added http:\/\/\)\. Connected: llama3\.2/);
  });

  it('an address without a path is probed at /v1 first, then as typed; /v1 is kept when it answers, and said', async () => {
    const ui = new ScriptedSetupUi(['A local server', 'Another address…', 'http://127.0.0.1:8080/', 'm']);
    const probed: string[] = [];
    const { deps: setup, saved } = deps(ui, {
      listModels: async (baseUrl) => {
        probed.push(baseUrl);
        return baseUrl === 'http://127.0.0.1:8080/v1' ? { ok: true, models: ['m'] } : { ok: false, problem: 'not_listed', detail: 'HTTP 404' };
      },
      test: async () => ({ ok: true, model: 'm' }),
    });
    const outcome = await runModelSetup(setup);
    assert.deepEqual(probed.slice(-2), ['http://127.0.0.1:8080/v1', 'http://127.0.0.1:8080/v1'], 'probed /v1, then listed its models');
    assert.equal(saved[0]?.choice.provider === 'openai' && saved[0].choice.baseUrl, 'http://127.0.0.1:8080/v1');
    assert.match(outcome?.message ?? '', /^Read "http:\/\/127\.0\.0\.1:8080\/" as http:\/\/127\.0\.0\.1:8080\/v1 \(added \/v1\)\./);
  });

  it('an address without a path whose root answers (and not /v1) is kept as typed, with nothing said', async () => {
    const ui = new ScriptedSetupUi(['A hosted service', 'https://models.example', 'key', 'm']);
    const { deps: setup, saved } = deps(ui, {
      listModels: async (baseUrl) => (baseUrl === 'https://models.example' ? { ok: false, problem: 'refused_key', detail: 'HTTP 401' } : { ok: false, problem: 'not_listed', detail: 'HTTP 404' }),
      test: async () => ({ ok: true, model: 'm' }),
    });
    const outcome = await runModelSetup(setup);
    assert.equal(saved[0]?.choice.provider === 'openai' && saved[0].choice.baseUrl, 'https://models.example');
    assert.match(outcome?.message ?? '', /^Connected: m at https:\/\/models\.example answered/);
  });

  it('an address without a path where nothing answers gets /v1, the API root of every server offered', async () => {
    const ui = new ScriptedSetupUi(['A local server', 'Another address…', '192.168.1.5:8000', 'm']);
    const { deps: setup, saved } = deps(ui, { test: async () => ({ ok: true, model: 'm' }) });
    const outcome = await runModelSetup(setup);
    assert.equal(saved[0]?.choice.provider === 'openai' && saved[0].choice.baseUrl, 'http://192.168.1.5:8000/v1');
    assert.match(outcome?.message ?? '', /^Read "192\.168\.1\.5:8000" as http:\/\/192\.168\.1\.5:8000\/v1 \(added http:\/\/, \/v1\)\./);
  });
});
