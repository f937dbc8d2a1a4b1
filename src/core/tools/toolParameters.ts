import { z } from 'zod';
import type { Tool } from './tool';

const derived = new WeakMap<Tool, Record<string, unknown>>();

/**
 * The JSON Schema of a tool's input as models see it: the owner's own (`Tool.parameters`)
 * when the tool came with one, else zod 4's conversion of `inputSchema` for the input side
 * (fields with defaults optional), without `$schema`. Computed once per tool object.
 */
export function toolParameters(tool: Tool): Record<string, unknown> {
  let parameters = derived.get(tool);
  if (!parameters) {
    const source: Readonly<Record<string, unknown>> = tool.parameters ?? z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' });
    const { $schema: _ignored, ...rest } = source;
    parameters = rest;
    derived.set(tool, parameters);
  }
  return parameters;
}
