import { capText, capValue, textCaps } from '../text/capText';

/** What an MCP tool call answered, as the protocol's `CallToolResult` (fields unchecked: a server may send anything). */
export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
}

/** An MCP tool's result as a step keeps it. */
export interface McpStepOutput {
  /** The text parts, then one line per image, audio clip or resource. */
  text: string;
  /** The server's structured result, when it sent one. */
  structuredContent?: unknown;
  /** Images and audio: their kind, type and size, not their bytes. */
  media?: { type: string; mimeType: string; bytes: number }[];
  /** Resources the result links to or embeds (embedded text is capped). */
  resources?: { uri: string; name?: string; mimeType?: string; text?: string }[];
}

/** Most characters of a result's text; the whole output is also capped at `textCaps.result` characters of JSON. */
export const maxMcpResultTextChars = 200_000;
/** Most levels of arrays and objects kept of a result's structured content; deeper ones are replaced by a marker. */
export const maxMcpStructuredDepth = 64;
const maxParts = 1000;

/**
 * A `CallToolResult` as a step output: text parts joined, images and audio described by
 * type and size (base64 data is not kept), resource links and embedded resources by URI
 * (embedded text capped), `structuredContent` as sent down to `maxMcpStructuredDepth` levels
 * (a server's 100 000 nested arrays would make every later `JSON.stringify` of the step's
 * result throw); the whole bounded by `textCaps.result`, its JSON always writable.
 * Anything malformed is skipped, never thrown on.
 */
export function mcpStepOutput(result: McpCallResult): McpStepOutput {
  const parts = Array.isArray(result.content) ? (result.content as unknown[]).slice(0, maxParts) : [];
  const texts: string[] = [];
  const media: NonNullable<McpStepOutput['media']> = [];
  const resources: NonNullable<McpStepOutput['resources']> = [];
  let textLength = 0;
  const addText = (text: string): void => {
    if (textLength > maxMcpResultTextChars) return;
    const kept = capText(text, maxMcpResultTextChars - textLength + 1);
    texts.push(kept);
    textLength += kept.length;
  };
  for (const part of parts) {
    if (typeof part !== 'object' || part === null) continue;
    const item = part as Record<string, unknown>;
    if (item.type === 'text' && typeof item.text === 'string') addText(item.text);
    else if ((item.type === 'image' || item.type === 'audio') && typeof item.data === 'string') {
      const entry = { type: item.type, mimeType: stringOr(item.mimeType, 'unknown'), bytes: base64Bytes(item.data) };
      media.push(entry);
      addText(`[${entry.type} ${capText(entry.mimeType, 100)}, ${entry.bytes} bytes]`);
    } else if (item.type === 'resource_link' && typeof item.uri === 'string') {
      const link = { uri: capText(item.uri, 2000), ...optional('name', item.name), ...optional('mimeType', item.mimeType) };
      resources.push(link);
      addText(`[resource ${link.uri}]`);
    } else if (item.type === 'resource' && typeof item.resource === 'object' && item.resource !== null) {
      const resource = item.resource as Record<string, unknown>;
      if (typeof resource.uri !== 'string') continue;
      const text = typeof resource.text === 'string' ? capText(resource.text, maxMcpResultTextChars) : undefined;
      const blob = typeof resource.blob === 'string' ? ` (${base64Bytes(resource.blob)} bytes)` : '';
      resources.push({ uri: capText(resource.uri, 2000), ...optional('mimeType', resource.mimeType), ...(text !== undefined ? { text } : {}) });
      addText(`[resource ${capText(resource.uri, 2000)}${blob}]${text !== undefined ? `\n${text}` : ''}`);
    }
  }
  const output: McpStepOutput = {
    text: texts.join('\n'),
    ...(result.structuredContent !== undefined ? { structuredContent: withinDepth(result.structuredContent, maxMcpStructuredDepth) } : {}),
    ...(media.length > 0 ? { media } : {}),
    ...(resources.length > 0 ? { resources } : {}),
  };
  return capValue(output, textCaps.result) as McpStepOutput;
}

/** The text of a step output made by `mcpStepOutput` (any other value: its JSON). */
export function mcpResultText(output: unknown): string {
  if (typeof output === 'object' && output !== null && typeof (output as { text?: unknown }).text === 'string') return (output as { text: string }).text;
  try {
    return JSON.stringify(output) ?? '';
  } catch {
    return '';
  }
}

/** `value` with every array or object below `levels` more levels replaced by a marker string; anything else as it is. */
function withinDepth(value: unknown, levels: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (levels === 0) return `… (nested deeper than ${maxMcpStructuredDepth} levels, cut)`;
  if (Array.isArray(value)) return value.map((item: unknown) => withinDepth(item, levels - 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withinDepth(item, levels - 1)]));
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function optional<Key extends string>(key: Key, value: unknown): Partial<Record<Key, string>> {
  return typeof value === 'string' ? ({ [key]: capText(value, 500) } as Partial<Record<Key, string>>) : {};
}

/** Bytes encoded by base64 `data`, without decoding it. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.replace(/\s/g, '').length * 3) / 4) - padding);
}
