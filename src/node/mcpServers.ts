import { createHash } from 'node:crypto';
import type { McpConfig, McpInput, McpServerConfig } from '../core/mcp/mcpConfig';
import { inputsUsedBy, mcpInputKey, mcpInputValueKey, mcpServerLaunchKey, resolveMcpVariables } from '../core/mcp/mcpConfig';
import { maxMcpDefinitionChars, maxMcpTools, mcpToolServer, mcpTools, type McpSession, type McpToolInfo } from '../core/mcp/mcpTools';
import { capText, textCaps } from '../core/text/capText';
import type { Tool } from '../core/tools/tool';
import { errorMessage } from '../shared/errorMessage';
import type * as McpConnectionModule from './mcpConnection';
import type { McpConnection, McpConnectionOptions } from './mcpConnection';
import { checkEnvFileBeforeStart } from './mcpEnvFile';

/** Why a server whose start was under way when the servers were stopped is not running. */
const stoppedReason = 'the MCP servers were stopped while it was starting (their configuration changed); it starts again with the next planning or run.';

/** Where a configured server stands. */
export type McpServerState =
  | { state: 'not started' }
  | { state: 'starting' }
  | { state: 'running'; tools: readonly string[] }
  | { state: 'failed'; reason: string }
  | { state: 'not allowed'; reason: string };

/** What the servers need from their host (the editor or the CLI). */
export interface McpServersOptions extends Omit<McpConnectionOptions, 'log'> {
  config: McpConfig;
  /** Names MCP tools must not take: the built-in tools'. */
  reserved: ReadonlySet<string>;
  /**
   * Whether `server` may start: `true`, or why not in words. Asked before each start of a
   * server; the host asks the user for a workspace's server (and refuses it in Restricted Mode).
   */
  mayStart(server: McpServerConfig, signal: AbortSignal): Promise<true | string>;
  /**
   * The value of an input (`${input:<id>}`) for `server`, asked once per `mcpInputValueKey` (a workspace's input once per
   * server and address); `undefined` when the user gave none.
   */
  inputValue(input: McpInput, server: McpServerConfig, signal: AbortSignal): Promise<string | undefined>;
  /** Receives each server's stderr and what happens to it. */
  log?(server: string, text: string): void;
  /**
   * Told when `server`, allowed and its inputs given, starts connecting (after every question about it was answered);
   * `connected` settles when it runs or failed to. The editor shows its progress from here, not while a question is open.
   */
  connecting?(server: McpServerConfig, connected: Promise<unknown>): void;
  /**
   * The answers the user asked to remember ("Always allow in this workspace"), by the key
   * `rememberedCallKey` gives; without it every call not in `allowedTools` asks, and the
   * question offers nothing to remember.
   */
  remembered?: { has(key: string): boolean };
}

/**
 * What every remembered "allow every call" key of `server` starts with: a hash of everything
 * that decides what the server runs (`mcpServerLaunchKey`), so a changed command,
 * environment, folder or address asks again.
 */
export function rememberedCallPrefix(server: McpServerConfig): string {
  return `mcp-tool:${createHash('sha256').update(mcpServerLaunchKey(server)).digest('hex')}:`;
}

/**
 * The key a remembered "allow every call" of `tool` of `server` is kept under: `rememberedCallPrefix`, the tool's name,
 * and a hash of what the server says the tool is (its description and input schema). A server that changes a tool it was
 * allowed ("a rug pull": new words that steer the model to send it the user's secrets in its arguments) asks again.
 */
export function rememberedCallKey(server: McpServerConfig, tool: Pick<McpToolInfo, 'name' | 'description' | 'inputSchema'>): string {
  const definition = createHash('sha256').update(JSON.stringify([tool.description ?? null, tool.inputSchema])).digest('hex').slice(0, 16);
  return `${rememberedCallPrefix(server)}${tool.name}:${definition}`;
}

/**
 * The configured MCP servers of one window or one CLI command: started together on
 * `start` (each once, concurrently; one that fails or is not allowed does not stop the
 * others), their tools as registry tools (`tools()`, synchronous, named by `mcpTools`),
 * stopped together by `stopAll`.
 */
export class McpServers {
  private readonly connections = new Map<string, McpConnection>();
  private readonly states = new Map<string, McpServerState>();
  private readonly inputs = new Map<string, Promise<string | undefined>>();
  private starting: Promise<void> | undefined;
  private cachedTools: Tool[] | undefined;
  /** Set by `stopAll`: a start still under way (waiting for the user's answer, or connecting) ends without a server. */
  private stopped = false;

  constructor(private readonly options: McpServersOptions) {
    for (const server of options.config.servers) this.states.set(server.name, { state: 'not started' });
  }

  /** The configured servers in configuration order, with their state. */
  list(): { config: McpServerConfig; state: McpServerState }[] {
    return this.options.config.servers.map((config) => ({ config, state: this.stateOf(config.name) }));
  }

  /** Starts every server not yet started (once: later calls wait for the same start). Never rejects. */
  start(signal: AbortSignal): Promise<void> {
    this.starting ??= Promise.all(this.options.config.servers.map((server) => this.startOne(server, signal))).then(() => undefined);
    return this.starting;
  }

  /** Stops `name` (when running) and starts it again. */
  async restart(name: string, signal: AbortSignal): Promise<void> {
    const server = this.options.config.servers.find((item) => item.name === name);
    if (!server) return;
    await this.connections.get(name)?.stop();
    this.connections.delete(name);
    this.cachedTools = undefined;
    await this.startOne(server, signal);
  }

  /** The tools of the running servers (and of those that stopped since: their calls fail naming the server). */
  tools(): Tool[] {
    this.cachedTools ??= mcpTools(this.sessions(), this.options.reserved, (server, count) =>
      this.options.log?.(
        server,
        `[${count} of the tools of server ${server} are not offered: the MCP tools of all servers may take at most ${maxMcpTools} tools and ${maxMcpDefinitionChars} characters of descriptions and schemas, which go with every request to the model. Remove from the configuration the servers you do not need here]\n`,
      ),
    );
    return this.cachedTools;
  }

  /** Which server a registry tool belongs to, by the tool's registry name. */
  serverOf(toolName: string): string | undefined {
    const tool = this.tools().find((item) => item.name === toolName);
    return tool === undefined ? undefined : mcpToolServer(tool);
  }

  /** The last stderr of a server, controls escaped ("" for none). */
  stderrTail(name: string): string {
    return this.connections.get(name)?.stderrTail() ?? '';
  }

  /**
   * Stops every server, and every start still under way once it gets that far: none is left running (a server the
   * user allows after this, in a question asked before, is not started). Safe to call more than once.
   */
  async stopAll(): Promise<void> {
    this.stopped = true;
    const running = [...this.connections.values()];
    await Promise.all(running.map((connection) => connection.stop()));
  }

  /** The started servers in configuration order (whatever order they started in), so tool names and order are the same each time. */
  private sessions(): McpSession[] {
    const remembered = this.options.remembered;
    return this.options.config.servers.flatMap((server) => {
      const connection = this.connections.get(server.name);
      if (!connection) return [];
      if (!remembered) return [connection];
      const byName = new Map(connection.tools.map((tool) => [tool.name, tool]));
      // A name the server did not list has no definition to allow: its key matches nothing remembered.
      const keyOf = (name: string): string => rememberedCallKey(server, byName.get(name) ?? { name, description: '(not listed)', inputSchema: {} });
      return [{ ...connection, remembered: { allows: (name) => remembered.has(keyOf(name)), keyOf } }];
    });
  }

  private stateOf(name: string): McpServerState {
    const connection = this.connections.get(name);
    if (connection?.stopped()) {
      const tail = connection.stderrTail();
      return { state: 'failed', reason: `it stopped${tail ? `; its last output: ${capText(tail, 500)}` : ''}` };
    }
    return this.states.get(name) ?? { state: 'not started' };
  }

  private async startOne(server: McpServerConfig, signal: AbortSignal): Promise<void> {
    const log = (text: string): void => this.options.log?.(server.name, text);
    try {
      // An env file that leads out of the folder is refused before the user is asked to allow the server.
      await checkEnvFileBeforeStart(server);
      const allowed = await this.options.mayStart(server, signal);
      if (this.stopped) throw new Error(stoppedReason);
      if (allowed !== true) {
        this.states.set(server.name, { state: 'not allowed', reason: allowed });
        return;
      }
      this.states.set(server.name, { state: 'starting' });
      const values: Record<string, string> = {};
      for (const id of inputsUsedBy(server)) {
        // the input its own configuration declares, never another source's of the same id
        const input = this.options.config.inputs.find((item) => mcpInputKey(item.id, item.source) === mcpInputKey(id, server.source));
        const value = input === undefined ? undefined : await this.inputValue(input, server, signal);
        if (value === undefined) throw new Error(`MCP server "${server.name}" needs the input "${id}", which was not given.`);
        values[id] = value;
      }
      const resolved = resolveMcpVariables(server, values);
      // The MCP SDK is loaded with the first server started: most runs start none, and loading it took a tenth of every
      // start-up of the CLI.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- an import would be run at every start
      const { connectMcpServer } = require('./mcpConnection') as typeof McpConnectionModule;
      const connecting = connectMcpServer(resolved, { ...this.options, log }, signal);
      this.options.connecting?.(server, connecting);
      const connection = await connecting;
      if (this.stopped) {
        await connection.stop();
        throw new Error(stoppedReason);
      }
      this.connections.set(server.name, connection);
      this.cachedTools = undefined;
      this.states.set(server.name, { state: 'running', tools: connection.tools.map((tool) => tool.name) });
      log(`[server ${server.name} started with ${connection.tools.length} tools]\n`);
    } catch (error) {
      const reason = capText(errorMessage(error), textCaps.message);
      this.states.set(server.name, { state: 'failed', reason });
      log(`[${reason}]\n`);
    }
  }

  private inputValue(input: McpInput, server: McpServerConfig, signal: AbortSignal): Promise<string | undefined> {
    const key = mcpInputValueKey(input, server);
    let value = this.inputs.get(key);
    if (!value) {
      value = this.options.inputValue(input, server, signal);
      this.inputs.set(key, value);
    }
    return value;
  }
}
