import type { LlmChatRequest } from '../../src/core/llm/llmTypes';

/**
 * A request as a provider's prompt cache sees it, in the order it is sent: the tool
 * definitions, then each message's role and text (images as their URL). Two requests share
 * a cached prefix exactly as far as these texts share their start.
 */
export function requestText(request: Pick<LlmChatRequest, 'messages' | 'tools'>): string {
  const tools = request.tools === undefined ? '' : JSON.stringify(request.tools);
  const messages = request.messages.map((message) => {
    const content = typeof message.content === 'string' ? message.content : message.content.map((part) => (part.type === 'text' ? part.text : part.url)).join('\n');
    const calls = message.role === 'assistant' && message.toolCalls ? JSON.stringify(message.toolCalls) : '';
    return `<${message.role}>\n${content}${calls}`;
  });
  return `${tools}\n${messages.join('\n')}`;
}

/** Characters `a` and `b` share from their start. */
export function commonPrefixLength(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}
