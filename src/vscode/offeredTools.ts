import type * as vscode from 'vscode';
import type { Tool } from '../core/tools/tool';
import { loadRuntime } from './loadRuntime';

/** Where the offered tools come from, read at each call. */
export interface ToolSources {
  /** The built-in and editor tools (gated), `planning_*` among them. */
  builtins(): Tool[];
  /** The MCP servers' tools this workspace configures (gated): the user chose them, so never dropped. */
  mcp(): Tool[];
  /** Other extensions' tools the user chose (`taskPlanner.tools.extensionTools`, gated), most relevant first. */
  extension(): Tool[];
  /** The model's context in tokens, 0 when unknown (`taskPlanner.llm.contextTokens`). */
  contextTokens(): number;
}

/**
 * The tools a plan, its runs and the step form offer (docs/architecture.md §7): the built-in
 * tools but those `deniedToolPatterns` refuses (our `planning_*` session tools), the MCP
 * servers' and the other extensions' tools the user chose, within the tool section's budget
 * (`toolSectionBudget`); the least relevant extension tools are left out first, and the
 * log says which, once per change.
 */
export function createToolOffer(sources: ToolSources, log: vscode.LogOutputChannel): () => Tool[] {
  let said = '';
  return () => {
    const runtime = loadRuntime();
    const fixed = [...sources.builtins().filter((tool) => !runtime.isDeniedTool(tool.name)), ...sources.mcp()];
    const budget = runtime.toolSectionBudget(sources.contextTokens());
    const fitted = runtime.fitToolBudget(fixed, sources.extension(), budget);
    const note =
      fitted.dropped.length === 0
        ? ''
        : `The tools of other extensions ${fitted.dropped.join(', ')} are not offered: the tool list would pass its budget of ${budget} tokens (a quarter of taskPlanner.llm.contextTokens, ${runtime.toolSectionBudget(0)} when it is 0); the least relevant (last in taskPlanner.tools.extensionTools) go first.`;
    if (note !== said) {
      said = note;
      if (note !== '') log.warn(note);
    }
    return fitted.tools;
  };
}
