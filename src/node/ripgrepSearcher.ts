import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TextNarrowing, TextQuery, TextSearcher } from '../core/workspacePorts';
import { jsRegexToRe2 } from '../core/tools/jsRegexToRe2';
import { maxSearchFileBytes } from '../core/tools/searchTextTool';
import { tempFilePrefix } from '../core/workspace/atomicWrites';
import { withoutSecrets } from './commandEnvironment';
import { findProgram } from './findProgram';

/** Limits of `createRipgrepSearcher`. */
export interface RipgrepLimits {
  /** Longest a ripgrep run may take, in milliseconds, before it is stopped and every file is read instead. */
  timeoutMs?: number;
  /** Most bytes of output (paths) taken from one ripgrep run before it is stopped and every file is read instead. */
  maxOutputBytes?: number;
}

const defaultTimeoutMs = 30_000;
const defaultMaxOutputBytes = 64 * 1024 * 1024;

// Ripgrep's rules made to match the workspace listing: hidden files are listed, only
// `.gitignore` files inside the root count (also outside a git repository), `.git`,
// `node_modules`, `.task-planner` and temporary files are skipped, no configuration file or environment
// changes that, links are never followed (so nothing outside the root is read), and files
// too large for search_text are not searched.
export const ripgrepWalkFlags: readonly string[] = [
  '--no-config',
  '--hidden',
  '--no-require-git',
  '--no-ignore-dot',
  '--no-ignore-global',
  '--no-ignore-exclude',
  '--no-ignore-parent',
  '--no-messages',
  '--null',
  '--iglob',
  '!.git',
  '--glob',
  '!node_modules',
  '--glob',
  '!.task-planner',
  '--glob',
  `!${tempFilePrefix}*`,
  '--max-filesize',
  String(maxSearchFileBytes),
];

// JavaScript classes that match more than ripgrep's Unicode ones (`\W` holds "é" in
// JavaScript, not in ripgrep; `\b` differs likewise): a pattern with them is not narrowed.
const unsureEscapes = /\\[bBsWD]/;

/**
 * A `TextSearcher` over the ripgrep program at `rgPath` for the folder `root`: one run lists
 * the files it sees (`--files`), another the files with a matching line (`--files-with-matches`,
 * every file searched as text), both at once. A literal runs as a fixed string; a regular
 * expression as its RE2 form (`jsRegexToRe2`), unless it uses a class whose meaning differs.
 * Any failure (the program missing or refusing the pattern, a time or output limit) answers
 * `undefined`, so the caller reads every file itself.
 */
export function createRipgrepSearcher(rgPath: string, root: string, limits: RipgrepLimits = {}): TextSearcher {
  const timeoutMs = limits.timeoutMs ?? defaultTimeoutMs;
  const maxOutputBytes = limits.maxOutputBytes ?? defaultMaxOutputBytes;
  return {
    // Ripgrep walks the folder itself, under the same rules as the listing, while it is made.
    async narrow(query, _listed, signal) {
      signal?.throwIfAborted();
      const searchFlags = queryFlags(query);
      if (searchFlags === undefined) return undefined;
      const run = (flags: string[]): Promise<Set<string> | undefined> =>
        runPaths(rgPath, root, [...ripgrepWalkFlags, ...flags, '.'], { timeoutMs, maxOutputBytes, signal });
      const [seen, matched] = await Promise.all([run(['--files']), run(['--files-with-matches', '--text', ...searchFlags])]);
      if (seen === undefined || matched === undefined) return undefined;
      return { seen, matched } satisfies TextNarrowing;
    },
  };
}

/** Ripgrep's flags for `query`; `undefined` when ripgrep might miss a line `search_text` matches. */
function queryFlags(query: TextQuery): string[] | undefined {
  // search_text reads a file's invalid UTF-8 as U+FFFD, which ripgrep does not match against the raw bytes.
  if (query.pattern.includes('\uFFFD')) return undefined;
  const caseFlag = query.caseSensitive ? '--case-sensitive' : '--ignore-case';
  if (!query.regex) return ['--fixed-strings', caseFlag, '--regexp', query.pattern];
  if (unsureEscapes.test(query.pattern)) return undefined;
  let pattern: string;
  try {
    pattern = jsRegexToRe2(query.pattern);
  } catch {
    return undefined;
  }
  // search_text matches each line without its "\r", as --crlf does.
  return ['--crlf', caseFlag, '--regexp', pattern];
}

interface RunLimits {
  timeoutMs: number;
  maxOutputBytes: number;
  signal: AbortSignal | undefined;
}

/** The workspace-relative paths ripgrep prints (NUL-separated, `./` first); `undefined` when it fails or a limit stops it. */
function runPaths(rgPath: string, root: string, args: string[], limits: RunLimits): Promise<Set<string> | undefined> {
  return new Promise((resolve, reject) => {
    // Without the credentials the editor's or the CLI's environment may hold, as every command and MCP server.
    const child = spawn(rgPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true, env: withoutSecrets(process.env) });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let settled = false;
    const finish = (outcome: Set<string> | undefined, error?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill();
      if (error === undefined) resolve(outcome);
      else reject(error);
    };
    const onAbort = (): void => {
      const reason: unknown = limits.signal?.reason;
      finish(undefined, reason instanceof Error ? reason : new Error('The search was cancelled'));
    };
    const timer = setTimeout(() => finish(undefined), limits.timeoutMs);
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limits.maxOutputBytes) finish(undefined);
      else chunks.push(chunk);
    });
    child.on('error', () => finish(undefined));
    child.on('close', (code) => {
      // 0: something found, 1: nothing found; anything else (2: an error, such as an unreadable file) may have left files out.
      if (code !== 0 && code !== 1) return finish(undefined);
      finish(parsePaths(Buffer.concat(chunks).toString('utf8')));
    });
  });
}

function parsePaths(output: string): Set<string> {
  const paths = new Set<string>();
  for (let entry of output.split('\0')) {
    if (entry === '') continue;
    if (path.sep === '\\') entry = entry.replaceAll('\\', '/');
    paths.add(entry.startsWith('./') ? entry.slice(2) : entry);
  }
  return paths;
}

/**
 * Where the ripgrep that VS Code ships lies under its `appRoot` (`vscode.env.appRoot`):
 * `@vscode/ripgrep` (unpacked from the asar archive in the desktop builds), the older
 * `vscode-ripgrep`, or the per-platform binaries of `@vscode/ripgrep-universal`
 * (code-server); `undefined` when none is an executable file.
 */
export function findBundledRipgrep(appRoot: string, platform: NodeJS.Platform = process.platform, arch: string = process.arch): string | undefined {
  const binary = platform === 'win32' ? 'rg.exe' : 'rg';
  const candidates = ['node_modules.asar.unpacked', 'node_modules'].flatMap((modules) => [
    path.join(appRoot, modules, '@vscode', 'ripgrep', 'bin', binary),
    path.join(appRoot, modules, 'vscode-ripgrep', 'bin', binary),
    path.join(appRoot, modules, '@vscode', 'ripgrep-universal', 'bin', `${platform}-${arch}`, binary),
  ]);
  return candidates.find(isExecutableFile);
}

/**
 * The `rg` in an absolute directory of `PATH` (`pathVariable`), for the command line;
 * `undefined` when there is none. Relative entries are passed over: they would let the
 * workspace itself supply the program.
 */
export function findRipgrepOnPath(pathVariable: string | undefined): string | undefined {
  const absolute = (pathVariable ?? '').split(path.delimiter).filter((directory) => path.isAbsolute(directory));
  if (absolute.length === 0) return undefined;
  return findProgram(process.platform === 'win32' ? 'rg.exe' : 'rg', path.parse(process.cwd()).root, absolute.join(path.delimiter));
}

function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
