import type { LlmChatRequest, LlmChatResponse } from '../../src/core/llm/llmTypes';
import type { LlmClient } from '../../src/core/servicePorts';

/** What the fake answers one call with: a text reply, or a full response. */
export type ScriptedReply = string | Partial<LlmChatResponse> | ((request: LlmChatRequest) => string | Partial<LlmChatResponse>);

/** An in-memory `LlmClient`: answers from `replies` in order (the last one repeats) and records every request. */
export interface ScriptedLlm extends LlmClient {
  readonly requests: LlmChatRequest[];
}

/**
 * The in-memory fake of the `LlmClient` port, for tests that need no HTTP (the OpenAI
 * protocol itself is tested against `fakeOpenAiServer`). Each reply reports
 * `tokensPerCall` prompt and completion tokens unless it says otherwise.
 */
export function scriptedLlm(replies: ScriptedReply[], options: { model?: string; tokensPerCall?: number; costPerCall?: number } = {}): ScriptedLlm {
  if (replies.length === 0) throw new Error('scriptedLlm needs at least one reply');
  const requests: LlmChatRequest[] = [];
  return {
    model: options.model ?? 'scripted-model',
    requests,
    // Its calls cost what `costPerCall` says: known when it says, as a priced model's.
    costKnown: () => options.costPerCall !== undefined,
    async chat(request) {
      if (request.signal.aborted) throw request.signal.reason;
      const script = replies[Math.min(requests.length, replies.length - 1)]!;
      requests.push(request);
      const reply = typeof script === 'function' ? script(request) : script;
      const partial = typeof reply === 'string' ? { text: reply } : reply;
      const tokens = options.tokensPerCall ?? 10;
      return {
        text: '',
        toolCalls: [],
        usage: { promptTokens: tokens, completionTokens: tokens },
        usageReported: true,
        model: options.model ?? 'scripted-model',
        ...(options.costPerCall === undefined ? {} : { costUsd: options.costPerCall }),
        ...partial,
      };
    },
  };
}
