import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type * as ApiKeyStoreModule from '../../../src/vscode/apiKeyStore';
import type * as LlmProviderModule from '../../../src/vscode/llmProvider';
import type * as SettingsModule from '../../../src/vscode/settings';
import type { InspectedSetting, SettingOrigin, SettingValues } from '../../../src/vscode/settingValues';
import { memoryMemento } from '../../fakes/memoryMemento';
import { requireWithVscode } from '../../fakes/requireWithVscode';

// Attacks on docs/using.md "What a workspace's settings can never do": "A workspace that changes where requests go is
// announced". A user who chose `llm.provider: openai` with a local server (their code never leaves the machine) opens a
// trusted repository whose .vscode/settings.json says `"taskPlanner.llm.provider": "vscode"` (or `auto`): requests, with the
// code they quote, went to a VS Code chat model (a hosted one, such as Copilot's) without a word, while a workspace's
// `llm.baseUrl` is announced.

interface Manifest {
  contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
}
const properties = (JSON.parse(readFileSync('package.json', 'utf8')) as Manifest).contributes.configuration.properties;

/** `inspect` over the defaults, the user's own values and a workspace's (in `.vscode/settings.json`). */
function values(user: Record<string, unknown>, workspace: Record<string, unknown>): SettingValues {
  return {
    trusted: true,
    inspect: (key): InspectedSetting => ({ defaultValue: properties[`taskPlanner.${key}`]?.default, globalValue: user[key], workspaceValue: workspace[key] }),
  };
}

/** A hosted chat model another extension offers through `vscode.lm`. */
const hostedModel = { id: 'copilot-gpt', vendor: 'copilot', family: 'gpt-4o', name: 'GPT-4o', maxInputTokens: 64_000 };

function load() {
  const api = {
    lm: { selectChatModels: async () => [hostedModel] },
    workspace: { workspaceFile: undefined, workspaceFolders: [{ uri: { fsPath: '/repo', path: '/repo' } }] },
    Uri: { joinPath: (base: { fsPath: string }, ...parts: string[]) => ({ fsPath: [base.fsPath, ...parts].join('/') }) },
    window: {},
  };
  const provider = requireWithVscode<typeof LlmProviderModule>(require.resolve('../../../src/vscode/llmProvider'), api);
  const { ApiKeyStore } = requireWithVscode<typeof ApiKeyStoreModule>(require.resolve('../../../src/vscode/apiKeyStore'), api);
  const { settingsFrom } = requireWithVscode<typeof SettingsModule>(require.resolve('../../../src/vscode/settings'), api);
  const infos: string[] = [];
  const keys = new ApiKeyStore(
    { get: async () => undefined, store: async () => undefined, delete: async () => undefined },
    memoryMemento(),
    () => 'http://127.0.0.1:11434/v1',
    {
      sendElsewhere: async (_enteredFor: string, _target: string, _from: SettingOrigin) => undefined,
      inputKey: async () => undefined,
      info: (message: string) => void infos.push(message),
    },
  );
  return { resolveProvider: provider.resolveProvider, settingsFrom, keys, infos };
}

const localUser = { 'llm.provider': 'openai', 'llm.baseUrl': 'http://127.0.0.1:11434/v1', 'llm.model': 'qwen2.5' };

describe('attack: a trusted workspace switches the user\'s model provider', () => {
  for (const provider of ['vscode', 'auto']) {
    it(`attack: a workspace's llm.provider "${provider}" over the user's local "openai" server is announced before requests go to a VS Code chat model`, async () => {
      const { resolveProvider, settingsFrom, keys, infos } = load();
      const settings = settingsFrom(values(localUser, { 'llm.provider': provider }));
      const resolved = await resolveProvider(settings, keys);
      assert.equal(resolved.choice, 'vscode', 'the workspace chose the VS Code chat model (allowed, as choosing a model endpoint is)');
      assert.equal(infos.length, 1, `the switch was not announced: ${JSON.stringify(infos)}`);
      assert.match(infos[0] ?? '', /VS Code chat model/);
      assert.match(infos[0] ?? '', /taskPlanner\.llm\.provider/);
      assert.match(infos[0] ?? '', /\/repo\/\.vscode\/settings\.json/, 'names the settings file that chose it');
      await resolveProvider(settings, keys);
      assert.equal(infos.length, 1, 'announced once per settings file');
    });
  }

  it('the user\'s own choice of a VS Code chat model, or a workspace saying what the user says, is not announced', async () => {
    const { resolveProvider, settingsFrom, keys, infos } = load();
    assert.equal((await resolveProvider(settingsFrom(values({ 'llm.provider': 'vscode' }, {})), keys)).choice, 'vscode');
    assert.equal((await resolveProvider(settingsFrom(values({ 'llm.provider': 'auto' }, { 'llm.provider': 'vscode' })), keys)).choice, 'vscode');
    assert.equal((await resolveProvider(settingsFrom(values({ 'llm.provider': 'vscode' }, { 'llm.provider': 'vscode' })), keys)).choice, 'vscode');
    assert.deepEqual(infos, []);
  });

  it('held: a workspace cannot turn the user\'s choice of no model into the VS Code chat model', async () => {
    const { resolveProvider, settingsFrom, keys, infos } = load();
    const resolved = await resolveProvider(settingsFrom(values({ 'llm.provider': 'heuristic' }, { 'llm.provider': 'vscode' })), keys);
    assert.equal(resolved.choice, 'heuristic');
    assert.equal(resolved.llm, undefined);
    assert.deepEqual(infos, []);
  });
});
