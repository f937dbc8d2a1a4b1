import * as vscode from 'vscode';
import type { LlmMessage, LlmToolDefinition } from '../core/llm/llmTypes';
import { isLocalBaseUrl } from '../core/llm/selectProvider';
import { errorMessage } from '../shared/errorMessage';
import { originOf, type ApiKeyStore } from './apiKeyStore';
import { openAiClientFor } from './llmProvider';
import { loadRuntime } from './loadRuntime';
import { readSettings, unknownContextTokens, type TaskPlannerSettings } from './settings';
import { ownChatModelVendor } from './vscodeLmClient';

/** The longest reply announced. */
const maxOutputTokens = 4_096;

/** The parts of VS Code's chat provider API (stable since 1.104) this file uses: the declared API (1.100) lacks them. */
interface ChatModelInformation {
  id: string;
  name: string;
  family: string;
  version: string;
  detail?: string;
  tooltip?: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  capabilities: { toolCalling?: boolean; imageInput?: boolean };
  isUserSelectable?: boolean;
}
interface ChatRequestMessage {
  role: vscode.LanguageModelChatMessageRole;
  content: readonly unknown[];
}
interface ChatProvider {
  onDidChangeLanguageModelChatInformation?: vscode.Event<void>;
  provideLanguageModelChatInformation(options: { silent: boolean }, token: vscode.CancellationToken): Promise<ChatModelInformation[]>;
  provideLanguageModelChatResponse(
    model: ChatModelInformation,
    messages: readonly ChatRequestMessage[],
    options: { tools?: readonly { name: string; description: string; inputSchema?: object }[] },
    progress: vscode.Progress<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart>,
    token: vscode.CancellationToken,
  ): Promise<void>;
  provideTokenCount(model: ChatModelInformation, text: string | ChatRequestMessage, token: vscode.CancellationToken): Promise<number>;
}
type ProviderApi = { registerLanguageModelChatProvider?(vendor: string, provider: ChatProvider): vscode.Disposable };

/**
 * Offers the configured OpenAI-compatible endpoint (`taskPlanner.llm.baseUrl` and `model`) to
 * VS Code as a chat model of the vendor `ownChatModelVendor` (`languageModelChatProviders` in
 * package.json), so the Chat view, and `@planner` in it, works without Copilot. Offered while
 * Task Planner would use that endpoint itself (provider `openai`, or `auto` with a key stored
 * for its address or a local address). Requests go through `openAiClientFor`: the key only
 * to the address it was entered for, never in a message or the log. Nothing to register in
 * a VS Code without the API (before 1.104).
 */
export function registerOpenAiChatProvider(keys: ApiKeyStore, keysChanged: vscode.Event<unknown>, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const api = vscode.lm as unknown as ProviderApi;
  if (typeof api.registerLanguageModelChatProvider !== 'function') return [];
  const changed = new vscode.EventEmitter<void>();
  const provider: ChatProvider = {
    onDidChangeLanguageModelChatInformation: changed.event,
    async provideLanguageModelChatInformation() {
      const settings = readSettings();
      return (await offered(settings, keys)) ? [modelInformation(settings)] : [];
    },
    async provideLanguageModelChatResponse(_model, messages, options, progress, token) {
      const llm = await openAiClientFor(readSettings(), keys);
      const abort = new AbortController();
      const subscription = token.onCancellationRequested(() => abort.abort(new vscode.CancellationError()));
      try {
        const tools: LlmToolDefinition[] = (options.tools ?? []).map((tool) => ({
          name: tool.name,
          description: tool.description,
          parameters: (tool.inputSchema as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} },
        }));
        const reply = await llm.chat({
          messages: messages.flatMap(toLlmMessages),
          ...(tools.length > 0 ? { tools } : {}),
          signal: abort.signal,
          stream: true,
          onDelta: (delta) => {
            if (delta.kind === 'text') progress.report(new vscode.LanguageModelTextPart(delta.text));
            // What was shown of the broken reply stays; the new attempt follows, marked.
            else if (delta.kind === 'retry') progress.report(new vscode.LanguageModelTextPart('\n\n(The reply broke off; retrying.)\n\n'));
          },
        });
        for (const call of reply.toolCalls) progress.report(new vscode.LanguageModelToolCallPart(call.id, call.name, parseInput(call.arguments)));
      } catch (error) {
        if (token.isCancellationRequested) throw new vscode.CancellationError();
        log.warn(`Task Planner's chat model: ${errorMessage(error)}`);
        throw error;
      } finally {
        subscription.dispose();
      }
    },
    provideTokenCount(_model, text) {
      const runtime = loadRuntime();
      return Promise.resolve(typeof text === 'string' ? runtime.countTokens(text) : runtime.countTokens(messageText(text)));
    },
  };
  return [
    changed,
    api.registerLanguageModelChatProvider(ownChatModelVendor, provider),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('taskPlanner.llm')) changed.fire();
    }),
    // A key stored or cleared changes whether the endpoint is offered.
    keysChanged(() => changed.fire()),
  ];
}

/** Whether Task Planner would use the configured endpoint itself (never asks, never sends a key). */
async function offered(settings: TaskPlannerSettings, keys: ApiKeyStore): Promise<boolean> {
  if (originOf(settings.baseUrl) === undefined || settings.model === '') return false;
  if (settings.provider === 'openai') return true;
  return settings.provider === 'auto' && (isLocalBaseUrl(settings.baseUrl) || (await keys.storedFor(settings.baseUrl)) !== undefined);
}

function modelInformation(settings: TaskPlannerSettings): ChatModelInformation {
  const origin = originOf(settings.baseUrl) ?? settings.baseUrl;
  return {
    id: settings.model,
    name: settings.model,
    family: settings.model,
    version: '1',
    detail: vscode.l10n.t('Task Planner: {0}', origin),
    tooltip: vscode.l10n.t('The OpenAI-compatible model Task Planner is set up with ({0} at {1}).', settings.model, origin),
    maxInputTokens: settings.contextTokens > 0 ? settings.contextTokens : unknownContextTokens,
    maxOutputTokens,
    capabilities: { toolCalling: true, imageInput: false },
    isUserSelectable: true,
  };
}

/** One VS Code chat message as the core's messages: a tool result becomes a `tool` message of its own. */
function toLlmMessages(message: ChatRequestMessage): LlmMessage[] {
  let text = '';
  const calls: { id: string; name: string; arguments: string }[] = [];
  const results: LlmMessage[] = [];
  for (const part of message.content) {
    if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    else if (part instanceof vscode.LanguageModelToolCallPart) calls.push({ id: part.callId, name: part.name, arguments: JSON.stringify(part.input ?? {}) });
    else if (part instanceof vscode.LanguageModelToolResultPart) {
      results.push({
        role: 'tool',
        toolCallId: part.callId,
        content: part.content.map((inner) => (inner instanceof vscode.LanguageModelTextPart ? inner.value : '')).join(''),
      });
    }
  }
  if (message.role === vscode.LanguageModelChatMessageRole.Assistant) {
    return [{ role: 'assistant', content: text, ...(calls.length > 0 ? { toolCalls: calls } : {}) }];
  }
  return [...results, ...(text !== '' || results.length === 0 ? [{ role: 'user' as const, content: text }] : [])];
}

function messageText(message: ChatRequestMessage): string {
  return message.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

function parseInput(text: string): object {
  try {
    const value: unknown = JSON.parse(text === '' ? '{}' : text);
    return value !== null && typeof value === 'object' ? value : { value };
  } catch {
    return { raw: text };
  }
}
