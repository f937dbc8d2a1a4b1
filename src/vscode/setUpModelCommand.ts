import * as vscode from 'vscode';
import { listServerModels, type ConnectionTest, type ModelChoice } from '../core/llm/modelSetup';
import type { ApiKeyStore } from './apiKeyStore';
import { loadRuntime } from './loadRuntime';
import { runModelSetup, type ModelSetupOutcome, type ModelSetupUi } from './modelSetupFlow';
import { readSettings } from './settings';
import { userValue } from './settingValues';
import { createVscodeLmClient, ownChatModelVendor } from './vscodeLmClient';
import { showInformation, showWarning, withProgress } from './notifications';

/** The settings "Set up a model" writes, all in the user's settings. */
const writtenKeys = ['llm.provider', 'llm.baseUrl', 'llm.model', 'llm.vscodeModelFamily'] as const;

/**
 * "Task Planner: Set up a model": the flow of `runModelSetup` with QuickPicks and input
 * boxes (or `ui`, for tests), settings written to the user scope, the key to secret
 * storage, and the connection test's outcome shown in words.
 */
export async function setUpModel(
  keys: ApiKeyStore,
  log: vscode.LogOutputChannel,
  ui: ModelSetupUi = quickInputUi,
  toolSectionTokens: () => number = () => 0,
): Promise<ModelSetupOutcome | undefined> {
  const settings = readSettings();
  const outcome = await runModelSetup({
    ui,
    // The user's own choice, never a workspace's: what is offered here is saved as the user's, and the key typed goes to it
    // (an outside attack: a repository's taskPlanner.llm.baseUrl came pre-filled, got the key, and became the user's own).
    current: ownModelChoice(),
    hasKey: async (baseUrl) => (await keys.storedFor(baseUrl)) !== undefined,
    vscodeModels,
    // A stored key goes only to the address it was entered for.
    listModels: async (baseUrl, typedKey) => {
      const apiKey = typedKey ?? (await keys.storedFor(baseUrl));
      return listServerModels(baseUrl, apiKey ? { apiKey } : {});
    },
    save: async (choice, apiKey) => {
      await saveChoice(choice);
      if (apiKey && choice.provider === 'openai') await keys.store(apiKey, choice.baseUrl);
    },
    test: (choice) => testConnection(choice, keys, settings.requestTimeoutMs),
    contextFit: (choice) => contextFit(choice, toolSectionTokens()),
  });
  if (!outcome) return undefined;
  const shadowed = shadowingWorkspaceSettings();
  const message =
    shadowed.length > 0
      ? vscode.l10n.t(
          "{0} Note: this workspace's own settings set {1}, which win over yours; remove them there to use this model here.",
          outcome.message,
          shadowed.join(', '),
        )
      : outcome.message;
  log.info(`Set up a model: ${message}`);
  if (outcome.ok) {
    const planTask = vscode.l10n.t('Plan task');
    // A server that does not say its context size: the setting the message names is one click away (a newcomer looked for it).
    const setContext = outcome.choice.provider === 'openai' && readSettings().contextTokens <= 0 ? [vscode.l10n.t('Set the context size')] : [];
    void showInformation(vscode.l10n.t('Task Planner: {0}', message), planTask, ...setContext).then((choice) => {
      if (choice === planTask) return vscode.commands.executeCommand('taskPlanner.planTask', { fromNotification: true });
      if (choice !== undefined) return vscode.commands.executeCommand('workbench.action.openSettings', 'taskPlanner.llm.contextTokens');
      return undefined;
    });
  } else {
    void showWarning(vscode.l10n.t('Task Planner: {0}', message), vscode.l10n.t('Set up a model'))
      .then((choice) => choice && vscode.commands.executeCommand('taskPlanner.setUpModel'));
  }
  return { ...outcome, message };
}

/** The model address and name in the user's own settings (or the defaults), whatever a workspace sets. */
function ownModelChoice(): { baseUrl: string; model: string } {
  const config = vscode.workspace.getConfiguration('taskPlanner');
  const values = { inspect: (key: string) => config.inspect(key), trusted: vscode.workspace.isTrusted };
  const text = (key: string): string => {
    const value = userValue(values, key);
    return typeof value === 'string' ? value : '';
  };
  return { baseUrl: text('llm.baseUrl'), model: text('llm.model') };
}

async function vscodeModels(): Promise<{ family: string; name: string }[]> {
  if (typeof vscode.lm?.selectChatModels !== 'function') return [];
  try {
    const models = await vscode.lm.selectChatModels({});
    const seen = new Set<string>();
    // Ours is the OpenAI-compatible endpoint this flow sets up, not a VS Code model to choose.
    return models
      .filter((model) => model.vendor !== ownChatModelVendor && !seen.has(model.family) && seen.add(model.family))
      .map((model) => ({ family: model.family, name: model.name }));
  } catch {
    return [];
  }
}

async function saveChoice(choice: ModelChoice): Promise<void> {
  const config = vscode.workspace.getConfiguration('taskPlanner');
  const global = vscode.ConfigurationTarget.Global;
  await config.update('llm.provider', choice.provider, global);
  if (choice.provider === 'vscode') await config.update('llm.vscodeModelFamily', choice.family === '' ? undefined : choice.family, global);
  if (choice.provider === 'openai') {
    await config.update('llm.baseUrl', choice.baseUrl, global);
    await config.update('llm.model', choice.model, global);
  }
}

/**
 * Whether a step's prompt (the offered tools and `promptAllowanceTokens` for the rest) fits
 * the chosen model's context: a VS Code model's `maxInputTokens`, else
 * `taskPlanner.llm.contextTokens`; unknown says so and how to have it checked.
 */
async function contextFit(choice: ModelChoice, toolTokens: number): Promise<string | undefined> {
  if (choice.provider === 'heuristic') return undefined;
  let context: number;
  let name = choice.provider === 'openai' ? choice.model : choice.family;
  if (choice.provider === 'vscode') {
    const models =
      typeof vscode.lm?.selectChatModels === 'function'
        ? await vscode.lm.selectChatModels(choice.family ? { family: choice.family } : {}).then(undefined, () => [])
        : [];
    const model = models.find((entry) => entry.vendor !== ownChatModelVendor);
    if (!model) return undefined;
    context = model.maxInputTokens;
    name = model.name;
  } else {
    context = readSettings().contextTokens;
  }
  if (context <= 0) {
    return vscode.l10n.t(
      "The server does not say how many tokens {0} takes, so prompts were not checked against it (a step's prompt needs about {1} tokens): set taskPlanner.llm.contextTokens to have them checked.",
      name,
      tokenCount(loadRuntime().promptFit(0, toolTokens).needed),
    );
  }
  const fit = loadRuntime().promptFit(context, toolTokens);
  return fit.fits
    ? undefined
    : vscode.l10n.t(
        "Warning: a step's prompt needs about {0} tokens ({1} of them for the tools offered), more than the {2} {3} takes: offer fewer tools (taskPlanner.tools.extensionTools) or choose a model with a larger context.",
        tokenCount(fit.needed),
        tokenCount(toolTokens),
        tokenCount(context),
        name,
      );
}

/** The settings this workspace (or its folder) sets itself: they win over what was just written. */
function shadowingWorkspaceSettings(): string[] {
  const config = vscode.workspace.getConfiguration('taskPlanner');
  return writtenKeys.filter((key) => {
    const inspected = config.inspect(key);
    return inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined;
  }).map((key) => `taskPlanner.${key}`);
}

/** One tiny request (a few tokens, one attempt) to the chosen model. */
async function testConnection(choice: ModelChoice, keys: ApiKeyStore, requestTimeoutMs: number): Promise<ConnectionTest> {
  if (choice.provider === 'heuristic') return { ok: true, model: 'heuristic' };
  const timeoutMs = Math.min(requestTimeoutMs, 60_000);
  const apiKey = choice.provider === 'openai' ? await keys.storedFor(choice.baseUrl) : undefined;
  const llm =
    choice.provider === 'vscode'
      ? createVscodeLmClient({ timeoutMs, ...(choice.family ? { family: choice.family } : {}) })
      : loadRuntime().createOpenAiClient({ baseURL: choice.baseUrl, model: choice.model, timeoutMs, maxAttempts: 1, ...(apiKey ? { apiKey } : {}) });
  try {
    const reply = await withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Task Planner: testing the model…') },
      () => llm.chat({ messages: [{ role: 'user', content: 'Reply with the single word OK.' }], maxTokens: 8, signal: AbortSignal.timeout(timeoutMs + 1_000) }),
    );
    return { ok: true, model: reply.model || llm.model };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The flow's questions as QuickPicks and input boxes that stay open when focus moves. */
const quickInputUi: ModelSetupUi = {
  async pick(title, placeholder, items) {
    const picked = await vscode.window.showQuickPick(
      items.map((item) => ({ label: item.label, description: item.description, detail: item.detail, item })),
      { title, placeHolder: placeholder, ignoreFocusOut: true, matchOnDescription: true },
    );
    return picked?.item.value;
  },
  input(title, options) {
    return Promise.resolve(
      vscode.window.showInputBox({
        title,
        prompt: options.prompt,
        value: options.value,
        password: options.password,
        ignoreFocusOut: true,
        validateInput: options.validate,
      }),
    );
  },
};

/** A count of tokens as the summaries write one: "8,401" (a newcomer read "8401" without a unit). */
function tokenCount(count: number): string {
  return count.toLocaleString('en-US');
}
