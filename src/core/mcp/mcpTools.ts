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

/** Most MCP tools offered in all, over every server (each server gives at most 500); the rest are left out. */
export const maxMcpTools = 1000;
/**
 * Most characters the definitions of all MCP tools offered take (each tool's description as bounded, and its input schema
 * as shown): they go with every request to a model that may call them, so tools past it are left out.
 */
export const maxMcpDefinitionChars = 1_000_000;

/** A tool name as the MCP specification allows it (ASCII letters, digits, "_", "-", "." and "/", at most 128). */
const plainToolName = /^[A-Za-z0-9_./-]{1,128}$/;

const servers = new WeakMap<Tool, string>();

/** The name of the MCP server a tool made by `mcpTools` belongs to; `undefined` for any other tool. */
export function mcpToolServer(tool: Tool): string | undefined {
  return servers.get(tool);
}

/**
 * The registry tools of started MCP servers: named by `mcpToolNames` (none of `reserved`,
 * the built-in names), effect `external`, the server's input schema validating arguments
 * (see `jsonSchemaInput`), the description bounded. Each call asks for approval (kind
 * `tool`, source `MCP server "<name>"`, offering to remember the answer when the session has
 * `remembered`) unless the server's `allowedTools` or a remembered answer allows it; an
 * `isError` result fails the step with the server's text; the output is `McpStepOutput`.
 * At most `maxMcpTools` tools whose definitions take at most `maxMcpDefinitionChars`, taken in the order of `sessions`
 * (the user's servers first): a tool past either is left out, and `leftOut` is told how many of each server's were.
 */
export function mcpTools(
  sessions: readonly McpSession[],
  reserved: ReadonlySet<string>,
  leftOut?: (server: string, count: number) => void,
): Tool[] {
  const entries: { session: McpSession; info: McpToolInfo }[] = [];
  const dropped = new Map<McpSession, number>();
  let chars = 0;
  for (const session of sessions) {
    for (const info of session.tools) {
      const size = entries.length < maxMcpTools ? definitionChars(info) : Infinity;
      if (chars + size > maxMcpDefinitionChars) dropped.set(session, (dropped.get(session) ?? 0) + 1);
      else {
        chars += size;
        entries.push({ session, info });
      }
    }
  }
  for (const [session, count] of dropped) leftOut?.(session.name, count);
  const names = mcpToolNames(
    entries.map(({ session, info }) => ({ server: session.name, tool: info.name })),
    reserved,
  );
  return entries.map(({ session, info }, index) => {
    const tool = mcpTool(session, info, names[index] as string);
    servers.set(tool, session.name);
    return tool;
  });
}

/** About how many characters `info`'s definition takes as models get it: its description as bounded, and its schema as shown. */
function definitionChars(info: McpToolInfo): number {
  const description = typeof info.description === 'string' ? Math.min(info.description.length, maxMcpDescriptionChars) : 0;
  let schema: number;
  try {
    schema = JSON.stringify(info.inputSchema)?.length ?? 0;
  } catch {
    schema = 0;
  }
  // A schema too large to show is replaced by a small one (`shownSchema`).
  return 200 + description + (schema > maxMcpSchemaChars ? 20 : schema);
}

function mcpTool(session: McpSession, info: McpToolInfo, name: string): Tool<Record<string, unknown>, McpStepOutput> {
  const schema = shownSchema(info.inputSchema);
  const { inputSchema, parameters } = jsonSchemaInput(schema ?? { type: 'object' });
  const source = `MCP server "${session.name}"`;
  const allowed = session.allowedTools.includes('*') || session.allowedTools.includes(info.name);
  // What the user is asked about and told: a name the MCP specification allows as it is, any other as its registry name
  // ("mcp__<server>__…"), so a tool named 'read_graph (MCP server "memory")' cannot read as another server's.
  const shown = plainToolName.test(info.name) ? info.name : name;
  const about = typeof info.description === 'string' && info.description.trim() !== '' ? info.description : `The tool "${shown}".`;
  return {
    name,
    description: capText(
      `${about}\n(Tool "${shown}" of ${source}.${schema === undefined ? ' Its input schema is too large to show: the server checks the arguments.' : ''})`,
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
          { tool: shown, source, input, ...(remembered ? { rememberAs: remembered.keyOf(info.name) } : {}) },
          `the call of tool "${shown}" of ${source}`,
          signal,
        );
      }
      const calling = `calling ${shown} on ${source}`;
      ctx.progress?.(calling);
      // A percentage only of a total the server gives; the server's own words are not shown (they may change with every notification).
      const onProgress = (update: McpProgress): void => {
        const percent = percentOf(update.progress, update.total);
        if (percent !== undefined) ctx.progress?.(calling, percent);
      };
      const result = await session.callTool(info.name, input, signal, onProgress);
      const output = mcpStepOutput(result);
      if (result.isError === true) {
        throw new StepFailure(capText(`Tool "${shown}" of ${source} reported an error: ${output.text || 'no details given'}`, textCaps.message), false);
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
