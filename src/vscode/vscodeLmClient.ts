import * as vscode from 'vscode';
import type { LlmClient } from '../core/servicePorts';
import { LlmError, type LlmErrorKind } from '../core/llm/llmError';
import { maxReplyToolCalls, type LlmChatRequest, type LlmChatResponse, type LlmMessage, type LlmToolCall } from '../core/llm/llmTypes';
import { textCaps } from '../core/text/capText';
import { countPromptTokens, countTokens } from '../core/llm/tokenCount';
import { errorMessage } from '../shared/errorMessage';

/**
 * The vendor of the chat model Task Planner itself offers VS Code (`languageModelChatProviders`):
 * the configured OpenAI-compatible endpoint, which Task Planner calls directly, so it is
 * never taken for a VS Code chat model here.
 */
export const ownChatModelVendor = 'task-planner';

/** Whether VS Code offers a chat model (matching `family` when given), ours left out; never throws. */
export async function vscodeChatModelAvailable(family?: string): Promise<boolean> {
  return (await pickModel(family)) !== undefined;
}

async function pickModel(family?: string): Promise<vscode.LanguageModelChat | undefined> {
  if (typeof vscode.lm?.selectChatModels !== 'function') return undefined;
  try {
    const models = await vscode.lm.selectChatModels(family ? { family } : {});
    return models.find((model) => model.vendor !== ownChatModelVendor);
  } catch {
    return undefined;
  }
}

/** Options of `createVscodeLmClient`. */
export interface VscodeLmClientOptions {
  /** Family of the model to use (first available when absent). */
  family?: string;
  /**
   * How long the model may stay silent, in ms (`taskPlanner.timeouts.llmRequestMs`): the
   * limit restarts with every part received, so a reply that keeps streaming is never cut
   * off. Absent or 0: no limit.
   */
  timeoutMs?: number;
  /** This model (the one picked in the chat) instead of the first of `family`. */
  model?: vscode.LanguageModelChat;
}

/**
 * The core's `LlmClient` port over the VS Code Language Model API (`vscode.lm`, e.g.
 * Copilot models): messages, tool definitions and tool calls are translated both ways,
 * replies are streamed, usage is counted with the model's own tokenizer. The API has no
 * JSON-schema mode, so structured requests are refused as `bad_request` and
 * `chatStructured` falls back to the schema in the prompt. The model is chosen on the
 * first call (so building the client costs nothing). A call ends as soon as its signal
 * aborts or the model stays silent longer than `timeoutMs`, whatever the model does: the
 * request's cancellation token is cancelled, but a provider may ignore it.
 */
export function createVscodeLmClient(options: VscodeLmClientOptions = {}): LlmClient {
  let chosen: Promise<vscode.LanguageModelChat | undefined> | undefined;
  const client: LlmClient & { model: string } = {
    model: options.model?.family ?? (options.family || 'vscode-lm'),
    async chat(request: LlmChatRequest): Promise<LlmChatResponse> {
      if (request.responseSchema) {
        throw new LlmError('The VS Code language model API has no structured-output mode; the schema goes into the prompt.', 'bad_request', undefined, 0);
      }
      request.signal.throwIfAborted();
      const model = await (chosen ??= options.model ? Promise.resolve(options.model) : pickModel(options.family));
      if (!model) {
        throw new LlmError(
          vscode.l10n.t(
            'No VS Code chat model is available (install and sign in to a language-model extension such as GitHub Copilot, or choose another provider in the taskPlanner.llm.provider setting).',
          ),
          'not_found',
          undefined,
          1,
        );
      }
      client.model = model.family || model.id;
      const cancel = new vscode.CancellationTokenSource();
      const silence = new SilenceLimit(options.timeoutMs ?? 0);
      let stop: (reason: unknown) => void = () => undefined;
      const stopped = new Promise<never>((_resolve, reject) => {
        stop = (reason) => {
          cancel.cancel();
          reject(reason);
        };
      });
      const onAbort = (): void => stop(request.signal.reason);
      request.signal.addEventListener('abort', onAbort, { once: true });
      // It may have aborted while the model was being chosen: the event has been dispatched by then.
      if (request.signal.aborted) onAbort();
      silence.start(() =>
        stop(
          new LlmError(
            vscode.l10n.t(
              'The VS Code model {0} sent nothing for {1} ms (taskPlanner.timeouts.llmRequestMs); the request was cancelled.',
              model.name,
              options.timeoutMs ?? 0,
            ),
            'timeout',
            undefined,
            1,
          ),
        ),
      );
      try {
        // A provider that ignores its cancellation token would hold the call forever: the race ends it anyway.
        return await Promise.race([exchange(model, request, cancel.token, silence), stopped]);
      } catch (error) {
        // A reply refused part-way (too long) is one the model need not go on writing.
        cancel.cancel();
        throw toLlmError(error, request.signal, model.name);
      } finally {
        silence.clear();
        request.signal.removeEventListener('abort', onAbort);
        cancel.dispose();
      }
    },
  };
  return client;
}

/** A timer that fires after `ms` without activity; `touch` restarts it, 0 never fires. */
class SilenceLimit {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private fire: () => void = () => undefined;

  constructor(private readonly ms: number) {}

  start(fire: () => void): void {
    this.fire = fire;
    this.touch();
  }

  touch(): void {
    if (this.ms <= 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(this.fire, this.ms);
  }

  clear(): void {
    clearTimeout(this.timer);
    this.fire = () => undefined;
  }
}

/** One request to `model` and its streamed reply; stops passing parts on once the request is cancelled. */
async function exchange(
  model: vscode.LanguageModelChat,
  request: LlmChatRequest,
  token: vscode.CancellationToken,
  silence: SilenceLimit,
): Promise<LlmChatResponse> {
  const messages = request.messages.map(toVscodeMessage);
  const response = await model.sendRequest(
    messages,
    {
      justification: vscode.l10n.t('Task Planner plans and runs the task you asked for.'),
      // vscode.lm has no mode that forbids tool calls: a request that may call none is sent without them.
      ...(request.tools?.length && request.toolChoice !== 'none'
        ? { tools: request.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters })) }
        : {}),
    },
    token,
  );
  let text = '';
  const toolCalls: LlmToolCall[] = [];
  let replyChars = 0;
  for await (const part of response.stream) {
    if (token.isCancellationRequested) break;
    silence.touch();
    if (part instanceof vscode.LanguageModelTextPart) {
      replyChars += part.value.length;
      refuseOversizedReply(model.name, replyChars, toolCalls.length);
      text += part.value;
      if (request.stream) request.onDelta?.({ kind: 'text', text: part.value });
    } else if (part instanceof vscode.LanguageModelToolCallPart) {
      const call = { id: part.callId, name: part.name, arguments: JSON.stringify(part.input ?? {}) };
      replyChars += call.name.length + call.arguments.length;
      refuseOversizedReply(model.name, replyChars, toolCalls.length + 1);
      if (request.stream) request.onDelta?.({ kind: 'tool_call', index: toolCalls.length, id: call.id, name: call.name, argumentsDelta: call.arguments });
      toolCalls.push(call);
    }
  }
  request.signal.throwIfAborted();
  if (token.isCancellationRequested) throw new vscode.CancellationError();
  // vscode.lm reports no usage for a response (neither tokens nor cached tokens, API 1.100), so both are counted here and nothing is known to be cached.
  // A count the model's tokenizer cannot give (it fails, or says what is no count) is made with the local one: a failing
  // `countTokens` made every call free against the token budget. The reply counted is its text and its tool calls: a
  // `write_file` of a whole file counted 0 tokens.
  const promptCounts = await Promise.all(messages.map((message) => model.countTokens(message).then(undefined, () => undefined)));
  const promptTokens = promptCounts.every(isCount)
    ? promptCounts.reduce((sum, count) => sum + count, 0)
    : countPromptTokens(request.messages, request.tools);
  const reply = text + toolCalls.map((call) => `${call.name}${call.arguments}`).join('');
  const replyCount = reply === '' ? 0 : await model.countTokens(reply).then(undefined, () => undefined);
  const completionTokens = isCount(replyCount) ? replyCount : countTokens(reply);
  return {
    text,
    toolCalls,
    usage: { promptTokens, completionTokens },
    usageReported: false,
    model: model.id,
    finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
  };
}

/**
 * Ends a reply past the bounds the OpenAI-compatible client holds a server to (`textCaps.modelReply` characters of text and
 * tool calls, `maxReplyToolCalls` calls), not retried: another extension's model streamed without end into the host's memory.
 */
function refuseOversizedReply(modelName: string, chars: number, calls: number): void {
  if (chars <= textCaps.modelReply && calls <= maxReplyToolCalls) return;
  const why =
    calls > maxReplyToolCalls
      ? vscode.l10n.t('the reply held more than {0} tool calls', maxReplyToolCalls)
      : vscode.l10n.t('the reply went past {0} characters', textCaps.modelReply);
  const message = vscode.l10n.t('Request to the VS Code model {0} failed: {1}, more than any answer Task Planner accepts.', modelName, why);
  throw new LlmError(message, 'other', undefined, 1);
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

function toVscodeMessage(message: LlmMessage): vscode.LanguageModelChatMessage {
  switch (message.role) {
    case 'system':
      // The API has no system role: instructions go first as a user message.
      return vscode.LanguageModelChatMessage.User(message.content);
    case 'user':
      return vscode.LanguageModelChatMessage.User(
        typeof message.content === 'string'
          ? message.content
          : message.content.map(
              (part) =>
                new vscode.LanguageModelTextPart(
                  part.type === 'text'
                    ? part.text
                    : `[an image was attached here (${part.url.startsWith('data:') ? 'inline data' : part.url}), but VS Code's chat models take text only, so it is not shown]`,
                ),
            ),
      );
    case 'assistant':
      return vscode.LanguageModelChatMessage.Assistant([
        ...(message.content ? [new vscode.LanguageModelTextPart(message.content)] : []),
        ...(message.toolCalls ?? []).map((call) => new vscode.LanguageModelToolCallPart(call.id, call.name, parseArguments(call.arguments))),
      ]);
    case 'tool':
      return vscode.LanguageModelChatMessage.User([
        new vscode.LanguageModelToolResultPart(message.toolCallId, [new vscode.LanguageModelTextPart(message.content)]),
      ]);
  }
}

function parseArguments(text: string): object {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? value : { value };
  } catch {
    return { raw: text };
  }
}

function toLlmError(error: unknown, signal: AbortSignal, modelName: string): LlmError {
  if (error instanceof LlmError) return error;
  if (signal.aborted || error instanceof vscode.CancellationError) {
    return new LlmError(vscode.l10n.t('Request to the VS Code model {0} was cancelled.', modelName), 'aborted', undefined, 1);
  }
  let kind: LlmErrorKind = 'other';
  if (error instanceof vscode.LanguageModelError) {
    kind =
      error.code === vscode.LanguageModelError.NoPermissions.name
        ? 'auth'
        : error.code === vscode.LanguageModelError.NotFound.name
          ? 'not_found'
          : error.code === vscode.LanguageModelError.Blocked.name
            ? 'rate_limited'
            : 'other';
  }
  return new LlmError(vscode.l10n.t('Request to the VS Code model {0} failed: {1}', modelName, errorMessage(error)), kind, undefined, 1);
}
