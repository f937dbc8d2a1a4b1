import * as vscode from 'vscode';
import type { LlmClient } from '../core/ports';
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
  /** For people: "VS Code LM", "OpenAI-compatible (gpt-4o-mini at https://…)", "heuristic". */
  label: string;
}

/**
 * Applies `taskPlanner.llm.provider` (docs/architecture.md §5): `auto` takes a VS Code chat model when
 * there is one, else the OpenAI-compatible endpoint when a key is stored or the base URL
 * is local, else the heuristic planner. The `openai` package is loaded only here, on
 * first use, so activation stays cheap. Throws with a clear message when an explicitly
 * chosen provider cannot be used, or when `baseUrlProblem` refuses the base URL (a key
 * over plain http to another machine without taskPlanner.llm.allowInsecureKey).
 */
export async function resolveProvider(settings: TaskPlannerSettings, keys: ApiKeyStore): Promise<ResolvedProvider> {
  const apiKey = await keys.get();
  const vscodeLmAvailable =
    settings.provider === 'auto' || settings.provider === 'vscode' ? await vscodeChatModelAvailable(settings.vscodeModelFamily || undefined) : false;
  const choice = selectProvider({ setting: settings.provider, vscodeLmAvailable, ...(apiKey ? { apiKey } : {}), baseURL: settings.baseUrl });
  if (choice === 'vscode') {
    if (!vscodeLmAvailable) {
      throw new Error(
        vscode.l10n.t(
          'taskPlanner.llm.provider is "vscode" but VS Code offers no chat model: install and sign in to a language-model extension, or choose another provider.',
        ),
      );
    }
    return {
      choice,
      llm: createVscodeLmClient({ timeoutMs: settings.requestTimeoutMs, ...(settings.vscodeModelFamily ? { family: settings.vscodeModelFamily } : {}) }),
      label: vscode.l10n.t('VS Code language model'),
    };
  }
  if (choice === 'openai') {
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
    const llm = loadRuntime().createOpenAiClient({
      baseURL: settings.baseUrl,
      model: settings.model,
      timeoutMs: settings.requestTimeoutMs,
      allowInsecureKey: settings.allowInsecureKey,
      ...(apiKey ? { apiKey } : {}),
    });
    return { choice, llm, label: vscode.l10n.t('OpenAI-compatible ({0} at {1})', settings.model, safeOrigin(settings.baseUrl)) };
  }
  return { choice, llm: undefined, label: vscode.l10n.t('heuristic planner (no model)') };
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid base URL';
  }
}
