import { toolParameters } from './toolParameters';
import type { Tool, ToolRegistry } from './tool';

/** A tool as OpenAI's chat-completions API takes it; `parameters` is JSON Schema. */
export interface OpenAiToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** A `ToolRegistry` that also lists its tools and describes them for an LLM. */
export interface ToolCatalog extends ToolRegistry {
  /** The tools in registration order. */
  list(): Tool[];
  /** OpenAI tool definitions for `names` (default: every tool), in registration order; unknown names throw. */
  toOpenAiTools(names?: readonly string[]): OpenAiToolDefinition[];
}

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A registry over `tools`. Names must be unique and match `[a-zA-Z0-9_-]{1,64}` (what
 * LLM APIs accept); the JSON Schemas come from zod 4's own converter, describing the
 * input side (fields with defaults are optional).
 */
export function createToolRegistry(tools: readonly Tool[]): ToolCatalog {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (!toolNamePattern.test(tool.name)) throw new Error(`Tool name "${tool.name}" is invalid: use 1 to 64 letters, digits, "_" or "-".`);
    if (byName.has(tool.name)) throw new Error(`Two tools are named "${tool.name}"; tool names must be unique.`);
    byName.set(tool.name, tool);
  }
  return {
    names: () => [...byName.keys()],
    get: (name) => byName.get(name),
    list: () => [...byName.values()],
    toOpenAiTools(names) {
      const chosen = names === undefined ? [...byName.values()] : names.map((name) => {
        const tool = byName.get(name);
        if (!tool) throw new Error(`Unknown tool "${name}". Available tools: ${[...byName.keys()].join(', ')}.`);
        return tool;
      });
      return chosen.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: toolParameters(tool) } }));
    },
  };
}
