import assert from 'node:assert/strict';
import '../../fakes/vscodeL10n';
import { ApiKeyStore, announcedBaseUrlsStateKey, type ApiKeyPrompts } from '../../../src/vscode/apiKeyStore';
import type { SettingOrigin } from '../../../src/vscode/settingValues';
import { memoryMemento } from '../../fakes/memoryMemento';

/** SecretStorage in memory. */
function memorySecrets(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    values,
    get: async (key: string) => values.get(key),
    store: async (key: string, value: string) => void values.set(key, value),
    delete: async (key: string) => void values.delete(key),
  };
}

/** Prompts answering from a script; `asked` keeps each question, `infos` each message. */
function scriptedPrompts(answers: ('send' | 'setKey' | undefined)[] = [], typed: (string | undefined)[] = []) {
  const asked: string[] = [];
  const infos: string[] = [];
  const prompts: ApiKeyPrompts = {
    sendElsewhere: async (enteredFor: string, target: string, from: SettingOrigin) => {
      asked.push(`${enteredFor} -> ${target} (${from})`);
      return answers.shift();
    },
    inputKey: async (target: string) => {
      asked.push(`key for ${target}`);
      return typed.shift();
    },
    info: (message: string) => void infos.push(message),
  };
  return { prompts, asked, infos };
}

function store(options: { secrets?: ReturnType<typeof memorySecrets>; answers?: ('send' | 'setKey' | undefined)[]; typed?: (string | undefined)[]; userBaseUrl?: string | (() => string) } = {}) {
  const secrets = options.secrets ?? memorySecrets();
  const state = memoryMemento();
  const scripted = scriptedPrompts(options.answers, options.typed);
  const userBaseUrl = options.userBaseUrl ?? 'https://api.openai.com/v1';
  const keys = new ApiKeyStore(secrets, state, typeof userBaseUrl === 'string' ? () => userBaseUrl : userBaseUrl, scripted.prompts);
  return { keys, secrets, state, ...scripted };
}

describe('ApiKeyStore: a key goes to the address it was entered for', () => {
  it('attack (issue 27): a workspace\'s base URL does not receive the key entered for the user\'s endpoint; the safe answer is remembered', async () => {
    const { keys, asked } = store({ answers: [undefined] });
    await keys.set('https://api.openai.com/v1', 'user', 'sk-users-own-key');
    assert.deepEqual(await keys.keyFor('https://api.openai.com/v1/', 'user'), { key: 'sk-users-own-key' });
    const elsewhere = await keys.keyFor('https://collector.example/v1', 'workspace');
    assert.deepEqual(elsewhere, { withheld: { enteredFor: 'https://api.openai.com/v1', target: 'https://collector.example/v1' } });
    assert.deepEqual(asked, ['https://api.openai.com/v1 -> https://collector.example/v1 (workspace)']);
    assert.deepEqual(await keys.keyFor('https://collector.example/v1/', 'workspace'), elsewhere, 'the answer is remembered for that address');
    assert.equal(asked.length, 1, 'asked again');
    assert.equal(await keys.storedFor('https://collector.example/v1'), undefined);
  });

  it('attack: a workspace\'s address on the origin of the user\'s own but at another path (another account of one gateway) is asked about', async () => {
    const mine = 'https://gateway.example/v1/me/openai';
    const theirs = 'https://gateway.example/v1/attacker/openai';
    const { keys, asked } = store({ userBaseUrl: mine, answers: [undefined, 'send'] });
    await keys.set(mine, 'user', 'sk-mine');
    // The user's own address, however written, and the same address set by a workspace: sent without a question.
    assert.deepEqual(await keys.keyFor(`${mine}/`, 'user'), { key: 'sk-mine' });
    assert.deepEqual(await keys.keyFor(mine, 'workspace'), { key: 'sk-mine' });
    assert.deepEqual(asked, []);
    // Another path there is another address: asked about, and No is remembered for it.
    const withheld = { withheld: { enteredFor: mine, target: theirs } };
    assert.deepEqual(await keys.keyFor(theirs, 'workspace'), withheld);
    assert.deepEqual(await keys.keyFor(`${theirs}/`, 'workspaceFolder'), withheld, 'the answer is remembered for that address');
    assert.deepEqual(asked, [`${mine} -> ${theirs} (workspace)`]);
    // A third address is asked about on its own: a yes to it sends the key there only.
    assert.deepEqual(await keys.keyFor('https://gateway.example/v1/team/openai', 'workspace'), { key: 'sk-mine' });
    assert.deepEqual(await keys.keyFor(theirs, 'workspace'), withheld);
  });

  it('attack: a gateway key entered for one account\'s path does not go unasked to another account\'s path once the user\'s own base URL moved to another origin', async () => {
    let userBaseUrl = 'https://gateway.example/v1/me/openai';
    const { keys: moving, asked } = store({ userBaseUrl: () => userBaseUrl, answers: [undefined] });
    await moving.set(userBaseUrl, 'user', 'sk-gateway-key-of-me');
    userBaseUrl = 'https://api.openai.com/v1';
    await moving.set(userBaseUrl, 'user', 'sk-openai-key');
    const theirs = 'https://gateway.example/v1/attacker/openai';
    const withheld = { withheld: { enteredFor: 'https://gateway.example/v1/me/openai', target: theirs } };
    assert.deepEqual(await moving.keyFor(theirs, 'workspace'), withheld);
    assert.deepEqual(asked, [`https://gateway.example/v1/me/openai -> ${theirs} (workspace)`]);
    assert.equal(await moving.storedFor(theirs), undefined);
    // Each key still goes to its own address without a question.
    assert.deepEqual(await moving.keyFor('https://gateway.example/v1/me/openai', 'workspace'), { key: 'sk-gateway-key-of-me' });
    assert.deepEqual(await moving.keyFor('https://api.openai.com/v1', 'user'), { key: 'sk-openai-key' });
    assert.equal(asked.length, 1);
  });

  it('another path on the origin of a key is asked about even when the user\'s own settings chose it', async () => {
    const { keys, asked } = store({ userBaseUrl: 'https://gateway.example/v2/me/openai', answers: ['send'] });
    await keys.store('sk-mine', 'https://gateway.example/v1/me/openai');
    assert.deepEqual(await keys.keyFor('https://gateway.example/v2/me/openai', 'user'), { key: 'sk-mine' });
    assert.deepEqual(asked, ['https://gateway.example/v1/me/openai -> https://gateway.example/v2/me/openai (user)']);
    assert.equal(await keys.storedFor('https://gateway.example/v2/me/openai'), undefined, 'a yes sends the key, it does not move it');
  });

  it('keys an older version stored by origin: bound to the user\'s own address on that origin, else every path there asks once', async () => {
    const older = { 'https://gateway.example': 'sk-gateway', 'https://api.openai.com': 'sk-openai', 'https://gateway.example/v1/team/openai': 'sk-team' };
    const secrets = memorySecrets({ 'taskPlanner.apiKeys': JSON.stringify(older) });
    const { keys, asked } = store({ secrets, userBaseUrl: 'https://api.openai.com/v1', answers: [undefined, 'send'] });
    assert.deepEqual(await keys.keyFor('https://api.openai.com/v1/', 'user'), { key: 'sk-openai' });
    assert.deepEqual(await keys.keyFor('https://gateway.example/v1/team/openai', 'workspace'), { key: 'sk-team' }, 'a key stored for an address stays there');
    assert.deepEqual(asked, []);
    // The gateway's key was entered for some path there, which is no longer known: each address asks.
    assert.deepEqual(await keys.keyFor('https://gateway.example/v1/attacker/openai', 'workspace'), {
      withheld: { enteredFor: 'https://gateway.example', target: 'https://gateway.example/v1/attacker/openai' },
    });
    assert.deepEqual(await keys.keyFor('https://gateway.example/v1/me/openai', 'user'), { key: 'sk-gateway' });
    assert.equal(asked.length, 2);
    assert.deepEqual(JSON.parse(secrets.values.get('taskPlanner.apiKeys')!), {
      version: 2,
      byAddress: { 'https://gateway.example': 'sk-gateway', 'https://api.openai.com/v1': 'sk-openai', 'https://gateway.example/v1/team/openai': 'sk-team' },
    });
  });

  it('a key set for a workspace\'s address beside the user\'s on one origin is that address\'s own: the user\'s key stays', async () => {
    const mine = 'https://gateway.example/v1/me/openai';
    const theirs = 'https://gateway.example/v1/team/openai';
    const { keys } = store({ userBaseUrl: mine, answers: ['setKey'], typed: ['sk-team'] });
    await keys.set(mine, 'user', 'sk-mine');
    assert.deepEqual(await keys.keyFor(theirs, 'workspace'), { key: 'sk-team' });
    assert.deepEqual(await keys.keyFor(theirs, 'workspace'), { key: 'sk-team' }, 'stored for that address');
    assert.deepEqual(await keys.keyFor(mine, 'user'), { key: 'sk-mine' }, "the user's key was not replaced");
    assert.equal(await keys.storedFor(theirs), 'sk-team');
    await keys.set(theirs, 'workspace', 'sk-team-2');
    assert.deepEqual(await keys.keyFor(mine, 'user'), { key: 'sk-mine' }, 'Set API key for the workspace\'s address leaves the user\'s key too');
    assert.equal(await keys.storedFor(theirs), 'sk-team-2');
  });

  it('sends the key elsewhere only after an explicit yes, remembered for that address only', async () => {
    const { keys, asked } = store({ answers: ['send', undefined, undefined] });
    await keys.store('sk-one', 'https://api.openai.com/v1');
    assert.deepEqual(await keys.keyFor('https://proxy.example.com/openai', 'workspace'), { key: 'sk-one' });
    assert.deepEqual(await keys.keyFor('https://proxy.example.com/openai/', 'workspace'), { key: 'sk-one' });
    assert.ok('withheld' in (await keys.keyFor('https://proxy.example.com/other', 'workspace')), 'another path is another address');
    assert.ok('withheld' in (await keys.keyFor('https://proxy.example.com:8443/openai', 'workspace')), 'another port is another origin');
    assert.equal(asked.length, 3);
  });

  it('"Set a key for …" stores a key bound to the new address and leaves the other key where it was', async () => {
    const { keys } = store({ answers: ['setKey'], typed: ['sk-proxy'] });
    await keys.store('sk-one', 'https://api.openai.com/v1');
    assert.deepEqual(await keys.keyFor('https://proxy.example.com/v1', 'workspace'), { key: 'sk-proxy' });
    assert.equal(await keys.storedFor('https://api.openai.com/v1'), 'sk-one');
    assert.equal(await keys.storedFor('https://proxy.example.com/v1/'), 'sk-proxy');
    assert.equal(await keys.storedFor('https://proxy.example.com/x'), undefined, 'stored for its address, not its origin');
  });

  it('no key, or a local server without a key of its own: nothing is asked and nothing sent', async () => {
    const { keys, asked } = store();
    assert.deepEqual(await keys.keyFor('https://api.openai.com/v1', 'user'), { none: true });
    await keys.store('sk-one', 'https://api.openai.com/v1');
    assert.deepEqual(await keys.keyFor('http://127.0.0.1:11434/v1', 'workspace', true), { none: true });
    assert.deepEqual(asked, []);
  });

  it('a key stored before keys were bound is bound to the user\'s own base URL\'s address, not the workspace\'s', async () => {
    const secrets = memorySecrets({ 'taskPlanner.openAiApiKey': 'sk-legacy' });
    const { keys, asked } = store({ secrets, userBaseUrl: 'https://llm.company.example/v1', answers: [undefined, undefined] });
    assert.equal(await keys.has(), true);
    assert.deepEqual(await keys.keyFor('https://llm.company.example/v1', 'user'), { key: 'sk-legacy' });
    assert.ok('withheld' in (await keys.keyFor('https://collector.example/v1', 'workspace')));
    assert.ok('withheld' in (await keys.keyFor('https://llm.company.example/other', 'workspace')));
    assert.equal(asked.length, 2);
    assert.equal(secrets.values.has('taskPlanner.openAiApiKey'), false);
  });

  it('Clear API key forgets the keys and the answers', async () => {
    const { keys, asked } = store({ answers: [undefined, 'send'] });
    await keys.store('sk-one', 'https://api.openai.com/v1');
    await keys.keyFor('https://collector.example', 'workspace');
    await keys.clear();
    assert.equal(await keys.has(), false);
    await keys.store('sk-two', 'https://api.openai.com/v1');
    assert.deepEqual(await keys.keyFor('https://collector.example', 'workspace'), { key: 'sk-two' });
    assert.equal(asked.length, 2);
  });

  it('announces once per settings file and address that a workspace sends requests elsewhere; the user\'s own setting is not announced', async () => {
    const { keys, infos, state } = store();
    await keys.announceWorkspaceBaseUrl('https://collector.example/v1', 'workspace', '/repo/.vscode/settings.json');
    await keys.announceWorkspaceBaseUrl('https://collector.example/v1', 'workspace', '/repo/.vscode/settings.json');
    await keys.announceWorkspaceBaseUrl('https://api.example.com/v1', 'user', '/repo/.vscode/settings.json');
    assert.deepEqual(infos, [
      'Task Planner: this workspace sends model requests, with your prompts and the code they quote, to https://collector.example/v1 (taskPlanner.llm.baseUrl in /repo/.vscode/settings.json). Your API key goes there only if you allow it.',
    ]);
    await keys.announceWorkspaceBaseUrl('https://collector.example/v2', 'workspaceFolder', '/repo/.vscode/settings.json');
    await keys.announceWorkspaceBaseUrl('https://collector.example/v1', 'workspace', '/other/.vscode/settings.json');
    assert.equal(infos.length, 3);
    assert.equal((state.get(announcedBaseUrlsStateKey) as string[]).length, 3);
  });
});
