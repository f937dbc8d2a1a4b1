import * as vscode from 'vscode';
import type { SettingOrigin } from './settingValues';
import { showError, showInformation, showWarning } from './notifications';

/** Before keys were bound to addresses: one key, for whatever the base URL was. */
const legacySecret = 'taskPlanner.openAiApiKey';
/**
 * The keys, each bound to the origin it was entered for (`{ "https://api.openai.com": "sk-…" }`), or to an address on an origin
 * that already has a key (`placeOf`: a key set for a workspace's path on a gateway that tells its customers apart by path).
 */
const keysSecret = 'taskPlanner.apiKeys';
/** The user's answers, per origin (or address, `placeOf`), to "send the key entered for A to B?" (global state). */
export const keyAnswersStateKey = 'taskPlanner.apiKeyAnswers';
/** The workspace base URLs already announced, as "settings file\nbase URL" (global state). */
export const announcedBaseUrlsStateKey = 'taskPlanner.announcedWorkspaceBaseUrls';

/** What "may the key go there?" was answered for an origin: the origin of the key and yes or no. */
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
 * traces or error messages. Each key is bound to the origin of the base URL it was
 * entered for and is sent to that origin only: a request to another origin (a
 * workspace's `taskPlanner.llm.baseUrl`, say) carries it only after the user said yes in
 * a modal question whose default is no, and the answer is remembered per origin
 * (`keyAnswersStateKey` in the global state). A key stored before keys were bound is
 * bound to the origin of the user's own base URL (`userBaseUrl`).
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

  /** The key entered for `baseUrl` (its address, else its origin), `undefined` when none: never one entered elsewhere, never a question. */
  async storedFor(baseUrl: string): Promise<string | undefined> {
    const origin = originOf(baseUrl);
    if (origin === undefined) return undefined;
    const keys = await this.keys();
    return keys[placeOf(baseUrl)!] ?? keys[origin];
  }

  /**
   * The key a request to `baseUrl` may carry. The key entered for its origin, if any;
   * else, when a key was entered for another origin, the remembered answer or the modal
   * question (no key for a local server, which needs none: it is not asked about).
   * `from` is where the base URL comes from (a workspace's settings, the user's…).
   */
  async keyFor(baseUrl: string, from: SettingOrigin, local = false): Promise<KeyForUrl> {
    const target = originOf(baseUrl);
    const keys = await this.keys();
    if (target === undefined) return { none: true };
    const place = placeOf(baseUrl)!;
    const atPlace = keys[place];
    if (atPlace !== undefined) return { key: atPlace };
    const own = keys[target];
    if (own !== undefined) {
      if (!this.elsewhereOnUserOrigin(baseUrl, from)) return { key: own };
      return this.askToSend(own, placeOf(this.userBaseUrl())!, place, baseUrl, from, true);
    }
    const userOrigin = originOf(this.userBaseUrl());
    const enteredFor = userOrigin !== undefined && keys[userOrigin] !== undefined ? userOrigin : Object.keys(keys)[0];
    if (enteredFor === undefined || local) return { none: true };
    return this.askToSend(keys[enteredFor]!, originOf(enteredFor) ?? enteredFor, target, baseUrl, from, false);
  }

  /**
   * Whether `baseUrl` is a workspace's address on the origin of the user's own base URL but at another path: a gateway
   * that tells its customers apart by path (`…/v1/<account>/…`) would give the user's key to another account, so it is
   * asked about as another origin is, and a key set for it is its own.
   */
  private elsewhereOnUserOrigin(baseUrl: string, from: SettingOrigin): boolean {
    const user = this.userBaseUrl();
    return fromWorkspace(from) && originOf(user) === originOf(baseUrl) && placeOf(user) !== placeOf(baseUrl);
  }

  /**
   * Whether the key entered for `enteredFor` goes to `target` (an origin, or an address when `atPath`): the remembered
   * answer, else the modal question; a key typed for `target` there is stored for it (for its address when `atPath`,
   * leaving the origin's own key as it was).
   */
  private async askToSend(key: string, enteredFor: string, target: string, baseUrl: string, from: SettingOrigin, atPath: boolean): Promise<KeyForUrl> {
    const withheld = { withheld: { enteredFor, target } };
    const answers = this.state.get<Record<string, KeyAnswer>>(keyAnswersStateKey) ?? {};
    const answered = answers[target];
    if (answered?.keyOf === enteredFor) return answered.send ? { key } : withheld;
    const choice = await this.prompts.sendElsewhere(enteredFor, target, from);
    if (choice === 'setKey') {
      const typed = await this.prompts.inputKey(target, from);
      if (typed !== undefined && typed.trim() !== '') {
        await this.store(typed, baseUrl, atPath);
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
   */
  async set(baseUrl: string, from: SettingOrigin, key?: string): Promise<boolean> {
    if (originOf(baseUrl) === undefined) {
      void showError(vscode.l10n.t('Task Planner: taskPlanner.llm.baseUrl is not a URL, so no key can be set for it.'));
      return false;
    }
    // A workspace's address beside the user's own on one origin gets a key of its own, leaving the user's as it was.
    const atPath = this.elsewhereOnUserOrigin(baseUrl, from);
    const target = atPath ? placeOf(baseUrl)! : originOf(baseUrl)!;
    const value = key ?? (await this.prompts.inputKey(target, from));
    if (value === undefined || value.trim() === '') return false;
    await this.store(value, baseUrl, atPath);
    this.prompts.info(vscode.l10n.t('Task Planner: API key for {0} stored in secret storage. It is sent to {0} only.', target));
    return true;
  }

  /**
   * Stores `key` (trimmed) for `baseUrl`'s origin (for its address, `placeOf`, when `atPath`) without a word to the user
   * ("Set up a model" reports for itself).
   */
  async store(key: string, baseUrl: string, atPath = false): Promise<void> {
    const origin = originOf(baseUrl);
    if (origin === undefined) throw new Error(vscode.l10n.t('taskPlanner.llm.baseUrl is not a URL, so no key can be set for it.'));
    await this.secrets.store(keysSecret, JSON.stringify({ ...(await this.keys()), [atPath ? placeOf(baseUrl)! : origin]: key.trim() }));
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

  /** The stored keys by origin; a key from before keys were bound is bound to the user's own base URL's origin. */
  private async keys(): Promise<Record<string, string>> {
    const keys = parseKeys(await this.secrets.get(keysSecret));
    const legacy = (await this.secrets.get(legacySecret))?.trim();
    if (legacy) {
      const origin = originOf(this.userBaseUrl()) ?? 'https://api.openai.com';
      const bound = { [origin]: legacy, ...keys };
      await this.secrets.store(keysSecret, JSON.stringify(bound));
      await this.secrets.delete(legacySecret);
      return bound;
    }
    return keys;
  }
}

function parseKeys(text: string | undefined): Record<string, string> {
  if (text === undefined) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== ''));
  } catch {
    return {};
  }
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
