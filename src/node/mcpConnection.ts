import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../core/mcp/mcpConfig';
import type { McpCallResult } from '../core/mcp/mcpResult';
import type { McpSession, McpToolInfo } from '../core/mcp/mcpTools';
import { visibleControls } from '../shared/visibleCharacters';
import { capText } from '../core/text/capText';
import { oneLine } from '../core/text/oneLine';
import { errorMessage } from '../shared/errorMessage';
import { withoutSecrets } from './commandEnvironment';
import { findProgram } from './findProgram';
import { inFolder, readMcpEnvFile } from './mcpEnvFile';
import { pidNamespaceLauncher } from './pidNamespace';
import { followProcessTree, type ProcessTree } from './processTree';
import { mcpBoundedFetch } from './mcpBoundedFetch';

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
  /**
   * Run each stdio server in a PID namespace of its own where the system allows it (default
   * true), as commands run (see `createNodeCommandRunner`); false only follows its process
   * tree through `/proc`.
   */
  pidNamespace?: boolean;
}

/** A started server: its tools and calls (`McpSession`), its process, and how to stop it. */
export interface McpConnection extends McpSession {
  /** The last characters the server wrote to stderr, controls escaped (empty for HTTP servers). */
  stderrTail(): string;
  /** True once the server stopped or was stopped. */
  stopped(): boolean;
  /** Stops the server and, for stdio, everything it started (its PID namespace, else the process tree `/proc` shows); safe to call twice. */
  stop(): Promise<void>;
}

/** Most characters of a server's stderr kept for error messages. */
export const maxStderrTailChars = 2000;
/** Most characters of a server's stderr passed to the log in all (the editor's log is a file): the rest only ends up in the tail. */
export const maxLoggedStderrChars = 1_000_000;
/**
 * Most of a server's protocol errors logged (each a line that is no JSON-RPC message, say): a server can write them to
 * stdout without end, so the rest are counted, not logged.
 */
export const maxLoggedServerErrors = 100;
/** Most tools taken from one server; more are left out with a log line. */
export const maxToolsPerServer = 500;
const maxToolNameChars = 500;
const maxPages = 20;
const stderrGraceMs = 2000;
/** How long a stdio server has to exit once its stdin ended, before SIGTERM; then `killGraceMs` before SIGKILL. */
const closeGraceMs = 2000;
const killGraceMs = 500;

/**
 * Starts `config` (variables already resolved) and lists its tools; its stderr goes to
 * `options.log` up to `maxLoggedStderrChars` characters in all. A stdio server runs as a
 * child process whose environment does not inherit our credentials, contained as commands
 * are: on Linux in a PID namespace of its own (see `pidNamespaceLauncher`), which the kernel
 * empties when the server ends or is stopped, so a `setsid` or double-forked daemon it
 * started ends with it; without namespaces every descendant `/proc` shows when it is stopped
 * is killed (a daemon whose parent already exited then escapes). An HTTP server is reached
 * with its `headers`. Rejects with an `Error` naming the server (and the tail of its stderr)
 * when it cannot be started or does not answer within `startTimeoutMs`.
 */
export async function connectMcpServer(config: McpServerConfig, options: McpConnectionOptions, signal?: AbortSignal): Promise<McpConnection> {
  const tail = { text: '' };
  let logged = 0;
  const onStderr = (chunk: Buffer | string): void => {
    const text = chunk.toString();
    tail.text = (tail.text + text).slice(-maxStderrTailChars);
    // A server that floods stderr must not fill the disk through the log.
    if (logged >= maxLoggedStderrChars) return;
    const room = Math.min(10_000, maxLoggedStderrChars - logged);
    // A cut ends with what it cut, in about 30 characters: with less room than a cut needs, the log takes no more.
    const kept = room < 64 && text.length > room ? '' : capText(text, room);
    logged = kept === '' ? maxLoggedStderrChars : logged + kept.length;
    if (kept !== '') options.log?.(kept);
    if (logged >= maxLoggedStderrChars) {
      options.log?.(`\n[server ${config.name} wrote more than ${maxLoggedStderrChars} characters to stderr: the rest is not logged]\n`);
    }
  };
  // An HTTP server's answer over 10 MB (a message, an event) closes its connection, as a stdio server's does; set once the client exists.
  const oversize = { close: (): void => undefined };
  const { transport, processes, stderrEnded } = await makeTransport(config, options, onStderr, () => oversize.close());
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
  const tooLarge = 'sent a message larger than 10 MB, so the connection was closed';
  oversize.close = () => {
    closedReason ??= tooLarge;
    stopped = true;
    void client.close().catch(() => undefined);
  };
  let errors = 0;
  client.onerror = (error) => {
    // The SDK closes a stdio connection whose message exceeds its buffer (10 MB); the process may take a while to exit, so it counts as stopped now.
    if (/ReadBuffer exceeded/.test(error.message)) {
      closedReason ??= tooLarge;
      stopped = true;
    }
    // Its messages quote what the server sent (a line of its stdout that is no JSON, with its controls).
    errors += 1;
    if (errors <= maxLoggedServerErrors) options.log?.(`[server ${config.name}: ${visibleControls(capText(error.message, 500))}]\n`);
    if (errors === maxLoggedServerErrors) options.log?.(`[server ${config.name}: ${maxLoggedServerErrors} errors logged, any more are not]\n`);
  };
  const stderrTail = (): string => visibleControls(tail.text.trim());
  const failure = (what: string): Error => {
    const shownTail = stderrTail();
    return new Error(`MCP server "${config.name}" ${what}.${shownTail ? ` Its last output (stderr):\n${shownTail}` : ''}`);
  };
  const stop = (): Promise<void> => {
    closedReason ??= 'was stopped by Task Planner';
    stopped = true;
    stopping ??= stopProcesses(client, processes());
    return stopping;
  };
  let tools: McpToolInfo[];
  try {
    // One limit for the whole start: each page of the tool list had the full limit, so a server answering 20 pages just
    // before it held a planning for 20 times as long.
    const deadline = Date.now() + options.startTimeoutMs;
    await client.connect(transport, { timeout: options.startTimeoutMs, ...(signal ? { signal } : {}) });
    tools = await listTools(client, deadline, signal, (line) => options.log?.(`${line}\n`));
  } catch (error) {
    // Read before stop() gives its own reason: the SDK only says "Connection closed" after an oversized message.
    const reason = closedReason;
    await stop();
    if (signal?.aborted) throw error;
    const seconds = Math.round(options.startTimeoutMs / 1000);
    const why = isTimeout(error) ? `it did not start and list its tools within ${seconds} s (timed out)` : inWords(errorMessage(error));
    throw failure(`could not be started: ${reason !== undefined && reason !== 'stopped' ? `it ${reason}` : why}`);
  }
  return {
    name: config.name,
    allowedTools: config.allowedTools,
    tools,
    stderrTail,
    stopped: () => stopped,
    stop,
    async callTool(tool, args, callSignal, onProgress): Promise<McpCallResult> {
      if (stopped) throw failure(`is not running (it ${closedReason ?? 'stopped'}), so tool "${tool}" was not called`);
      try {
        return (await client.callTool({ name: tool, arguments: args }, undefined, {
          signal: callSignal,
          timeout: options.callTimeoutMs,
          maxTotalTimeout: options.callTimeoutMs,
          // Asking for notifications adds a progress token to the request: only when someone listens.
          ...(onProgress
            ? {
                onprogress: ({ progress, total }: { progress: number; total?: number }) => onProgress(total === undefined ? { progress } : { progress, total }),
              }
            : {}),
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
        throw failure(`failed on tool "${tool}": ${inWords(errorMessage(error))}`);
      }
    },
  };
}

/**
 * Why a server could not be started or called, in the user's words where the SDK's own are about its API (a redirect it
 * did not follow: "Streamable HTTP error: … (redirectPolicy: 'same-origin')"), at a start as at any later call.
 */
function inWords(message: string): string {
  const redirect = /Redirect to (\S+) not followed/.exec(message);
  if (redirect) {
    return `it sent the request on to ${capText(redirect[1]!, 300)}, another address than the one set up, and Task Planner does not follow it there with the server's headers. If that is where the server is now, set its "url" to it`;
  }
  return capText(message, 2000);
}

async function makeTransport(
  config: McpServerConfig,
  options: McpConnectionOptions,
  onStderr: (chunk: Buffer | string) => void,
  oversized: () => void,
): Promise<{ transport: Transport; processes: () => ServerProcesses | undefined; stderrEnded: (maxMs: number) => Promise<void> }> {
  if (config.type === 'http') {
    return {
      // Its headers may carry the user's key: a redirect to another origin is not followed (the SDK's default, kept
      // explicit so an update of the SDK cannot change it; `fetch` itself would drop Authorization there but send
      // X-API-Key on). One within the origin is: the user gave the headers for that origin, and servers move between its
      // paths (`/mcp` → `/mcp/`), where refusing every redirect would break them for nothing. The start and each call
      // then fail saying where the server sent the request (`inWords`). The SDK reads an answer whole, however large: each is cut at
      // 10 MB (an event stream's at 10 MB an event), as the SDK cuts a stdio server's messages.
      transport: new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: { ...config.headers } },
        redirectPolicy: 'same-origin',
        fetch: mcpBoundedFetch(oversized),
      }),
      processes: () => undefined,
      stderrEnded: () => Promise.resolve(),
    };
  }
  const fileEnv = config.envFile === undefined ? {} : await readMcpEnvFile(config);
  const env = Object.fromEntries(
    Object.entries({ ...withoutSecrets(options.baseEnv), ...fileEnv, ...config.env }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const cwd = config.cwd === undefined ? config.source.folder : inFolder(config.source.folder, config.cwd);
  const { argv, namespaced } = await contained(config, cwd, env['PATH'], options.pidNamespace !== false);
  const [command, ...args] = argv;
  const transport = new StdioClientTransport({ command, args, env, cwd, stderr: 'pipe' });
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
  let processes: ServerProcesses | undefined;
  const start = transport.start.bind(transport);
  // The SDK starts the process inside connect(); its tree is followed from then on, so stop() reaches grandchildren (npx → node).
  transport.start = async () => {
    await start();
    if (transport.pid !== null) processes = { tree: followProcessTree(transport.pid), namespaced };
  };
  return { transport, processes: () => processes, stderrEnded };
}

/** A started stdio server's processes: the tree under the process we started, and whether that is the PID namespace launcher. */
interface ServerProcesses {
  tree: ProcessTree;
  namespaced: boolean;
}

/**
 * Closes `client` as the MCP specification says (its stdin ends, then after a while SIGTERM,
 * then SIGKILL), with the signals sent to the server itself and to everything it started:
 * the SDK's would reach only the namespace launcher, which ignores SIGTERM. Once closed, what
 * is left of the tree is killed (in a namespace, the kernel has already done it).
 */
async function stopProcesses(client: Client, processes: ServerProcesses | undefined): Promise<void> {
  // Seen while the server lives: a daemon it started in a session of its own is orphaned once the server exits.
  processes?.tree.look();
  const timers = processes
    ? [
        setTimeout(() => processes.tree.terminate(!processes.namespaced), closeGraceMs),
        setTimeout(() => processes.tree.kill(), closeGraceMs + killGraceMs),
      ]
    : [];
  await client.close().catch(() => undefined);
  for (const timer of timers) clearTimeout(timer);
  processes?.tree.kill();
}

/**
 * The argv that starts `config`'s program in a PID namespace of its own (the program found on
 * `PATH` first, as the launcher would report a missing one only as output), or as it is where
 * there are no namespaces or `namespace` is false.
 */
async function contained(
  config: Extract<McpServerConfig, { type: 'stdio' }>,
  cwd: string,
  pathVariable: string | undefined,
  namespace: boolean,
): Promise<{ argv: [string, ...string[]]; namespaced: boolean }> {
  const launcher = namespace ? await pidNamespaceLauncher() : undefined;
  if (launcher === undefined) return { argv: [config.command, ...config.args], namespaced: false };
  const found = findProgram(config.command, cwd, pathVariable);
  if (found === undefined) {
    throw new Error(
      `MCP server "${config.name}" could not be started: there is no program "${visibleControls(oneLine(config.command, 300))}" on its PATH or in ${visibleControls(oneLine(cwd, 300))}.`,
    );
  }
  const [unshare, ...rest] = launcher as [string, ...string[]];
  // The namespace's PID 1 ignores every signal it has no handler for, even a SIGKILL it sends itself: a shell waits
  // there, so the server is its child (a subshell that execs it) and dies of a signal as it would outside. The shell's
  // own stderr is /dev/null, so it adds nothing ("Killed") to the server's; the server keeps the real one.
  const init = ['/bin/sh', '-c', 'exec 3>&2 2>/dev/null; (exec "$@" 2>&3 3>&-); exit $?', 'sh'];
  // unshare is found on our PATH, where it was probed: the server's own env may set another.
  return { argv: [findProgram(unshare, cwd, process.env['PATH']) ?? unshare, ...rest, ...init, found, ...config.args], namespaced: true };
}

/** The server's tools, page after page until `deadline` (a time in ms): a page asked for at the deadline fails as timed out. */
async function listTools(client: Client, deadline: number, signal: AbortSignal | undefined, log: (line: string) => void): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const left = Math.max(1, deadline - Date.now());
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: left, maxTotalTimeout: left, ...(signal ? { signal } : {}) });
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

