import { createHash } from 'node:crypto';
import { z } from 'zod';
import { visibleControls } from '../../shared/visibleCharacters';
import { capText } from '../text/capText';
import { oneLine } from '../text/oneLine';
import { actingCharacter } from '../../shared/vocabulary';

/** Where a server's configuration came from: the user's own (settings, `--mcp-config`) or a workspace's `.vscode/mcp.json`. */
export type McpOrigin = 'user' | 'workspace';

/** Where a configuration was read, and the folder its servers belong to. */
export interface McpConfigSource {
  /** For messages: "…/.vscode/mcp.json", "the setting taskPlanner.mcp.servers". */
  label: string;
  origin: McpOrigin;
  /**
   * The absolute folder its servers' `${workspaceFolder}`, relative `cwd` and `envFile`
   * mean: a workspace file's own folder (in a multi-root window, each folder's file its
   * folder), which a workspace server's env file must not leave.
   */
  folder: string;
}

/** A server started as a child process speaking MCP on its stdin and stdout. */
export interface McpStdioServer {
  type: 'stdio';
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  /** A file of `NAME=value` lines added to `env` (relative to its source's folder). */
  envFile?: string;
  /** The working directory (relative to its source's folder); default: that folder. */
  cwd?: string;
}

/** A server reached over MCP's streamable HTTP transport. */
export interface McpHttpServer {
  type: 'http';
  url: string;
  headers: Readonly<Record<string, string>>;
}

/** One configured MCP server. */
export type McpServerConfig = (McpStdioServer | McpHttpServer) & {
  name: string;
  source: McpConfigSource;
  /**
   * Tools called without asking: `"*"` for all, else tool names as the server lists them.
   * Always empty for a workspace's server: a workspace cannot pre-allow its own tools.
   */
  allowedTools: readonly string[];
};

/**
 * A secret or value asked from the user once (`${input:<id>}`), for the servers of the configuration that declares it
 * (`source`): a value given for one source's input is never another's of the same id (`mcpInputKey`).
 */
export interface McpInput {
  id: string;
  description: string;
  password: boolean;
  source: McpConfigSource;
}

/**
 * Which value `${input:<id>}` means in a configuration of `source`: the user's own configurations (settings,
 * `--mcp-config`) share their inputs, and each workspace folder's file has its own, so a repository's
 * `.vscode/mcp.json` that declares an input of the same id as the user's (or another folder's) is asked for its own
 * value instead of being given theirs. Stable across sessions: it keys stored values (the user's are the bare id).
 */
export function mcpInputKey(id: string, source: McpConfigSource): string {
  return source.origin === 'user' ? id : `${source.folder}#${id}`;
}

/**
 * The key a value given for `input` is kept and reused under when `server` asks for it: the user's own inputs by
 * `mcpInputKey` alone (their configuration chose where the value goes), a workspace's also by everything that decides
 * where it goes (`mcpServerLaunchKey`: address, headers, command, environment), so a repository that changes its
 * server's address is asked for the value anew instead of being sent the one typed for the old address.
 */
export function mcpInputValueKey(input: McpInput, server: McpServerConfig): string {
  const key = mcpInputKey(input.id, input.source);
  return input.source.origin === 'user' ? key : `${key}@${createHash('sha256').update(mcpServerLaunchKey(server)).digest('hex').slice(0, 32)}`;
}

/** A parsed configuration: its servers, the inputs they use, and what was ignored (in words). */
export interface McpConfig {
  servers: McpServerConfig[];
  inputs: McpInput[];
  warnings: string[];
}

/** A configuration that cannot be used; the message names the file or setting and the field. */
export class McpConfigError extends Error {
  override readonly name = 'McpConfigError';
}

const stringMap = z.record(z.string(), z.string());
const allowedTools = z.array(z.string().min(1)).max(1000).optional();
const stdioServer = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'the command is empty'),
  args: z.array(z.string()).default([]),
  env: stringMap.default({}),
  envFile: z.string().min(1).optional(),
  cwd: z.string().optional(),
  allowedTools,
  dev: z.unknown().optional(),
});
const httpServer = z.strictObject({
  type: z.literal('http'),
  url: z.url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' }),
  headers: stringMap.default({}),
  allowedTools,
  dev: z.unknown().optional(),
});
const serverEntry = z.unknown().transform((value, ctx) => {
  const isHttp = typeof value === 'object' && value !== null && 'type' in value && value.type === 'http';
  const parsed = (isHttp ? httpServer : stdioServer).safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  return z.NEVER;
});
const input = z.object({
  type: z.literal('promptString', { error: 'only "promptString" inputs are supported' }),
  id: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, 'use 1 to 100 letters, digits, "_", "." or "-"'),
  description: z.string().max(500).default(''),
  password: z.boolean().default(false),
});
// A server's name is shown in every question about it, on the terminal too: it must not be able to add a line or hide one.
const serverName = z
  .string()
  .min(1, 'a server name is empty')
  .max(200)
  .refine(
    (name) => !actingCharacter.test(name) && !/[\u2028\u2029]/.test(name),
    'a server name holds a line break, a tab or another control character; use letters, digits, spaces and punctuation',
  );
const configFile = z.object({
  servers: z.record(serverName, serverEntry).default({}),
  inputs: z.array(input).max(100).default([]),
});

/** Most servers one configuration may define. */
export const maxMcpServers = 50;
/** The most bytes read of one MCP configuration file (a workspace's `.vscode/mcp.json`, the CLI's `--mcp-config`); a larger one is refused. */
export const maxMcpConfigBytes = 1_000_000;

/**
 * Reads `value` (the parsed JSON of a `.vscode/mcp.json`, or the setting's value) in VS
 * Code's own format: `servers` by name (no line break or other control character in a
 * name, so a question naming the server cannot be forged by it), each `stdio` (`command`, `args`, `env`, `envFile`;
 * `type` may be left out) or `http` (`url`, `headers`), plus `inputs` (`promptString`).
 * Strings may use `${workspaceFolder}` and `${input:<id>}` of a declared input; any other
 * variable is an error, since it would be passed on unexpanded. `allowedTools` is kept only
 * for the user's own configuration (a warning says it was ignored in a workspace's).
 * Throws `McpConfigError` naming `source` and the field.
 */
export function parseMcpConfig(value: unknown, source: McpConfigSource): McpConfig {
  const parsed = configFile.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 10).map((issue) => `  - ${fieldName(issue.path)}: ${issueMessage(issue)}`);
    throw new McpConfigError(`${source.label} is not a valid MCP configuration:\n${problems.join('\n')}`);
  }
  const entries = Object.entries(parsed.data.servers);
  if (entries.length > maxMcpServers) {
    throw new McpConfigError(`${source.label} defines ${entries.length} MCP servers; at most ${maxMcpServers} are supported.`);
  }
  const inputs = parsed.data.inputs;
  const declared = new Set(inputs.map((item) => item.id));
  const warnings = unknownKeyWarnings(value, source);
  const servers = entries.map(([name, entry]): McpServerConfig => {
    checkVariables(entry, `servers.${name}`, declared, source);
    const allowed = entry.allowedTools ?? [];
    if (source.origin === 'workspace' && allowed.length > 0) {
      warnings.push(`${source.label}: "allowedTools" of server "${shown(name)}" was ignored: only your own settings can allow tools to run without asking.`);
    }
    const common = { name, source, allowedTools: source.origin === 'user' ? allowed : [] };
    if (entry.type === 'http') return { ...common, type: 'http', url: entry.url, headers: entry.headers };
    return {
      ...common,
      type: 'stdio',
      command: entry.command,
      args: entry.args,
      env: entry.env,
      ...(entry.envFile !== undefined ? { envFile: entry.envFile } : {}),
      ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}),
    };
  });
  return { servers, inputs: inputs.map(({ id, description, password }) => ({ id, description, password, source })), warnings };
}

/**
 * What the configuration holds beside `servers` and `inputs`, which nothing reads: a server put at the top (the setting
 * written as its name suggests) or a key of another tool's format (`mcpServers`) would otherwise be dropped unsaid.
 */
function unknownKeyWarnings(value: unknown, source: McpConfigSource): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const unknown = Object.keys(value).filter((key) => key !== 'servers' && key !== 'inputs');
  if (unknown.length === 0) return [];
  const named = unknown.slice(0, 5).map((key) => `"${shown(key)}"`).join(', ') + (unknown.length > 5 ? ` and ${unknown.length - 5} more` : '');
  return [
    `${source.label}: ${named} ${unknown.length === 1 ? 'was' : 'were'} ignored: an MCP configuration holds only "servers" and "inputs". Put each server under "servers", by its name: { "servers": { "my-server": { "command": "…", "args": [] } } }.`,
  ];
}

/**
 * Reads a configuration file's text: JSON with `//` and `/* *\/` comments and trailing
 * commas, as VS Code writes it. Throws `McpConfigError` naming `source` when it is not.
 */
export function parseMcpConfigText(text: string, source: McpConfigSource): McpConfig {
  let value: unknown;
  try {
    value = JSON.parse(withoutJsonComments(text));
  } catch (error) {
    throw new McpConfigError(`${source.label} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseMcpConfig(value, source);
}

/**
 * One configuration from several, in the order given (the user's first): a server name
 * defined twice keeps its first definition (so a workspace cannot replace a server of the
 * user's) and a warning names the one left out; inputs are merged the same way by `mcpInputKey` (each workspace
 * folder's apart from the user's).
 */
export function mergeMcpConfigs(configs: readonly McpConfig[]): McpConfig {
  const servers = new Map<string, McpServerConfig>();
  const inputs = new Map<string, McpInput>();
  const warnings: string[] = [];
  for (const config of configs) {
    warnings.push(...config.warnings);
    for (const server of config.servers) {
      const kept = servers.get(server.name);
      if (kept) {
        const why = `${kept.source.label} defines a server of that name; give one of them another name`;
        warnings.push(`MCP server "${shown(server.name)}" of ${server.source.label} was ignored: ${why}.`);
      }
      else servers.set(server.name, server);
    }
    for (const item of config.inputs) {
      const key = mcpInputKey(item.id, item.source);
      if (!inputs.has(key)) inputs.set(key, item);
    }
  }
  return { servers: [...servers.values()], inputs: [...inputs.values()], warnings };
}

/** The ids of the inputs a server's strings use (`${input:<id>}`), each once. */
export function inputsUsedBy(server: McpServerConfig): string[] {
  const ids = new Set<string>();
  for (const text of serverStrings(server)) for (const match of text.matchAll(/\$\{input:([^}]*)\}/g)) ids.add(match[1] ?? '');
  return [...ids];
}

/**
 * `server` with `${workspaceFolder}` (its source's folder) and `${input:<id>}` replaced by
 * their values in every string. `inputs` must hold a value for each id of `inputsUsedBy(server)`.
 */
export function resolveMcpVariables(server: McpServerConfig, inputs: Readonly<Record<string, string>>): McpServerConfig {
  const replace = (text: string): string =>
    text.replace(/\$\{(workspaceFolder|input:([^}]*))\}/g, (_whole, _kind: string, id: string | undefined) =>
      id === undefined ? server.source.folder : (inputs[id] ?? ''),
    );
  const map = (record: Readonly<Record<string, string>>): Record<string, string> =>
    Object.fromEntries(Object.entries(record).map(([key, value]) => [key, replace(value)]));
  if (server.type === 'http') return { ...server, url: replace(server.url), headers: map(server.headers) };
  return {
    ...server,
    command: replace(server.command),
    args: server.args.map(replace),
    env: map(server.env),
    ...(server.envFile !== undefined ? { envFile: replace(server.envFile) } : {}),
    ...(server.cwd !== undefined ? { cwd: replace(server.cwd) } : {}),
  };
}

/**
 * How a server is started, on one line, for a question or a list: the URL, or the command
 * line preceded by the variables its `env` sets (`NODE_OPTIONS` or `PATH` there decide what
 * actually runs) and followed by its `cwd` and `envFile`. Bounded, controls shown as escapes.
 */
export function mcpServerTarget(server: McpServerConfig): string {
  return visibleControls(oneLine(capText(fullTarget(server), maxShownTargetChars), maxShownTargetChars));
}

/** Most characters of a server's launch a question shows (`mcpServerTarget`). */
export const maxShownTargetChars = 1000;

/**
 * How many characters `server`'s whole launch takes when shown (environment, command,
 * arguments, options; or the URL), before any cut: above `maxShownTargetChars` a question
 * about it could not show all of it.
 */
export function mcpServerTargetLength(server: McpServerConfig): number {
  return fullTarget(server).length;
}

function fullTarget(server: McpServerConfig): string {
  return server.type === 'http' ? httpTarget(server) : stdioTarget(server);
}

/** The URL, then the headers sent with every request (an `${input:…}` in them shown as such): both decide where what goes. */
function httpTarget(server: McpHttpServer): string {
  const headers = Object.entries(server.headers).map(([name, value]) => `${name}: ${value}`);
  return headers.length === 0 ? server.url : `${server.url} with the headers ${headers.join('; ')}`;
}

/**
 * Everything that decides what a server runs (command, arguments, environment, env file,
 * working folder, the folder its configuration belongs to; URL and headers), unbounded: an
 * answer remembered under this key is asked again when any of it changes, even past what
 * `mcpServerTarget` can show.
 */
export function mcpServerLaunchKey(server: McpServerConfig): string {
  return JSON.stringify(
    server.type === 'http'
      ? [server.name, 'http', server.url, server.headers, server.source.folder]
      : [server.name, 'stdio', server.command, server.args, server.env, server.envFile ?? null, server.cwd ?? null, server.source.folder],
  );
}

function stdioTarget(server: McpStdioServer): string {
  const quoted = (part: string): string => (/[\s"']/.test(part) || part === '' ? JSON.stringify(part) : part);
  const env = Object.entries(server.env).map(([name, value]) => `${quoted(name)}=${quoted(value)}`);
  const where = [
    ...(server.cwd !== undefined ? [`in ${quoted(server.cwd)}`] : []),
    ...(server.envFile !== undefined ? [`with the variables of ${quoted(server.envFile)}`] : []),
  ];
  return [...env, ...[server.command, ...server.args].map(quoted)].join(' ') + (where.length > 0 ? ` (${where.join(', ')})` : '');
}

function serverStrings(server: McpServerConfig): string[] {
  if (server.type === 'http') return [server.url, ...Object.values(server.headers)];
  return [
    server.command,
    ...server.args,
    ...Object.values(server.env),
    ...(server.envFile !== undefined ? [server.envFile] : []),
    ...(server.cwd !== undefined ? [server.cwd] : []),
  ];
}

function checkVariables(entry: unknown, path: string, declared: ReadonlySet<string>, source: McpConfigSource): void {
  const visit = (value: unknown, at: string): void => {
    if (typeof value === 'string') {
      for (const match of value.matchAll(/\$\{([^}]*)\}/g)) {
        const name = match[1] ?? '';
        if (name === 'workspaceFolder') continue;
        if (name.startsWith('input:') && declared.has(name.slice('input:'.length))) continue;
        const why = name.startsWith('input:')
          ? `no input with id "${shown(name.slice(6))}" is declared in "inputs"`
          : 'only ${workspaceFolder} and ${input:<id>} are supported';
        throw new McpConfigError(`${source.label}: ${at} uses \${${shown(name)}}: ${why}.`);
      }
    } else if (Array.isArray(value)) value.forEach((item, index) => visit(item, `${at}[${index}]`));
    else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) if (key !== 'dev') visit(item, `${at}.${key}`);
  };
  visit(entry, path);
}

/** An issue's message; for a refused name (a record's key), why the name was refused instead of zod's "Invalid key in record". */
function issueMessage(issue: z.core.$ZodIssue): string {
  return issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
}

function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'the file';
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index > 0 ? '.' : ''}${shown(String(part))}`)).join('');
}

function shown(text: string): string {
  return visibleControls(oneLine(text, 100));
}

/** `text` with JSON comments blanked and trailing commas removed, strings untouched. */
function withoutJsonComments(text: string): string {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    if (char === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      out += text.slice(index, end + 1);
      index = end + 1;
    } else if (char === '/' && text[index + 1] === '/') {
      while (index < text.length && text[index] !== '\n') index++;
    } else if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      index = end < 0 ? text.length : end + 2;
      out += ' ';
    } else {
      // A trailing comma (only whitespace before the closing bracket) is dropped.
      if (char !== ',' || !/^\s*[}\]]/.test(text.slice(index + 1, index + 200))) out += char;
      index++;
    }
  }
  return out;
}
