import { countTokens } from '../llm/tokenCount';
import type { Tool } from './tool';
import { toolParameters } from './toolParameters';

/**
 * Names of tools never offered to a plan's model, whatever `taskPlanner.tools.extensionTools`
 * says (`*` stands for any characters). Measured in VS Code 1.139: its own tools carry no tags
 * to tell them apart, so the rule goes by name.
 */
export const deniedToolPatterns: readonly string[] = [
  // Ours: they keep a chat agent's session plan, not a step of a run.
  'planning_*',
  // VS Code's internal tools.
  '*_internal',
  // Chat control: they steer VS Code's own chat session, which a run is not.
  'inline_chat_*',
  'task_complete',
  'runSubagent',
  'manage_todo_list',
  'vscode_askQuestions',
  'vscode_reviewPlan',
  'vscode_get_*confirmation*',
  'setup_tools_*',
  'renderMermaidDiagram',
  // Terminals: a plan's commands go through run_command, its approvals and allow rules.
  'run_in_terminal',
  'send_to_terminal',
  'kill_terminal',
  'get_terminal_output',
  'terminal_*',
];

/** Tokens the tool section may take when the model's context is unknown (the built-in tools take about 2,300). */
export const defaultToolSectionTokens = 4_000;

/** Tokens a prompt needs besides its tools: the instructions, the step, what came before and room for the reply. */
export const promptAllowanceTokens = 6_000;

const patternCache = new Map<string, RegExp>();

/** Whether `name` matches `pattern` (`*`: any characters; case-insensitive; a `vscode__` prefix in the pattern is ignored). */
export function toolPatternMatches(pattern: string, name: string): boolean {
  const bare = pattern.trim().replace(/^vscode__/i, '');
  let expression = patternCache.get(bare);
  if (!expression) {
    expression = new RegExp(`^${bare.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'i');
    patternCache.set(bare, expression);
  }
  return expression.test(name);
}

/** Whether `name` (a tool's own name, without our `vscode__` prefix) is never offered (`deniedToolPatterns`). */
export function isDeniedTool(name: string): boolean {
  return deniedToolPatterns.some((pattern) => toolPatternMatches(pattern, name));
}

/**
 * Of the tools other extensions contribute, those `patterns` (the user's
 * `taskPlanner.tools.extensionTools`: names or patterns) choose and `deniedToolPatterns`
 * does not refuse, most relevant first: in the order of the first pattern each matches, then
 * in the order given.
 */
export function chooseExtensionTools<T extends { name: string }>(tools: readonly T[], patterns: readonly string[]): T[] {
  const ranked = tools.flatMap((tool, index) => {
    if (isDeniedTool(tool.name)) return [];
    const rank = patterns.findIndex((pattern) => pattern.trim() !== '' && toolPatternMatches(pattern, tool.name));
    return rank < 0 ? [] : [{ tool, rank, index }];
  });
  return ranked.sort((a, b) => a.rank - b.rank || a.index - b.index).map((entry) => entry.tool);
}

const counted = new Map<string, number>();

/** The tokens a tool's definition costs in a request, as `countPromptTokens` counts the tool section. */
export function toolTokens(tool: Tool): number {
  const text = JSON.stringify({ name: tool.name, description: tool.description, parameters: toolParameters(tool) });
  // The editor asks for its tools often, and wraps them anew each time: the count is kept by the definition's text.
  let tokens = counted.get(text);
  if (tokens === undefined) {
    if (counted.size >= 1_000) counted.clear();
    tokens = countTokens(text);
    counted.set(text, tokens);
  }
  return tokens;
}

/** The tool section's budget: a quarter of the model's context (in tokens), `defaultToolSectionTokens` when unknown (0). */
export function toolSectionBudget(contextTokens: number): number {
  return contextTokens > 0 ? Math.floor(contextTokens / 4) : defaultToolSectionTokens;
}

/** What `fitToolBudget` kept and left out. */
export interface FittedTools {
  tools: Tool[];
  /** Names of the optional tools left out, least relevant last. */
  dropped: string[];
  /** Tokens of the kept tools' definitions. */
  tokens: number;
}

/**
 * The tools a prompt offers within `budgetTokens`: every one of `fixed` (the built-in
 * tools, and the MCP servers the workspace configures), then as many of `optional` (other
 * extensions' tools, most relevant first) as fit; the least relevant go first.
 */
export function fitToolBudget(fixed: readonly Tool[], optional: readonly Tool[], budgetTokens: number): FittedTools {
  let tokens = fixed.reduce((sum, tool) => sum + toolTokens(tool), 0);
  const kept: Tool[] = [];
  const dropped: string[] = [];
  for (const tool of optional) {
    const cost = toolTokens(tool);
    if (tokens + cost <= budgetTokens) {
      kept.push(tool);
      tokens += cost;
    } else {
      dropped.push(tool.name);
    }
  }
  return { tools: [...fixed, ...kept], dropped, tokens };
}

/**
 * Whether a prompt with a tool section of `toolSectionTokens` fits a model of
 * `contextTokens`: `needed` adds `promptAllowanceTokens` for the rest of the prompt.
 */
export function promptFit(contextTokens: number, toolSectionTokens: number): { fits: boolean; needed: number } {
  const needed = toolSectionTokens + promptAllowanceTokens;
  return { fits: needed <= contextTokens, needed };
}
