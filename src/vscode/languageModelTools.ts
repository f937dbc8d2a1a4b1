import * as vscode from 'vscode';
import type { SessionPlanner } from '../core/session/createSessionPlanner';
import type { Tool, ToolContext } from '../core/tools/tool';
import { loadRuntime } from './loadRuntime';
import { errorMessage } from '../shared/errorMessage';
import { shownLine } from './shownText';

/** Most schema problems a refusal lists, and the most characters of a path, a problem and a log line it shows. */
const refusalLimits = { issues: 3, path: 60, issue: 160, logLine: 300, message: 2_000 } as const;

/** Names of the session planning tools contributed in package.json (`languageModelTools`). */
export const planningToolNames = [
  'planning_setup_plan',
  'planning_add_step',
  'planning_update_step',
  'planning_mark_step',
  'planning_clear_plan',
  'planning_read_plan',
] as const;

/**
 * Registers the six `planning_*` session tools (docs/architecture.md §10) with `vscode.lm.registerTool`,
 * so chat agents (such as Copilot agent mode) keep a plan that the Plan tree shows. Inputs
 * are checked with the tools' own schemas; refusals come back as the planner's message. What goes back to the caller
 * and into the log is bounded and shows no control or direction character, whatever the input (any extension may
 * call the tools through `vscode.lm.invokeTool`).
 * Returns nothing to dispose in hosts without the Language Model Tools API.
 */
export function registerLanguageModelTools(planner: SessionPlanner, log: vscode.LogOutputChannel): vscode.Disposable[] {
  if (typeof vscode.lm?.registerTool !== 'function') {
    log.info('This VS Code has no Language Model Tools API; the planning_* tools are not offered to chat agents.');
    return [];
  }
  // The planning tools read only the planner from their context, and it is fixed here.
  // They (and zod) load on the first call, not at activation.
  let tools: Map<string, Tool> | undefined;
  const toolNamed = (name: string): Tool => (tools ??= new Map(loadRuntime().createPlanningTools(() => planner).map((tool) => [tool.name, tool]))).get(name)!;
  const context = { runId: 'chat', stepId: 'chat', stepTitle: 'chat session' } as ToolContext;
  return planningToolNames.map((name) =>
    vscode.lm.registerTool<unknown>(name, {
      async invoke(options, token) {
        const tool = toolNamed(name);
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort(new Error('Cancelled.')));
        const parsed = tool.inputSchema.safeParse(options.input ?? {});
        let message: string;
        if (!parsed.success) {
          message = invalidInput(tool.name, parsed.error.issues);
        } else {
          try {
            message = ((await tool.run({ ...context, stepId: tool.name }, parsed.data, abort.signal)) as { message: string }).message;
          } catch (error) {
            message = shownLine(errorMessage(error), refusalLimits.message);
          }
        }
        log.info(`${tool.name}: ${shownLine(message.split('\n')[0] ?? '', refusalLimits.logLine)}`);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(message)]);
      },
    }),
  );
}

/** A schema refusal: the first few problems, each cut and shown visibly (an unknown key is the caller's text), then how many more. */
function invalidInput(toolName: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const listed = issues.slice(0, refusalLimits.issues).map((issue) => {
    const path = shownLine(issue.path.map(String).join('.'), refusalLimits.path) || 'input';
    return `${path}: ${shownLine(issue.message, refusalLimits.issue)}`;
  });
  const more = issues.length - listed.length;
  return `Invalid input for ${toolName}: ${listed.join('; ')}${more > 0 ? `; and ${more} more problems` : ''}. Nothing was changed; fix the call and try again.`;
}
