import type { Plan } from '../plan/planSchema';

/**
 * The tools this code defines (the workspace, planning, web, navigation and diagnostics
 * tools): their names are chosen here, not by a model, a server or a file, so a trace keeps
 * them. The unit test checks the list against the tools themselves.
 */
export const builtinTraceToolNames: ReadonlySet<string> = new Set([
  'read_file',
  'list_files',
  'search_text',
  'write_file',
  'edit_file',
  'create_directory',
  'delete_file',
  'run_command',
  'ask_user',
  'planning_setup_plan',
  'planning_add_step',
  'planning_update_step',
  'planning_mark_step',
  'planning_clear_plan',
  'planning_read_plan',
  'fetch_url',
  'find_symbols',
  'find_references',
  'go_to_definition',
  'get_diagnostics',
]);

// Agents every plan has without defining them: their names are this code's.
const builtinAgents: ReadonlySet<string> = new Set(['default', 'direct']);

/** How a trace names what a plan, a model or a tool server named. */
export interface TraceNames {
  /** Numbers the steps and agents of `plan` not numbered yet, in plan order (the run's plan, then each repair plan). */
  learnPlan(plan: Plan): void;
  /** The step's neutral reference, `S<n>`: its position in the plans learnt (one no plan holds: the next number when first asked). */
  stepRef(stepId: string): string;
  /** The step as a trace shows it: its id with content, else its `stepRef`. */
  step(stepId: string): string;
  /** The agent as a trace shows it: its name with content or when built in, else `agent_<n>` in the order plans define them. */
  agent(name: string): string;
  /** The tool as a trace shows it: its name with content or when built in (`builtinTraceToolNames`), else `mcp_tool_<n>`, `vscode_tool_<n>` or `tool_<n>`. */
  tool(name: string): string;
}

/**
 * The names of one run's trace. Without `content` nothing a model, a plan, a tool server or
 * a workspace file chose comes out: step ids, agent names and other than built-in tool names
 * become neutral names that are stable within the run (the same real name, the same neutral
 * one; two real names, two neutral ones), so parent links and the tree still read. Step
 * references are neutral in both modes.
 */
export function traceNames(content: boolean): TraceNames {
  const steps = numbering('S');
  const agents = numbering('agent_');
  const tools = { mcp: numbering('mcp_tool_'), vscode: numbering('vscode_tool_'), other: numbering('tool_') };
  return {
    learnPlan(plan) {
      for (const step of plan.steps) steps(step.id);
      for (const name of Object.keys(plan.agents)) if (!builtinAgents.has(name)) agents(name);
    },
    stepRef: steps,
    step: (stepId) => (content ? stepId : steps(stepId)),
    agent: (name) => (content || builtinAgents.has(name) ? name : agents(name)),
    tool(name) {
      if (content || builtinTraceToolNames.has(name)) return name;
      // The family shows (the prefix is ours); which server or extension, and which of its tools, does not.
      return (name.startsWith('mcp__') ? tools.mcp : name.startsWith('vscode__') ? tools.vscode : tools.other)(name);
    },
  };
}

function numbering(prefix: string): (name: string) => string {
  const numbers = new Map<string, string>();
  return (name) => {
    let neutral = numbers.get(name);
    if (neutral === undefined) {
      neutral = `${prefix}${numbers.size + 1}`;
      numbers.set(name, neutral);
    }
    return neutral;
  };
}
