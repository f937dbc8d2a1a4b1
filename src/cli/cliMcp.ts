import { lstat, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  type McpConfig,
  McpConfigError,
  type McpConfigSource,
  maxMcpConfigBytes,
  mcpServerTarget,
  mergeMcpConfigs,
  parseMcpConfigText,
} from '../core/mcp/mcpConfig';
import { mcpStartDecision } from '../core/mcp/mcpStartPolicy';
import type { Tool } from '../core/tools/tool';
import { McpServers } from '../node/mcpServers';
import { readBoundedText } from '../node/readBoundedText';
import { readFolderConfig } from '../node/readFolderConfig';
import { userCacheFolder } from '../node/userCacheFolder';
import { errorMessage } from '../shared/errorMessage';
import { type CliIo, UsageError, warningLine } from './cliIo';
import { cliTools } from './cliTools';

/** What the command line says about MCP servers. */
export interface CliMcpOptions {
  workspace: string;
  /** `--mcp-config FILE`: the user's own servers (started without asking; their `allowedTools` apply). */
  mcpConfig?: string | undefined;
  /** `--mcp-timeout SECONDS`: the longest wait for a server to start and for one tool call. */
  mcpTimeout?: string | undefined;
  /** `--yes`: a workspace's servers start without asking (and tool calls are approved, as every approval). */
  yes: boolean;
  /** `--allow-hard-links`: the workspace's mcp.json may be a file with several hard links. */
  allowHardLinks?: boolean | undefined;
  /** Where inputs are read from (`TASK_PLANNER_MCP_INPUT_<ID>`). */
  env: Readonly<Record<string, string | undefined>>;
}

/** The default of `--mcp-timeout`, in seconds. */
export const defaultMcpTimeoutSeconds = 60;

/**
 * Runs `body` with the tools of the configured MCP servers started (the user's
 * `--mcp-config FILE` first, then the workspace's `.vscode/mcp.json`), and stops every
 * server when it ends, however it ends. A workspace's server starts only with `--yes` or
 * when the user says yes on the terminal (it could run any program); a server that cannot
 * start is reported on stderr and its tools are missing, the others still work. An input
 * is read from `TASK_PLANNER_MCP_INPUT_<ID>`; a workspace's input is given that value only
 * with `--yes` or after a yes on the terminal to a question naming the variable (it may
 * hold the value of the user's own input of the same id), else it is not given.
 */
export async function withCliMcp<Result>(options: CliMcpOptions, io: CliIo, body: (tools: Tool[], servers: McpServers) => Promise<Result>): Promise<Result> {
  const config = await ownServersOutside(await loadCliMcpConfig(options.workspace, options.mcpConfig, options.allowHardLinks ?? false));
  for (const warning of config.warnings) io.err(`MCP warning: ${warningLine(warning)}`);
  const timeoutMs = parseMcpTimeout(options.mcpTimeout) * 1000;
  const controller = new AbortController();
  const servers = new McpServers({
    config,
    reserved: new Set(cliTools().names()),
    baseEnv: process.env,
    startTimeoutMs: timeoutMs,
    callTimeoutMs: timeoutMs,
    mayStart: (server, signal) => mayStartFromCli(server, options.yes, io, signal),
    inputValue: async (input, _server, signal) => {
      const variable = mcpInputVariable(input.id);
      const given = options.env[variable];
      const named = `MCP input "${input.id}" (${input.description || 'no description'})${input.source.origin === 'user' ? '' : ` of ${input.source.label}`}`;
      if (given !== undefined) {
        if (input.source.origin === 'user') return given;
        // The variable may hold the value of the user's own input of that id (a token): a repository's server gets it only when the user says so.
        if (options.yes) {
          io.err(`${named} is given the value of ${variable} from your environment (--yes).`);
          return given;
        }
        if (!io.interactive) {
          io.err(`${named} is not given the value of ${variable} from your environment: pass --yes, or answer on a terminal.`);
          return undefined;
        }
        const answer = (await io.ask(`${named}: give it the value of ${variable} from your environment? [y/N] `, signal)).trim().toLowerCase();
        if (answer === 'y' || answer === 'yes') return given;
        io.err(`${named} was not given the value of ${variable}.`);
        return undefined;
      }
      // A typed answer would be shown on the terminal, so secrets come from the environment only.
      if (input.password || !io.interactive) {
        io.err(`${named} is not set: give it in the environment variable ${variable}.`);
        return undefined;
      }
      const answer = await io.ask(`${named}: `, signal);
      return answer === '' ? undefined : answer;
    },
  });
  try {
    if (config.servers.length > 0) {
      io.err(`Starting ${config.servers.length} MCP server${config.servers.length === 1 ? '' : 's'}…`);
      await servers.start(controller.signal);
      for (const { config: server, state } of servers.list()) {
        if (state.state === 'failed' || state.state === 'not allowed') io.err(`MCP server "${server.name}" was not started: ${state.reason}`);
      }
    }
    return await body(servers.tools(), servers);
  } finally {
    controller.abort();
    await servers.stopAll();
  }
}

/**
 * `config` with each of the user's own servers started as a program and given no `cwd` (`--mcp-config`'s, which start
 * without asking) set to start in an empty folder of the user's (`ownServersFolder`), not in the workspace: there
 * `python -m <module>` runs the repository's `<module>/` (the working folder comes first on Python's path), `npx -y
 * <package>` the package its `node_modules` holds and installs from the registry its `.npmrc` names, and `uvx` reads its
 * `uv.toml`. An outside attack: the user's `python3 -m mcp_server_fetch`, started by `task-planner tools --mcp-config`
 * in a clone holding `mcp_server_fetch/__main__.py`, ran that file. A server that should work in the workspace says so
 * with `"cwd": "${workspaceFolder}"` (the user's own choice, as every variable of theirs). Unchanged without such servers.
 */
export async function ownServersOutside(config: McpConfig): Promise<McpConfig> {
  const moved = (server: McpConfig['servers'][number]): boolean => server.source.origin === 'user' && server.type === 'stdio' && server.cwd === undefined;
  if (!config.servers.some(moved)) return config;
  const folder = await ownServersFolder();
  return { ...config, servers: config.servers.map((server) => (moved(server) ? { ...server, cwd: folder } : server)) };
}

/**
 * An empty folder of the user's own for their servers to start in: `~/.cache/task-planner/mcp-servers` (made readable by
 * the user alone; used only while it is a real folder, not a link), else a new one in the temporary folder.
 */
async function ownServersFolder(): Promise<string> {
  const folder = join(userCacheFolder(), 'mcp-servers');
  try {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const found = await lstat(folder);
    if (found.isDirectory() && !found.isSymbolicLink() && (process.getuid === undefined || found.uid === process.getuid())) return folder;
  } catch {
    // A home folder that takes no new folder (read-only, a file named .cache): one made new below.
  }
  return mkdtemp(join(tmpdir(), 'task-planner-mcp-'));
}

/** The environment variable that gives the CLI the value of `${input:<id>}`. */
export function mcpInputVariable(id: string): string {
  return `TASK_PLANNER_MCP_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * The user's `--mcp-config` file (when given) and the workspace's `.vscode/mcp.json` (when
 * present), merged, the user's first. Each is read up to `maxMcpConfigBytes`; the
 * workspace's through its confinement (`readFolderConfig`: a regular file inside the
 * workspace, no link out of it). Throws a `UsageError` naming the file and what is wrong.
 */
export async function loadCliMcpConfig(workspace: string, userFile: string | undefined, allowHardLinks = false): Promise<McpConfig> {
  const configs: McpConfig[] = [];
  const folder = resolve(workspace);
  if (userFile !== undefined) configs.push(parsed(await readUserConfig(userFile), { label: userFile, origin: 'user', folder }));
  const workspaceFile = join(folder, '.vscode', 'mcp.json');
  let text: string | undefined;
  try {
    text = await readFolderConfig(folder, '.vscode/mcp.json', { label: `The MCP configuration ${workspaceFile}`, maxBytes: maxMcpConfigBytes, allowHardLinks });
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
  if (text !== undefined) configs.push(parsed(text, { label: workspaceFile, origin: 'workspace', folder }));
  return mergeMcpConfigs(configs);
}

/** The `--mcp-timeout` value in seconds. */
export function parseMcpTimeout(text: string | undefined): number {
  if (text === undefined) return defaultMcpTimeoutSeconds;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 1 || value > 3600) throw new UsageError(`--mcp-timeout must be a number of seconds from 1 to 3600, got "${text}".`);
  return value;
}

/** What starting a server does, by its type: a program runs, an address is connected to. */
const reaches: Record<McpConfig['servers'][number]['type'], string> = { stdio: 'runs', http: 'connects to' };

async function mayStartFromCli(server: McpConfig['servers'][number], yes: boolean, io: CliIo, signal: AbortSignal): Promise<true | string> {
  // The command line has no workspace trust: the user chose the folder; --yes is the answer given in advance.
  if (mcpStartDecision(server, { trusted: true, allowedBefore: yes }) === 'start') return true;
  const how = `it is defined by ${server.source.label}, and a workspace's server starts only when you allow it: pass --yes, or answer on a terminal`;
  if (!io.interactive) return how;
  const answer = (
    await io.ask(`Start MCP server "${server.name}" of ${server.source.label}? It ${reaches[server.type]}: ${mcpServerTarget(server)}\n[y/N] `, signal)
  ).toLowerCase();
  return answer === 'y' || answer === 'yes' ? true : 'you did not allow it';
}

function parsed(text: string, source: McpConfigSource): McpConfig {
  try {
    return parseMcpConfigText(text, source);
  } catch (error) {
    if (error instanceof McpConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/** The user's own `--mcp-config` file: any file they name (links followed), bounded all the same. */
async function readUserConfig(path: string): Promise<string> {
  let text: string | undefined;
  try {
    text = await readBoundedText(path, maxMcpConfigBytes);
  } catch (error) {
    throw new UsageError(`Cannot read the MCP configuration ${path}: ${errorMessage(error)}`);
  }
  if (text === undefined) throw new UsageError(`The MCP configuration ${path} is larger than ${maxMcpConfigBytes} bytes, the most read; make it smaller.`);
  return text;
}
