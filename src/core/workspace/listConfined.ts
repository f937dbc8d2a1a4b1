import type { RawDirectoryFs, RawEntryType, WorkspaceListing } from '../workspacePorts';
import { tempFilePrefix } from './atomicWrites';
import { entryOf, releaseEntry } from './confinedEntry';
import type { ConfinedWalk } from './confinedWalk';
import { compileGlob } from './globMatcher';
import { alwaysSkipped, IgnoreRules } from './ignoreRules';
import { isPermissionDenied } from './workspaceError';

/**
 * The largest `.gitignore` honoured, in bytes; a larger one ignores nothing and is never read
 * (git, too, skips a pattern file over its limit): a repository's file of a few hundred MB,
 * which compresses to almost nothing, would otherwise make every listing read it.
 */
export const maxGitignoreBytes = 1_000_000;

interface ListState<Handle> {
  raw: RawDirectoryFs<Handle>;
  walk: ConfinedWalk<Handle>;
  matches: (path: string) => boolean;
  out: string[];
  unreadable: string[];
  links: string[];
  signal: AbortSignal | undefined;
  breathe: () => Promise<void>;
}

/**
 * Workspace-relative paths of the files under the root matching `glob` (every file without
 * one), sorted by code unit. Honours `.gitignore` files at every level, skips `.git`,
 * `node_modules`, `.task-planner` and temporary files, does not descend into linked directories, and lists a
 * file link only when it leads to a file inside the root (named in `links` too). A folder below the root that may not
 * be read (permissions) is left out and named in `unreadable` (ignored folders are not
 * looked at, so never named); a name holding a backslash (which no workspace path can name)
 * is left out. Rejects when `signal` aborts.
 */
export async function listConfined<Handle>(
  raw: RawDirectoryFs<Handle>,
  walk: ConfinedWalk<Handle>,
  glob: string | undefined,
  signal: AbortSignal | undefined,
  breathe: () => Promise<void>,
): Promise<WorkspaceListing> {
  const matches = glob === undefined ? () => true : compileGlob(glob);
  const state: ListState<Handle> = { raw, walk, matches, out: [], unreadable: [], links: [], signal, breathe };
  await listDirectory(state, await walk.openRoot(''), '', IgnoreRules.empty());
  return { files: state.out.sort(compareCodeUnits), unreadable: state.unreadable.sort(compareCodeUnits), links: state.links.sort(compareCodeUnits) };
}

/** Lists the directory open as `handle` (closing it) and those below it, depth first, each opened through its parent's handle. */
async function listDirectory<Handle>(state: ListState<Handle>, handle: Handle, relative: string, inherited: IgnoreRules): Promise<void> {
  try {
    state.signal?.throwIfAborted();
    await state.breathe();
    // A folder below the root that may not be read is left out, as git and ripgrep leave it out.
    const entries = await state.raw.readDirectory(handle).catch(relative === '' ? rethrow : unlessDenied);
    if (entries === undefined) {
      state.unreadable.push(relative);
      return;
    }
    let rules = inherited;
    if (entries.some((entry) => entry.name === '.gitignore' && entry.type === 'file')) {
      // An unreadable (or too large) .gitignore ignores nothing.
      const text = await readSmallFile(state.raw, handle, '.gitignore').catch(unlessDenied);
      if (text !== undefined) rules = rules.withFile(relative, text);
    }
    for (const { name, type } of entries) {
      // A name holding a backslash cannot be named: workspace paths read it as a separator ("a\\b" is a/b, another file).
      if (alwaysSkipped.has(name) || name.startsWith(tempFilePrefix) || name.includes('\\')) continue;
      const childRelative = relative === '' ? name : `${relative}/${name}`;
      if (type === 'directory') {
        if (rules.ignores(childRelative, true)) continue;
        const child = await state.walk.openChild(handle, name, childRelative).catch(unlessDenied);
        if (child === undefined) state.unreadable.push(childRelative);
        else await listDirectory(state, child, childRelative, rules);
        continue;
      }
      if (!state.matches(childRelative) || rules.ignores(childRelative, false)) continue;
      if (type === 'file') state.out.push(childRelative);
      else if (await isLinkToFileInside(state, type, childRelative)) {
        state.out.push(childRelative);
        state.links.push(childRelative);
      }
    }
  } finally {
    state.raw.close(handle);
  }
}

function rethrow(error: unknown): never {
  throw error;
}

/** `undefined` for a refused access (see `isPermissionDenied`); any other failure is thrown on. */
function unlessDenied(error: unknown): undefined {
  if (isPermissionDenied(error)) return undefined;
  throw error;
}

/** `true` for a link that leads to a file inside the root. */
async function isLinkToFileInside<Handle>(state: ListState<Handle>, type: RawEntryType, relative: string): Promise<boolean> {
  // Stryker disable next-line ConditionalExpression: an entry of another type (a pipe, a device) gets the same answer from the link check below, only slower.
  if (type !== 'link') return false;
  // Out of the root, a loop: not listed.
  const entry = await entryOf(state.walk, state.raw, relative, relative, {}).catch(() => undefined);
  if (entry === undefined) return false;
  releaseEntry(state.walk, entry);
  return entry.stats?.type === 'file';
}

/** A regular file's text (of at most `maxGitignoreBytes`), read without following a link or blocking; `undefined` for anything else. */
async function readSmallFile<Handle>(raw: RawDirectoryFs<Handle>, directory: Handle, name: string): Promise<string | undefined> {
  const file = await raw.openFile(directory, name);
  if (typeof file !== 'object') return undefined;
  try {
    return file.stat.type === 'file' && file.stat.size <= maxGitignoreBytes ? await file.read() : undefined;
  } finally {
    await file.close();
  }
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
