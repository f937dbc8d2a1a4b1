import { StepFailure } from '../tools/stepFailure';
import { capText, textCaps } from '../text/capText';
import { requireToolCallApproval } from '../tools/approvals';
import { jsonSchemaInput } from '../tools/jsonSchemaInput';
import type { Tool } from '../tools/tool';
import { type McpCallResult, mcpResultText, mcpStepOutput, type McpStepOutput } from './mcpResult';
import { mcpToolNames } from './mcpToolNames';
import { percentOf } from '../../shared/progressPercent';

/** A tool as an MCP server lists it (`tools/list`); nothing in it is trusted. */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Readonly<Record<string, unknown>>;
}

/**
 * The calls the user allowed in this workspace from a tool call's question ("Always allow
 * in this workspace"), as the host remembers them for one server as it is launched now.
 */
export interface McpRememberedCalls {
  /** Whether every call of `tool` was allowed. */
  allows(tool: string): boolean;
  /** The key the question offers to remember an answer for `tool` under (the approval's `rememberAs`). */
  keyOf(tool: string): string;
}

/** A started MCP server, as its tools use it. */
export interface McpSession {
  /** The server's name in its configuration. */
  name: string;
  /** Tools called without asking: `"*"` or tool names (see `McpServerConfig.allowedTools`). */
  allowedTools: readonly string[];
  /** What the user allowed from the question in this workspace; without it every question is asked anew. */
  remembered?: McpRememberedCalls;
  tools: readonly McpToolInfo[];
  /**
   * Calls `tool`; rejects with an `Error` naming the server when it fails, times out, stops
   * or `signal` aborts, never hangs longer than its time limit. With `onProgress`, asks the
   * server for progress notifications and passes on each (its total absent when the server
   * does not know it).
   */
  callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal, onProgress?: (update: McpProgress) => void): Promise<McpCallResult>;
}

/** One progress notification of a tool call: `progress` so far, of `total` when the server knows it. */
export interface McpProgress {
  progress: number;
  total?: number;
}

/** Most characters of a tool's description as models see it. */
export const maxMcpDescriptionChars = 2000;
/** Most characters of a tool's input JSON Schema shown to models; a larger one is replaced by `{ "type": "object" }`. */
export const maxMcpSchemaChars = 50_000;

/**
 * The registry tools of started MCP servers: named by `mcpToolNames` (none of `reserved`,
 * the built-in names), effect `external`, the server's input schema validating arguments
 * (see `jsonSchemaInput`), the description bounded. Each call asks for approval (kind
 * `tool`, source `MCP server "<name>"`, offering to remember the answer when the session has
 * `remembered`) unless the server's `allowedTools` or a remembered answer allows it; an
 * `isError` result fails the step with the server's text; the output is `McpStepOutput`.
 */
export function mcpTools(sessions: readonly McpSession[], reserved: ReadonlySet<string>): Tool[] {
  const entries = sessions.flatMap((session) => session.tools.map((info) => ({ session, info })));
  const names = mcpToolNames(
    entries.map(({ session, info }) => ({ server: session.name, tool: info.name })),
    reserved,
  );
  return entries.map(({ session, info }, index) => mcpTool(session, info, names[index] as string));
}

function mcpTool(session: McpSession, info: McpToolInfo, name: string): Tool<Record<string, unknown>, McpStepOutput> {
  const schema = shownSchema(info.inputSchema);
  const { inputSchema, parameters } = jsonSchemaInput(schema ?? { type: 'object' });
  const source = `MCP server "${session.name}"`;
  const allowed = session.allowedTools.includes('*') || session.allowedTools.includes(info.name);
  const about = typeof info.description === 'string' && info.description.trim() !== '' ? info.description : `The tool "${info.name}".`;
  return {
    name,
    description: capText(
      `${about}\n(Tool "${info.name}" of ${source}.${schema === undefined ? ' Its input schema is too large to show: the server checks the arguments.' : ''})`,
      maxMcpDescriptionChars,
    ),
    inputSchema,
    parameters,
    effects: 'external',
    async run(ctx, input, signal) {
      const remembered = session.remembered;
      // Asked at each call: an answer remembered during the run counts for the next call.
      if (!allowed && remembered?.allows(info.name) !== true) {
        await requireToolCallApproval(
          ctx,
          { tool: info.name, source, input, ...(remembered ? { rememberAs: remembered.keyOf(info.name) } : {}) },
          `the call of tool "${info.name}" of ${source}`,
          signal,
        );
      }
      const calling = `calling ${info.name} on ${source}`;
      ctx.progress?.(calling);
      // A percentage only of a total the server gives; the server's own words are not shown (they may change with every notification).
      const onProgress = (update: McpProgress): void => {
        const percent = percentOf(update.progress, update.total);
        if (percent !== undefined) ctx.progress?.(calling, percent);
      };
      const result = await session.callTool(info.name, input, signal, onProgress);
      const output = mcpStepOutput(result);
      if (result.isError === true) {
        throw new StepFailure(capText(`Tool "${info.name}" of ${source} reported an error: ${output.text || 'no details given'}`, textCaps.message), false);
      }
      return output;
    },
    resultText: mcpResultText,
  };
}

/** The schema when it is an object of at most `maxMcpSchemaChars` characters of JSON, else `undefined`. */
function shownSchema(schema: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> | undefined {
  let size: number;
  try {
    size = JSON.stringify(schema).length;
  } catch {
    return undefined;
  }
  return size <= maxMcpSchemaChars && typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? schema : undefined;
}
