import * as path from 'node:path';
import type { ExpectedContent, FileStat, ReadOptions, WorkspaceFs } from '../../src/core/workspacePorts';
import { changedMeanwhileError, isExpectedContent, sha256OfBytes } from '../../src/core/workspace/expectedContent';
import { compileGlob } from '../../src/core/workspace/globMatcher';
import { IgnoreRules } from '../../src/core/workspace/ignoreRules';
import { PathRefusedError, resolveInRoot } from '../../src/core/workspace/resolveInRoot';
import { WorkspaceError } from '../../src/core/workspace/workspaceError';

/** An in-memory `WorkspaceFs` with inspection helpers; passes the same conformance suite as the Node one. */
export interface MemoryWorkspace extends WorkspaceFs {
  readBytes(path: string, signal?: AbortSignal, options?: ReadOptions): Promise<Uint8Array>;
  /** Every file and its text, by workspace-relative path. */
  snapshot(): Record<string, string>;
  /**
   * Makes the next `writeText` to `path` fail with `error` before anything changes, or with `afterWriting` once the text
   * is written (a failure reported after the bytes landed: a flush, a rename's report).
   */
  failNextWrite(path: string, error: Error, options?: { afterWriting?: boolean }): void;
}

const root = '/memory-workspace';

/** A memory workspace rooted at `/memory-workspace`, holding `files` (path → text). */
export function createMemoryWorkspace(files: Record<string, string> = {}): MemoryWorkspace {
  const texts = new Map<string, string>();
  const directories = new Set<string>(['']);
  const failures = new Map<string, { error: Error; afterWriting: boolean }>();
  const resolve = async (input: string) => (await resolveInRoot(input, { root })).relative;
  const ensureParents = (relative: string) => {
    const parts = relative.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (texts.has(dir)) throw new WorkspaceError('not_directory', relative, `Cannot create directory ${dir}: a file is in the way`);
    }
    for (let i = 1; i < parts.length; i++) directories.add(parts.slice(0, i).join('/'));
  };
  for (const [file, text] of Object.entries(files)) {
    const relative = path.posix.normalize(file);
    ensureParents(relative);
    texts.set(relative, text);
  }

  const readText = async (input: string, signal?: AbortSignal, options?: ReadOptions): Promise<string> => {
    signal?.throwIfAborted();
    const relative = await resolve(input);
    if (directories.has(relative)) throw new WorkspaceError('is_directory', input, `${relative || '.'} is a directory, not a file`);
    const text = texts.get(relative);
    if (text === undefined) throw new WorkspaceError('not_found', input, `File not found: ${relative}`);
    const refused = options?.refuseTarget?.(relative, input);
    if (refused !== undefined) throw refused;
    const size = new TextEncoder().encode(text).length;
    if (options?.maxBytes !== undefined && size > options.maxBytes) {
      throw new WorkspaceError('too_large', input, `${relative} is ${size} bytes, more than the ${options.maxBytes}-byte limit for this read`);
    }
    return text;
  };

  const checkExpected = (input: string, relative: string, expected: ExpectedContent | undefined): void => {
    if (expected === undefined) return;
    const text = texts.get(relative);
    const actual: ExpectedContent = directories.has(relative)
      ? { exists: true, sha256: 'a directory' }
      : text === undefined
        ? { exists: false }
        : { exists: true, sha256: sha256OfBytes(new TextEncoder().encode(text)) };
    if (!isExpectedContent(actual, expected)) throw changedMeanwhileError(input, relative);
  };

  return {
    rootLabel: root,
    readText,
    async readBytes(input, signal, options) {
      return new TextEncoder().encode(await readText(input, signal, options));
    },
    async writeText(input, text, signal, options) {
      signal?.throwIfAborted();
      const relative = await resolve(input);
      if (directories.has(relative)) throw new WorkspaceError('is_directory', input, `${relative || '.'} is a directory; choose a file path`);
      const refused = options?.refuseTarget?.(relative, input);
      if (refused !== undefined) throw refused;
      checkExpected(input, relative, options?.expected);
      const failure = failures.get(relative);
      failures.delete(relative);
      if (failure && !failure.afterWriting) throw failure.error;
      ensureParents(relative);
      texts.set(relative, text);
      if (failure) throw failure.error;
    },
    async delete(input, signal, options) {
      signal?.throwIfAborted();
      const relative = await resolve(input);
      if (relative === '') throw new PathRefusedError(input, 'the workspace root itself cannot be deleted');
      if (texts.has(relative) || directories.has(relative)) checkExpected(input, relative, options?.expected);
      if (texts.delete(relative)) return;
      if (!directories.has(relative)) throw new WorkspaceError('not_found', input, `Nothing to delete: ${relative} does not exist`);
      const prefix = `${relative}/`;
      if ([...texts.keys(), ...directories].some((entry) => entry.startsWith(prefix))) {
        throw new WorkspaceError('not_empty', input, `${relative} is a directory that is not empty; delete its files first`);
      }
      directories.delete(relative);
    },
    async createDirectory(input, signal) {
      signal?.throwIfAborted();
      const relative = await resolve(input);
      if (texts.has(relative)) throw new WorkspaceError('not_directory', input, `Cannot create directory ${relative}: a file is in the way`);
      ensureParents(`${relative}/x`);
    },
    async list(glob, signal) {
      signal?.throwIfAborted();
      const matches = glob === undefined ? () => true : compileGlob(glob);
      const rulesFor = (directory: string): IgnoreRules => {
        let rules = IgnoreRules.empty();
        const parts = directory === '' ? [] : directory.split('/');
        for (let i = 0; i <= parts.length; i++) {
          const base = parts.slice(0, i).join('/');
          if (i > 0 && rules.ignores(base, true)) return rules.withFile('', '*');
          const text = texts.get(base === '' ? '.gitignore' : `${base}/.gitignore`);
          if (text !== undefined) rules = rules.withFile(base, text);
        }
        return rules;
      };
      const files = [...texts.keys()]
        .filter((file) => matches(file) && !rulesFor(path.posix.dirname(file).replace(/^\.$/, '')).ignores(file, false))
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      // Every folder of a memory workspace can be read.
      return { files, unreadable: [] };
    },
    async stat(input, signal): Promise<FileStat | undefined> {
      signal?.throwIfAborted();
      const relative = await resolve(input);
      if (directories.has(relative)) return { type: 'directory', size: 0, mtimeMs: 0 };
      const text = texts.get(relative);
      return text === undefined ? undefined : { type: 'file', size: new TextEncoder().encode(text).length, mtimeMs: 0 };
    },
    snapshot() {
      return Object.fromEntries([...texts.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
    },
    failNextWrite(input, error, options) {
      failures.set(path.posix.normalize(input), { error, afterWriting: options?.afterWriting === true });
    },
  };
}
