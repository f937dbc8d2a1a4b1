import * as vscode from 'vscode';

const secretKey = 'taskPlanner.openAiApiKey';

/**
 * The OpenAI-compatible API key in VS Code's SecretStorage: never in settings, logs,
 * traces or error messages. The commands only say whether a key is stored.
 */
export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  /** The stored key, `undefined` when none. */
  async get(): Promise<string | undefined> {
    const key = await this.secrets.get(secretKey);
    return key === undefined || key.trim() === '' ? undefined : key;
  }

  /** "Task Planner: Set API key": a password input box; `key` skips it (tests). */
  async set(key?: string): Promise<boolean> {
    const value =
      key ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Task Planner: Set API key'),
        prompt: vscode.l10n.t("API key of the OpenAI-compatible provider (stored in VS Code's secret storage, never in settings)."),
        password: true,
        ignoreFocusOut: true,
        validateInput: (text) => (text.trim() === '' ? vscode.l10n.t('Enter the key, or press Escape to cancel.') : undefined),
      }));
    if (value === undefined || value.trim() === '') return false;
    await this.store(value);
    void vscode.window.showInformationMessage(vscode.l10n.t('Task Planner: API key stored in secret storage.'));
    return true;
  }

  /** Stores `key` (trimmed) without a word to the user ("Set up a model" reports for itself). */
  async store(key: string): Promise<void> {
    await this.secrets.store(secretKey, key.trim());
  }

  /** "Task Planner: Clear API key". */
  async clear(): Promise<void> {
    await this.secrets.delete(secretKey);
    void vscode.window.showInformationMessage(vscode.l10n.t('Task Planner: API key removed from secret storage.'));
  }
}
