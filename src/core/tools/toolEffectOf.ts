import { builtinTools } from './builtinTools';
import type { ToolEffect, ToolRegistry } from './tool';

let builtinEffects: ReadonlyMap<string, ToolEffect> | undefined;

/**
 * The declared effect of the tool named `name`: from `tools` when given (the tools a run
 * gets), else from the built-in tools; `undefined` for a tool it does not know. Callers that
 * only have tool names judge them as the built-in tools they name.
 */
export function toolEffectOf(name: string, tools?: ToolRegistry): ToolEffect | undefined {
  if (tools) return tools.get(name)?.effects;
  // Stryker disable next-line AssignmentOperator,ArrowFunction,ArrayDeclaration: filled once per process, and Stryker reuses a test process across mutants, so a mutant here never runs; toolEffectOf.test.ts asserts the built-in effects.
  builtinEffects ??= new Map(builtinTools().map((tool) => [tool.name, tool.effects]));
  return builtinEffects.get(name);
}
