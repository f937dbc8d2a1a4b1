import type { LlmToolCall } from '../llm/llmTypes';

/** How many identical tool calls (same name, same arguments) stop an agent. */
export const repeatedCallLimit = 3;

/**
 * Watches an agent's tool calls for a loop: the same tool with the same arguments
 * (compared as canonical JSON, so key order and spacing do not matter) `repeatedCallLimit`
 * times in one attempt. `check` returns a diagnosis for the call that reaches the limit
 * (that call is then not executed), else `undefined`; `remember` keeps a call's result
 * preview for the diagnosis.
 */
export class LoopGuard {
  private readonly counts = new Map<string, number>();
  private readonly previews = new Map<string, string>();

  check(call: LlmToolCall): string | undefined {
    const key = callKey(call);
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    if (count < repeatedCallLimit) return undefined;
    const preview = this.previews.get(key);
    return (
      `Loop guard: the agent called ${call.name} with the same arguments ${count} times (${shorten(canonicalArguments(call.arguments), 200)}) ` +
      `and was stopped, since repeating the call cannot produce anything new.${preview === undefined ? '' : ` The call kept returning: ${shorten(preview, 300)}`} ` +
      'Give the step a different approach or more specific instructions.'
    );
  }

  remember(call: LlmToolCall, resultText: string): void {
    this.previews.set(callKey(call), resultText);
  }
}

function callKey(call: LlmToolCall): string {
  return `${call.name}\u0000${canonicalArguments(call.arguments)}`;
}

/** The arguments as JSON with sorted keys, or the trimmed raw text when it is not JSON. */
export function canonicalArguments(raw: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(raw) as unknown));
  } catch {
    return raw.trim();
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]));
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
