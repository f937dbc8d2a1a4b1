import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { resolveMcpVariables, type McpServerConfig } from '../core/mcp/mcpConfig';
import { visibleControls } from '../shared/visibleCharacters';
import { oneLine } from '../core/text/oneLine';
import { WorkspaceConfigError } from '../core/workspace/readWorkspaceConfig';
import { errorMessage } from '../shared/errorMessage';
import { readBoundedText } from './readBoundedText';
import { readFolderConfig } from './readFolderConfig';
import { leadsOutside } from '../shared/leadsOutside';

/** The most bytes read of a server's env file. */
export const maxEnvFileBytes = 100_000;

type StdioServer = Extract<McpServerConfig, { type: 'stdio' }>;

/** `path` as given when absolute, else under `folder`. */
export function inFolder(folder: string, path: string): string {
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
 * The variables of `config`'s env file (variables resolved): `NAME=value` lines, `#`
 * comments, optional quotes. A workspace's server reads only a regular file inside the
 * folder of its mcp.json, through that folder's confinement (`readFolderConfig`: no link
 * out, no device or pipe); the user's own may name any file. Either is read up to
 * `maxEnvFileBytes`, counted as read. Every failure is an `Error` naming the server and the file.
 */
export async function readMcpEnvFile(config: StdioServer): Promise<Record<string, string>> {
  const path = await envFilePath(config);
  const what = `MCP server "${config.name}": its envFile ${shown(path)}`;
  let text: string | undefined;
  try {
    text =
      config.source.origin === 'workspace'
        ? await readFolderConfig(config.source.folder, path, { label: what, maxBytes: maxEnvFileBytes })
        : await readBoundedText(path, maxEnvFileBytes);
  } catch (error) {
    if (error instanceof WorkspaceConfigError && error.problem === 'outside') throw outsideError(config, path);
    if (error instanceof WorkspaceConfigError) throw error;
    throw new Error(`${what} cannot be read: ${errorMessage(error)}`, { cause: error });
  }
  if (text === undefined) {
    throw new Error(config.source.origin === 'workspace' ? `${what} does not exist.` : `${what} is larger than ${maxEnvFileBytes} bytes, the most read.`);
  }
  const env: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(?:\s*(\S(?:.*\S)?))?\s*$/.exec(line);
    if (!match) continue;
    const raw = match[2] ?? '';
    env[match[1] as string] = /^(["']).*\1$/.test(raw) ? raw.slice(1, -1) : raw;
  }
  return env;
}

/**
 * Where `config`'s envFile is. A workspace's server may only read one inside the workspace
 * folder (links resolved): its configuration is anyone's who wrote the repository, and a
 * file such as /proc/self/environ or another project's .env would hand it our secrets.
 */
async function envFilePath(config: StdioServer): Promise<string> {
  const folder = config.source.folder;
  const path = inFolder(folder, config.envFile ?? '');
  if (config.source.origin !== 'workspace') return path;
  const [real, realFolder] = await Promise.all([realpath(path).catch(() => resolve(path)), realpath(folder).catch(() => resolve(folder))]);
  const inside = relative(realFolder, real);
  if (inside === '' || leadsOutside(inside) || isAbsolute(inside)) throw outsideError(config, path);
  return path;
}

function outsideError(config: StdioServer, path: string): Error {
  return new Error(
    `MCP server "${config.name}": its envFile ${shown(path)} is outside its workspace folder ${shown(config.source.folder)}; a workspace's server may only read an env file inside the folder of its mcp.json.`,
  );
}

function shown(path: string): string {
  return visibleControls(oneLine(path, 300));
}
