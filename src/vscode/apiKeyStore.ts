import * as vscode from 'vscode';
import type { SettingOrigin } from './settingValues';
import { showError, showInformation, showWarning } from './notifications';

/** Before keys were bound to addresses: one key, for whatever the base URL was. */
const legacySecret = 'taskPlanner.openAiApiKey';
/**
 * The keys, as `{ "version": 2, "byAddress": { "https://api.openai.com/v1": "sk-…" } }`: each bound to the address (origin
 * and path, `placeOf`) of the base URL it was entered for. Older versions stored a flat object keyed by origin (or by address
 * for a workspace's path beside the user's own): `keys()` moves those over once.
 */
const keysSecret = 'taskPlanner.apiKeys';
/** The user's answers, per address (`placeOf`), to "send the key entered for A to B?" (global state). */
export const keyAnswersStateKey = 'taskPlanner.apiKeyAnswers';
/** The workspace base URLs already announced, as "settings file\nbase URL" (global state). */
export const announcedBaseUrlsStateKey = 'taskPlanner.announcedWorkspaceBaseUrls';

/** What "may the key go there?" was answered for an address: the address the key was entered for, and yes or no. */
interface KeyAnswer {
  keyOf: string;
  send: boolean;
}

/** The key a request to a base URL may carry: one, none stored, or one withheld because it was entered for another address. */
export type KeyForUrl = { key: string } | { none: true } | { withheld: { enteredFor: string; target: string } };

/** The questions and messages of the key store (the editor's, or a test's). */
export interface ApiKeyPrompts {
  /**
   * The modal question when the key entered for `enteredFor` would go to `target` (set by
   * the settings `from`): `send` only on an explicit yes; `setKey` to enter a key for
   * `target`; `undefined` (the safe default, also Escape): the key is not sent.
   */
  sendElsewhere(enteredFor: string, target: string, from: SettingOrigin): Promise<'send' | 'setKey' | undefined>;
  /** The password box of "Set API key" for `target`; `from` says which settings chose that address. */
  inputKey(target: string, from: SettingOrigin): Promise<string | undefined>;
  /** A non-modal information message. */
  info(message: string): void;
}

/** The origin and path of a base URL without its trailing slashes (`https://gw.example/v1/acct`), `undefined` when it is not a URL. */
export function placeOf(baseUrl: string): string | undefined {
  const origin = originOf(baseUrl);
  if (origin === undefined) return undefined;
  let path = new URL(baseUrl).pathname;
  while (path.endsWith('/')) path = path.slice(0, -1);
  return origin + path;
}

/** The origin (`https://host:port`) of a base URL, `undefined` when it is not a URL. */
export function originOf(baseUrl: string): string | undefined {
  try {
    const url = new URL(baseUrl);
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

const fromWorkspace = (from: SettingOrigin): boolean => from === 'workspace' || from === 'workspaceFolder';

/**
 * The OpenAI-compatible API keys in VS Code's SecretStorage: never in settings, logs,
 * traces or error messages. Each key is bound to the address (origin and path, `placeOf`)
 * of the base URL it was entered for and is sent there only: a request to any other
 * address, another path on the same origin included (a gateway that tells its accounts
 * apart by path, `…/v1/<account>/…`), carries it only after the user said yes in a modal
 * question whose default is no, and the answer is remembered per address
 * (`keyAnswersStateKey` in the global state). This holds whoever set the base URL and
 * whatever the user's own base URL is now. A key stored by an older version for an
 * origin is bound to the user's own base URL when that is on the origin, else to the
 * origin's root, so any other address there asks once (`keys()`).
 */
export class ApiKeyStore {
  constructor(
    private readonly secrets: Pick<vscode.SecretStorage, 'get' | 'store' | 'delete'>,
    private readonly state: vscode.Memento,
    private readonly userBaseUrl: () => string,
    private readonly prompts: ApiKeyPrompts = editorPrompts,
  ) {}

  /** Whether any key is stored (for `auto`, which then prefers the OpenAI-compatible endpoint); never sends or asks. */
  async has(): Promise<boolean> {
    return Object.keys(await this.keys()).length > 0;
  }

  /** The key entered for `baseUrl`'s address (`placeOf`), `undefined` when none: never one entered elsewhere, never a question. */
  async storedFor(baseUrl: string): Promise<string | undefined> {
    const place = placeOf(baseUrl);
    return place === undefined ? undefined : (await this.keys())[place];
  }

  /**
   * The key a request to `baseUrl` may carry: the key entered for its address (`placeOf`),
   * if any; else, when a key was entered for another address, the remembered answer or the
   * modal question, about a key of the same origin first (a gateway's key at another path),
   * else the user's own base URL's, else the first stored. A local server, which needs no
   * key, is not asked about unless a key was entered on its origin.
   * `from` is where the base URL comes from (a workspace's settings, the user's…).
   */
  async keyFor(baseUrl: string, from: SettingOrigin, local = false): Promise<KeyForUrl> {
    const target = placeOf(baseUrl);
    if (target === undefined) return { none: true };
    const keys = await this.keys();
    const atPlace = keys[target];
    if (atPlace !== undefined) return { key: atPlace };
    const places = Object.keys(keys);
    const sameOrigin = places.find((place) => originOf(place) === originOf(baseUrl));
    const userPlace = placeOf(this.userBaseUrl());
    const enteredFor = sameOrigin ?? (userPlace !== undefined && keys[userPlace] !== undefined ? userPlace : places[0]);
    if (enteredFor === undefined || (local && sameOrigin === undefined)) return { none: true };
    return this.askToSend(keys[enteredFor]!, enteredFor, target, baseUrl, from);
  }

  /**
   * Whether the key entered for the address `enteredFor` goes to the address `target`: the remembered answer, else the
   * modal question; a key typed for `target` there is stored for it, leaving the other key as it was.
   */
  private async askToSend(key: string, enteredFor: string, target: string, baseUrl: string, from: SettingOrigin): Promise<KeyForUrl> {
    const withheld = { withheld: { enteredFor, target } };
    const answers = this.state.get<Record<string, KeyAnswer>>(keyAnswersStateKey) ?? {};
    const answered = answers[target];
    if (answered?.keyOf === enteredFor) return answered.send ? { key } : withheld;
    const choice = await this.prompts.sendElsewhere(enteredFor, target, from);
    if (choice === 'setKey') {
      const typed = await this.prompts.inputKey(target, from);
      if (typed !== undefined && typed.trim() !== '') {
        await this.store(typed, baseUrl);
        return { key: typed.trim() };
      }
      return withheld;
    }
    await this.state.update(keyAnswersStateKey, { ...answers, [target]: { keyOf: enteredFor, send: choice === 'send' } });
    return choice === 'send' ? { key } : withheld;
  }

  /**
   * "Task Planner: Set API key": a password input box naming the address the key is for
   * (the base URL in force, `from` the settings that set it); `key` skips it (tests).
   * Any key stored for another address stays as it was.
   */
  async set(baseUrl: string, from: SettingOrigin, key?: string): Promise<boolean> {
    const target = placeOf(baseUrl);
    if (target === undefined) {
      void showError(vscode.l10n.t('Task Planner: taskPlanner.llm.baseUrl is not a URL, so no key can be set for it.'));
      return false;
    }
    const value = key ?? (await this.prompts.inputKey(target, from));
    if (value === undefined || value.trim() === '') return false;
    await this.store(value, baseUrl);
    this.prompts.info(vscode.l10n.t('Task Planner: API key for {0} stored in secret storage. It is sent to {0} only.', target));
    return true;
  }

  /** Stores `key` (trimmed) for `baseUrl`'s address (`placeOf`) without a word to the user ("Set up a model" reports for itself). */
  async store(key: string, baseUrl: string): Promise<void> {
    const place = placeOf(baseUrl);
    if (place === undefined) throw new Error(vscode.l10n.t('taskPlanner.llm.baseUrl is not a URL, so no key can be set for it.'));
    await this.save({ ...(await this.keys()), [place]: key.trim() });
  }

  /** "Task Planner: Clear API key": every key, and every answer about sending one elsewhere. */
  async clear(): Promise<void> {
    await this.secrets.delete(keysSecret);
    await this.secrets.delete(legacySecret);
    await this.state.update(keyAnswersStateKey, undefined);
    this.prompts.info(vscode.l10n.t('Task Planner: API keys removed from secret storage.'));
  }

  /**
   * Says once per settings file and address (remembered in the global state) that the
   * workspace's settings send model requests, with the code in them, to `baseUrl`.
   */
  async announceWorkspaceBaseUrl(baseUrl: string, from: SettingOrigin, settingsFile: string): Promise<void> {
    if (!fromWorkspace(from)) return;
    const announced = this.state.get<string[]>(announcedBaseUrlsStateKey) ?? [];
    const entry = `${settingsFile}\n${baseUrl}`;
    if (announced.includes(entry)) return;
    await this.state.update(announcedBaseUrlsStateKey, [...announced, entry]);
    this.prompts.info(
      vscode.l10n.t(
        'Task Planner: this workspace sends model requests, with your prompts and the code they quote, to {0} (taskPlanner.llm.baseUrl in {1}). Your API key goes there only if you allow it.',
        baseUrl,
        settingsFile,
      ),
    );
  }

  /**
   * Says once per settings file (remembered with the announced base URLs) that the workspace's `taskPlanner.llm.provider`
   * sends model requests, with the code in them, to a VS Code chat model rather than the user's own choice: a repository
   * that switched a user's local server to a hosted chat model did so without a word, while its base URL is announced.
   */
  async announceWorkspaceProvider(from: SettingOrigin, settingsFile: string): Promise<void> {
    if (!fromWorkspace(from)) return;
    const announced = this.state.get<string[]>(announcedBaseUrlsStateKey) ?? [];
    const entry = `${settingsFile}\nllm.provider`;
    if (announced.includes(entry)) return;
    await this.state.update(announcedBaseUrlsStateKey, [...announced, entry]);
    this.prompts.info(
      vscode.l10n.t(
        'Task Planner: this workspace sends model requests, with your prompts and the code they quote, to a VS Code chat model instead of the model your settings choose (taskPlanner.llm.provider in {0}).',
        settingsFile,
      ),
    );
  }

  /**
   * The stored keys by address. Keys of older versions are moved over once: the single key from before keys were bound, and
   * each key stored for an origin, to the user's own base URL's address when it is on that origin (the key was entered for
   * it), else to the origin's root, where every other path asks; a key an older version stored for an address stays there.
   */
  private async keys(): Promise<Record<string, string>> {
    const stored = readKeys(await this.secrets.get(keysSecret));
    const legacy = (await this.secrets.get(legacySecret))?.trim();
    if (!stored.older && !legacy) return stored.byAddress;
    const userPlace = placeOf(this.userBaseUrl());
    const moved: Record<string, string> = {};
    if (legacy) moved[userPlace ?? 'https://api.openai.com/v1'] = legacy;
    const entries = Object.entries(stored.byAddress).map(([where, key]) => {
      const place = placeOf(where);
      return { place, originOnly: stored.older && place === originOf(where), key };
    });
    for (const { place, key } of entries.filter((entry) => entry.originOnly && entry.place !== undefined)) {
      moved[userPlace !== undefined && originOf(userPlace) === place ? userPlace : place!] = key;
    }
    // A key an older version stored for an address is the more precise: it wins over an origin's key moved to it.
    for (const { place, key } of entries.filter((entry) => !entry.originOnly && entry.place !== undefined)) moved[place!] = key;
    await this.save(moved);
    await this.secrets.delete(legacySecret);
    return moved;
  }

  private async save(byAddress: Record<string, string>): Promise<void> {
    await this.secrets.store(keysSecret, JSON.stringify({ version: 2, byAddress }));
  }
}

/**
 * The keys in the stored text: `older` when it is an older version's flat object (keyed by origin or address), whose
 * entries `ApiKeyStore.keys` moves over; nothing readable gives no key.
 */
function readKeys(text: string | undefined): { byAddress: Record<string, string>; older: boolean } {
  if (text === undefined) return { byAddress: {}, older: false };
  try {
    const value: unknown = JSON.parse(text);
    if (!isObject(value)) return { byAddress: {}, older: false };
    const current = value.version === 2;
    const entries = current ? (isObject(value.byAddress) ? value.byAddress : {}) : value;
    const byAddress = Object.fromEntries(
      Object.entries(entries).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== ''),
    );
    return { byAddress, older: !current && Object.keys(byAddress).length > 0 };
  } catch {
    return { byAddress: {}, older: false };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function settingsText(from: SettingOrigin): string {
  return fromWorkspace(from) ? vscode.l10n.t("this workspace's settings") : vscode.l10n.t('your settings');
}

/** The editor's questions: a modal whose first (focused) choice keeps the key, a password box naming the address. */
const editorPrompts: ApiKeyPrompts = {
  async sendElsewhere(enteredFor, target, from) {
    const keep = vscode.l10n.t("Don't send the key");
    const setKey = vscode.l10n.t('Set a key for {0}', target);
    const send = vscode.l10n.t('Send the key to {0}', target);
    const picked = await showWarning(
      vscode.l10n.t('Task Planner: send the API key you entered for {0} to {1}?', enteredFor, target),
      {
        modal: true,
        detail: vscode.l10n.t(
          'taskPlanner.llm.baseUrl in {0} sends model requests to {1}, but your key was entered for {2}. Whoever runs {1} could use the key. Your answer is remembered for {1}; "Task Planner: Clear API key" forgets it.',
          settingsText(from),
          target,
          enteredFor,
        ),
      },
      keep,
      setKey,
      send,
    );
    return picked === send ? 'send' : picked === setKey ? 'setKey' : undefined;
  },
  async inputKey(target, from) {
    return vscode.window.showInputBox({
      title: vscode.l10n.t('Task Planner: Set API key for {0}', target),
      prompt: fromWorkspace(from)
        ? vscode.l10n.t(
            "API key for {0}, the address this workspace's settings chose (taskPlanner.llm.baseUrl). It is sent there only; stored in VS Code's secret storage, never in settings.",
            target,
          )
        : vscode.l10n.t("API key for {0} (taskPlanner.llm.baseUrl). It is sent there only; stored in VS Code's secret storage, never in settings.", target),
      password: true,
      ignoreFocusOut: true,
      validateInput: (text) => (text.trim() === '' ? vscode.l10n.t('Enter the key, or press Escape to cancel.') : undefined),
    });
  },
  info(message) {
    void showInformation(message);
  },
};
