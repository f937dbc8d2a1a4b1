import * as vscode from 'vscode';
import type { LlmClient } from '../core/servicePorts';
import type { ModelRoles } from '../core/llm/modelRoles';
import { baseUrlProblem } from '../core/llm/baseUrlProblem';
import { isLocalBaseUrl, selectProvider, type ProviderChoice } from '../core/llm/selectProvider';
import type { ApiKeyStore } from './apiKeyStore';
import { loadRuntime } from './loadRuntime';
import type { TaskPlannerSettings } from './settings';
import { createVscodeLmClient, vscodeChatModelAvailable } from './vscodeLmClient';

/** The model a plan or run uses; `llm` is absent for the heuristic planner. */
export interface ResolvedProvider {
  choice: ProviderChoice;
  llm: LlmClient | undefined;
  /** The model of each role (`taskPlanner.llm.models.*`): an OpenAI-compatible endpoint's only; a VS Code chat model is the one picked. */
  models: ModelRoles;
  /** For people, after "with": "the VS Code language model", "gpt-4o-mini at https://…", "the heuristic planner (no model)". */
  label: string;
}

/**
 * Applies `taskPlanner.llm.provider` (docs/architecture.md §5): `auto` takes a VS Code chat model when
 * there is one, else the OpenAI-compatible endpoint when a key is stored or the base URL
 * is local, else the heuristic planner. The `openai` package is loaded only here, on
 * first use, so activation stays cheap. Throws with a clear message when an explicitly
 * chosen provider cannot be used, or when `baseUrlProblem` refuses the base URL (a key
 * over plain http to another machine without taskPlanner.llm.allowInsecureKey). The API
 * key goes only to the origin it was entered for, or where the user allowed it
 * (`ApiKeyStore.keyFor`), and throws when it was withheld, saying how to set one for that
 * address; a workspace that sets the base URL is announced once.
 */
export async function resolveProvider(settings: TaskPlannerSettings, keys: ApiKeyStore): Promise<ResolvedProvider> {
  const hasKey = await keys.has();
  const vscodeLmAvailable =
    settings.provider === 'auto' || settings.provider === 'vscode' ? await vscodeChatModelAvailable(settings.vscodeModelFamily || undefined) : false;
  // `auto` only needs to know whether a key is stored; which key may go where is decided below.
  const choice = selectProvider({ setting: settings.provider, vscodeLmAvailable, ...(hasKey ? { apiKey: 'stored' } : {}), baseURL: settings.baseUrl });
  if (choice === 'vscode') {
    if (!vscodeLmAvailable) {
      throw new Error(
        vscode.l10n.t(
          'taskPlanner.llm.provider is "vscode" but VS Code offers no chat model: install and sign in to a language-model extension, or choose another provider.',
        ),
      );
    }
    // The user chose an endpoint of their own; a workspace's provider takes requests elsewhere: said, as its base URL is.
    if (settings.userProvider === 'openai') await keys.announceWorkspaceProvider(settings.providerFrom, settingsFileOf(settings.providerFrom));
    return {
      choice,
      llm: createVscodeLmClient({ timeoutMs: settings.requestTimeoutMs, ...(settings.vscodeModelFamily ? { family: settings.vscodeModelFamily } : {}) }),
      models: {},
      label: vscode.l10n.t('the VS Code language model'),
    };
  }
  if (choice === 'openai') {
    const llm = await openAiClientFor(settings, keys);
    return { choice, llm, models: settings.models, label: vscode.l10n.t('{0} at {1}', settings.model, safeOrigin(settings.baseUrl)) };
  }
  return { choice, llm: undefined, models: {}, label: vscode.l10n.t('the heuristic planner (no model)') };
}

/**
 * The client of the configured OpenAI-compatible endpoint (`taskPlanner.llm.baseUrl` and
 * `model`), with the key `ApiKeyStore.keyFor` lets go to that address; throws, saying what
 * to do, when the key was withheld, none is stored for a remote address, or `baseUrlProblem`
 * refuses the address.
 */
export async function openAiClientFor(settings: TaskPlannerSettings, keys: ApiKeyStore): Promise<LlmClient> {
  await keys.announceWorkspaceBaseUrl(settings.baseUrl, settings.baseUrlFrom, settingsFileOf(settings.baseUrlFrom));
  const forUrl = await keys.keyFor(settings.baseUrl, settings.baseUrlFrom, isLocalBaseUrl(settings.baseUrl));
  if ('withheld' in forUrl) {
    throw new Error(
      vscode.l10n.t(
        'Task Planner did not send your API key to {0}: it was entered for {1}. Run "Task Planner: Set API key" to enter a key for {0}, or remove taskPlanner.llm.baseUrl from the settings that point there.',
        forUrl.withheld.target,
        forUrl.withheld.enteredFor,
      ),
    );
  }
  const apiKey = 'key' in forUrl ? forUrl.key : undefined;
  if (!apiKey && !isLocalBaseUrl(settings.baseUrl)) {
    throw new Error(
      vscode.l10n.t(
        'taskPlanner.llm.provider is "openai" but no API key is stored: run "Task Planner: Set API key", or point taskPlanner.llm.baseUrl at a local server.',
      ),
    );
  }
  const problem = baseUrlProblem(settings.baseUrl, {
    sendsKey: Boolean(apiKey),
    allowInsecureKey: settings.allowInsecureKey,
    allowHint: vscode.l10n.t('turn on taskPlanner.llm.allowInsecureKey in your user settings'),
  });
  if (problem !== undefined) throw new Error(`taskPlanner.llm.baseUrl: ${problem}`);
  return loadRuntime().createOpenAiClient({
    baseURL: settings.baseUrl,
    model: settings.model,
    timeoutMs: settings.requestTimeoutMs,
    allowInsecureKey: settings.allowInsecureKey,
    ...(apiKey ? { apiKey } : {}),
  });
}

/** The file that holds the workspace's value of a setting, as the user knows it. */
function settingsFileOf(from: TaskPlannerSettings['baseUrlFrom']): string {
  const file = vscode.workspace.workspaceFile;
  if (from === 'workspace' && file !== undefined && file.scheme === 'file') return file.fsPath;
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json').fsPath : '.vscode/settings.json';
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid base URL';
  }
}
