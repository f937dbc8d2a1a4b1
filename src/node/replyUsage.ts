import type { LlmChatRequest, LlmSpent, LlmToolCall, LlmUsage } from '../core/llm/llmTypes';
import { countPromptTokens, countTokens } from '../core/llm/tokenCount';

/**
 * Characters per token that no tokenizer in use reaches over a whole prompt or reply (English text runs at about 4,
 * code at 3, and a long run of one character at most 8 to 16 for o200k_base): a count reported below one token per 32
 * characters is not believed, and the floor is counted instead.
 */
export const maxCharsPerToken = 32;

/** Largest token count believed from a server (about 9e15): a larger one is no count. */
const maxReportedTokens = Number.MAX_SAFE_INTEGER;

/** The counts an OpenAI-compatible reply's `usage` object reports, each only when it is one (see `reportedCount`). */
export interface ReportedUsage {
  promptTokens?: number;
  completionTokens?: number;
  cachedPromptTokens?: number;
}

/**
 * The token counts of a reply's `usage` object (`prompt_tokens`, `completion_tokens`,
 * `prompt_tokens_details.cached_tokens`). A field that is missing, negative, fractional, not a number or past
 * 2^53 is left out, so the caller counts it itself: a server's word lowers no budget.
 */
export function reportedUsage(raw: unknown): ReportedUsage {
  if (typeof raw !== 'object' || raw === null) return {};
  const fields = raw as Record<string, unknown>;
  const details = fields['prompt_tokens_details'];
  const prompt = reportedCount(fields['prompt_tokens']);
  const completion = reportedCount(fields['completion_tokens']);
  const cached = typeof details === 'object' && details !== null ? reportedCount((details as Record<string, unknown>)['cached_tokens']) : undefined;
  return {
    ...(prompt === undefined ? {} : { promptTokens: prompt }),
    ...(completion === undefined ? {} : { completionTokens: completion }),
    ...(cached === undefined ? {} : { cachedPromptTokens: cached }),
  };
}

function reportedCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= maxReportedTokens ? value : undefined;
}

/** What one attempt sent and received, to count. */
export interface AttemptText {
  request: Pick<LlmChatRequest, 'messages' | 'tools'>;
  text: string;
  toolCalls: readonly LlmToolCall[];
  /** Characters of reasoning received beside the answer (not kept): counted at 4 a token when no count was reported, else in the floor. */
  reasoningChars?: number;
}

/**
 * The usage of one attempt: each of the reported counts when there is one, never below one token per
 * `maxCharsPerToken` characters of what was sent (text only: an image is priced by the server) or received; a count
 * the server did not report is counted with the local tokenizer. The cached prompt tokens are kept only when they are
 * more than 0 and at most the reported prompt tokens. `reported` is whether both counts came from the server.
 */
export function attemptUsage(attempt: AttemptText, reported: ReportedUsage | undefined): { usage: LlmUsage; reported: boolean } {
  const { request, text, toolCalls } = attempt;
  const reasoningChars = attempt.reasoningChars ?? 0;
  const promptTokens =
    reported?.promptTokens === undefined
      ? countPromptTokens(request.messages, request.tools)
      : Math.max(reported.promptTokens, floorTokens(promptChars(request)));
  const replyChars = reasoningChars + text.length + toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  const completionTokens =
    reported?.completionTokens === undefined
      ? Math.ceil(reasoningChars / 4) + countTokens(text) + toolCalls.reduce((sum, call) => sum + countTokens(call.name) + countTokens(call.arguments), 0)
      : Math.max(reported.completionTokens, floorTokens(replyChars));
  const cached = reported?.cachedPromptTokens;
  const cachedValid = cached !== undefined && cached > 0 && reported?.promptTokens !== undefined && cached <= reported.promptTokens;
  return {
    usage: { promptTokens, completionTokens, ...(cachedValid ? { cachedPromptTokens: cached } : {}) },
    reported: reported?.promptTokens !== undefined && reported.completionTokens !== undefined,
  };
}

function floorTokens(chars: number): number {
  return Math.floor(chars / maxCharsPerToken);
}

/** Characters of text a request sends: its messages' text and tool calls, and its tools' names, descriptions and schemas. */
function promptChars(request: AttemptText['request']): number {
  let chars = 0;
  for (const message of request.messages) {
    if (typeof message.content === 'string') chars += message.content.length;
    else for (const part of message.content) chars += part.type === 'text' ? part.text.length : 0;
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) chars += call.name.length + call.arguments.length;
  }
  for (const tool of request.tools ?? []) chars += tool.name.length + tool.description.length + JSON.stringify(tool.parameters).length;
  return chars;
}

/** Characters of the reasoning a message or delta carries beside its answer, in the fields servers use for it (DeepSeek, vLLM, OpenRouter). */
export function reasoningLength(part: object | undefined): number {
  const fields = (part ?? {}) as Record<string, unknown>;
  let chars = 0;
  for (const name of ['reasoning_content', 'reasoning']) {
    const value = fields[name];
    if (typeof value === 'string') chars += value.length;
  }
  return chars;
}

/** `spent` and `more` together; either may be absent. */
export function addSpent(spent: LlmSpent | undefined, more: LlmSpent | undefined): LlmSpent | undefined {
  if (spent === undefined || more === undefined) return spent ?? more;
  const cost = spent.costUsd === undefined || more.costUsd === undefined ? undefined : spent.costUsd + more.costUsd;
  return {
    requests: spent.requests + more.requests,
    usage: {
      promptTokens: spent.usage.promptTokens + more.usage.promptTokens,
      completionTokens: spent.usage.completionTokens + more.usage.completionTokens,
    },
    ...(cost === undefined ? {} : { costUsd: cost }),
  };
}
