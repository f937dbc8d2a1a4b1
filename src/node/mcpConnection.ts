import { readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { resolveMcpVariables, type McpServerConfig } from '../core/mcp/mcpConfig';
import type { McpCallResult } from '../core/mcp/mcpResult';
import type { McpSession, McpToolInfo } from '../core/mcp/mcpTools';
import { visibleControls } from '../core/plan/visibleDirection';
import { capText } from '../core/text/capText';
import { oneLine } from '../core/text/oneLine';
import { errorMessage } from '../shared/errorMessage';
import { withoutSecrets } from './commandEnvironment';
import { followProcessTree, type ProcessTree } from './processTree';

/** How servers are started and called. Times in milliseconds. */
export interface McpConnectionOptions {
  /** The environment stdio servers start from; credentials are removed from it (`withoutSecrets`), the server's own `env` is added. */
  baseEnv: NodeJS.ProcessEnv;
  /** Longest wait for a server to start and list its tools. */
  startTimeoutMs: number;
  /** Longest wait for one tool call. */
  callTimeoutMs: number;
  /** Receives the server's stderr (as it comes) and what happens to it. */
  log?: (text: string) => void;
}

/** A started server: its tools and calls (`McpSession`), its process, and how to stop it. */
export interface McpConnection extends McpSession {
  /** The last characters the server wrote to stderr, controls escaped (empty for HTTP servers). */
  stderrTail(): string;
  /** True once the server stopped or was stopped. */
  stopped(): boolean;
  /** Stops the server (its whole process tree for stdio); safe to call twice. */
  stop(): Promise<void>;
}

/** Most characters of a server's stderr kept for error messages. */
export const maxStderrTailChars = 2000;
/** Most tools taken from one server; more are left out with a log line. */
export const maxToolsPerServer = 500;
const maxToolNameChars = 500;
const maxPages = 20;
const maxEnvFileBytes = 100_000;
const stderrGraceMs = 2000;

/**
 * Starts `config` (variables already resolved) and lists its tools. A stdio server runs as a
 * child process whose environment does not inherit our credentials; an HTTP server is
 * reached with its `headers`. Rejects with an `Error` naming the server (and the tail of its
 * stderr) when it cannot be started or does not answer within `startTimeoutMs`.
 */
export async function connectMcpServer(config: McpServerConfig, options: McpConnectionOptions, signal?: AbortSignal): Promise<McpConnection> {
  const tail = { text: '' };
  const onStderr = (chunk: Buffer | string): void => {
    const text = chunk.toString();
    tail.text = (tail.text + text).slice(-maxStderrTailChars);
    options.log?.(capText(text, 10_000));
  };
  const { transport, tree, stderrEnded } = await makeTransport(config, options, onStderr);
  let stopped = false;
  let stopping: Promise<void> | undefined;
  let closedReason: string | undefined;
  const client = new Client(
    { name: 'task-planner', version: '1' },
    // Output schemas are not compiled (Ajv over a server's schema is unbounded); outputs are capped and treated as untrusted text anyway.
    { capabilities: {}, jsonSchemaValidator: { getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }) } },
  );
  client.onclose = () => {
    stopped = true;
    closedReason ??= 'stopped';
    options.log?.(`[server ${config.name} ${closedReason}]\n`);
  };
  client.onerror = (error) => {
    // The SDK closes a stdio connection whose message exceeds its buffer (10 MB); the process may take a while to exit, so it counts as stopped now.
    if (/ReadBuffer exceeded/.test(error.message)) {
      closedReason ??= 'sent a message larger than 10 MB, so the connection was closed';
      stopped = true;
    }
    options.log?.(`[server ${config.name}: ${capText(error.message, 500)}]\n`);
  };
  const stderrTail = (): string => visibleControls(tail.text.trim());
  const failure = (what: string): Error => {
    const shownTail = stderrTail();
    return new Error(`MCP server "${config.name}" ${what}.${shownTail ? ` Its last output (stderr):\n${shownTail}` : ''}`);
  };
  const stop = (): Promise<void> => {
    closedReason ??= 'was stopped by Task Planner';
    stopped = true;
    stopping ??= client
      .close()
      .catch(() => undefined)
      .then(() => tree()?.kill());
    return stopping;
  };
  let tools: McpToolInfo[];
  try {
    await client.connect(transport, { timeout: options.startTimeoutMs, ...(signal ? { signal } : {}) });
    tools = await listTools(client, options, signal, (line) => options.log?.(`${line}\n`));
  } catch (error) {
    // Read before stop() gives its own reason: the SDK only says "Connection closed" after an oversized message.
    const reason = closedReason;
    await stop();
    if (signal?.aborted) throw error;
    throw failure(`could not be started: ${reason !== undefined && reason !== 'stopped' ? `it ${reason}` : capText(errorMessage(error), 2000)}`);
  }
  return {
    name: config.name,
    allowedTools: config.allowedTools,
    tools,
    stderrTail,
    stopped: () => stopped,
    stop,
    async callTool(tool, args, callSignal): Promise<McpCallResult> {
      if (stopped) throw failure(`is not running (it ${closedReason ?? 'stopped'}), so tool "${tool}" was not called`);
      try {
        return (await client.callTool({ name: tool, arguments: args }, undefined, {
          signal: callSignal,
          timeout: options.callTimeoutMs,
          maxTotalTimeout: options.callTimeoutMs,
        })) as McpCallResult;
      } catch (error) {
        if (callSignal.aborted) throw error;
        if (stopped || client.transport === undefined || /not connected/i.test(errorMessage(error))) {
          stopped = true;
          // Its last words on stderr may arrive just after the connection closed.
          await stderrEnded(stderrGraceMs);
          throw failure(`stopped while tool "${tool}" was running${closedReason !== undefined && closedReason !== 'stopped' ? ` (it ${closedReason})` : ''}`);
        }
        if (isTimeout(error)) throw failure(`did not answer tool "${tool}" within ${Math.round(options.callTimeoutMs / 1000)} s`);
        throw failure(`failed on tool "${tool}": ${capText(errorMessage(error), 2000)}`);
      }
    },
  };
}

async function makeTransport(
  config: McpServerConfig,
  options: McpConnectionOptions,
  onStderr: (chunk: Buffer | string) => void,
): Promise<{ transport: Transport; tree: () => ProcessTree | undefined; stderrEnded: (maxMs: number) => Promise<void> }> {
  if (config.type === 'http') {
    return {
      transport: new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: { ...config.headers } } }),
      tree: () => undefined,
      stderrEnded: () => Promise.resolve(),
    };
  }
  const fileEnv = config.envFile === undefined ? {} : await readEnvFile(await envFilePath(config), config.name);
  const env = Object.fromEntries(
    Object.entries({ ...withoutSecrets(options.baseEnv), ...fileEnv, ...config.env }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const transport = new StdioClientTransport({
    command: config.command,
    args: [...config.args],
    env,
    cwd: config.cwd === undefined ? config.source.folder : inFolder(config.source.folder, config.cwd),
    stderr: 'pipe',
  });
  const stderr = transport.stderr;
  let ended = false;
  if (stderr instanceof PassThrough) {
    stderr.on('data', onStderr);
    stderr.once('end', () => (ended = true));
  }
  const stderrEnded = (maxMs: number): Promise<void> =>
    ended || !(stderr instanceof PassThrough)
      ? Promise.resolve()
      : new Promise((done) => {
          const timer = setTimeout(done, maxMs);
          stderr.once('end', () => {
            clearTimeout(timer);
            done();
          });
        });
  let tree: ProcessTree | undefined;
  const start = transport.start.bind(transport);
  // The SDK starts the process inside connect(); its tree is followed from then on, so stop() reaches grandchildren (npx → node).
  transport.start = async () => {
    await start();
    if (transport.pid !== null) tree = followProcessTree(transport.pid);
  };
  return { transport, tree: () => tree, stderrEnded };
}

async function listTools(client: Client, options: McpConnectionOptions, signal: AbortSignal | undefined, log: (line: string) => void): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: options.startTimeoutMs, ...(signal ? { signal } : {}) });
    for (const tool of result.tools) {
      if (tools.length >= maxToolsPerServer) {
        log(`[more than ${maxToolsPerServer} tools: the rest are left out]`);
        return tools;
      }
      if (tool.name.length > maxToolNameChars) {
        log(`[a tool whose name has ${tool.name.length} characters was left out]`);
        continue;
      }
      tools.push({ name: tool.name, ...(tool.description !== undefined ? { description: tool.description } : {}), inputSchema: tool.inputSchema });
    }
    cursor = result.nextCursor;
    if (cursor === undefined) return tools;
  }
  log(`[more than ${maxPages} pages of tools: the rest are left out]`);
  return tools;
}

function isTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === -32001;
}

function inFolder(folder: string, path: string): string {
  return isAbsolute(path) ? path : join(folder, path);
}

/**
 * Refuses, before anyone is asked to start it, a workspace's server whose env file leads
 * out of its folder (checked as `envFilePath` checks it at the start); an env file naming an
 * input is checked at the start, once its value is known.
 */
export async function checkEnvFileBeforeStart(config: McpServerConfig): Promise<void> {
  if (config.type !== 'stdio' || config.envFile === undefined || config.envFile.includes('${input:')) return;
  const resolved = resolveMcpVariables(config, {});
  if (resolved.type === 'stdio') await envFilePath(resolved);
}

/**
 * Where `config`'s envFile is. A workspace's server may only read one inside the workspace
 * folder (links resolved): its configuration is anyone's who wrote the repository, and a
 * file such as /proc/self/environ or another project's .env would hand it our secrets.
 */
async function envFilePath(config: Extract<McpServerConfig, { type: 'stdio' }>): Promise<string> {
  const folder = config.source.folder;
  const path = inFolder(folder, config.envFile ?? '');
  if (config.source.origin !== 'workspace') return path;
  const [real, realFolder] = await Promise.all([realpath(path).catch(() => resolve(path)), realpath(folder).catch(() => resolve(folder))]);
  const inside = relative(realFolder, real);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
    throw new Error(
      `MCP server "${config.name}": its envFile ${visibleControls(oneLine(path, 300))} is outside its workspace folder ${visibleControls(oneLine(folder, 300))}; a workspace's server may only read an env file inside the folder of its mcp.json.`,
    );
  }
  return path;
}

/** `NAME=value` lines of an env file (`#` comments, optional quotes); a missing or huge file is an error naming the server. */
async function readEnvFile(path: string, server: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`MCP server "${server}": its envFile ${path} cannot be read: ${errorMessage(error)}`, { cause: error });
  }
  if (text.length > maxEnvFileBytes) throw new Error(`MCP server "${server}": its envFile ${path} is larger than ${maxEnvFileBytes} bytes.`);
  const env: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    const raw = match[2] ?? '';
    env[match[1] as string] = /^(["']).*\1$/.test(raw) ? raw.slice(1, -1) : raw;
  }
  return env;
}
