import type { Clock } from '../servicePorts';
import type { ChangeLockFolder, ExpectedContent, FileStat, RawDirectoryFs, RawFile, ReadOptions, TextSearcher, WorkspaceFs } from '../workspacePorts';
import { AtomicWrites } from './atomicWrites';
import { ConfinedWalk } from './confinedWalk';
import { type Entry, entryOf, isDangling, missingError, readOpened, refuseHardLink, releaseEntry } from './confinedEntry';
import { listConfined } from './listConfined';
import type { ManyTextReader } from './readTextMany';
import { readManyConfined } from './readManyConfined';
import { normalizeWorkspacePath, PathRefusedError } from './resolveInRoot';
import { changedMeanwhileError, checkExpectedContent, isExpectedContent, sha256OfBytes } from './expectedContent';
import { asWorkspaceFailure, WorkspaceError } from './workspaceError';
import type { WalkOptions } from './confinedWalk';

/** Options of `createConfinedWorkspace`. */
export interface ConfinedWorkspaceOptions {
  /** Absolute path of the workspace root, as the user named it (shown in messages and as `rootLabel`). */
  root: string;
  /**
   * Reads and changes regular files that have more than one hard link. Off by default: a
   * hard link can make a file outside the workspace appear inside it.
   */
  allowHardLinks?: boolean;
  /** The time (to tell stale temporary files and change locks) and the waits of a change for another process's lock on its file. */
  clock: Pick<Clock, 'now' | 'sleep'>;
  /** Where the change locks of the files it changes are taken: the user's folder of them (`createUserChangeLocks`), shared by every process. */
  changeLocks: ChangeLockFolder;
  /** Narrows `search_text` to the files worth reading (see `TextSearcher`); every file is read without one. */
  textSearcher?: TextSearcher;
}

/** A quick operation lets other work run once every this many calls (see `RawDirectoryFs.breathe`). */
const breathEvery = 64;

/**
 * The workspace policy, once for every file system: a `WorkspaceFs` (and `ManyTextReader`)
 * over a `RawDirectoryFs`. Every path is checked by `normalizeWorkspacePath`, then walked
 * by `ConfinedWalk` component by component, links followed by reading them, so nothing is
 * opened outside the root; the operation acts on the entry in the last directory handle.
 * Reads take regular files only (a directory, device, socket or pipe is refused); files with
 * several hard links are refused unless `allowHardLinks`. Changes whose location after
 * links lies in `.git` are refused. Writes are atomic (see `AtomicWrites`), keeping the
 * previous file's mode where the file system has modes. `list` honours `.gitignore` files at
 * every level, skips `.git`, `node_modules`, `.task-planner` and temporary files, and does not descend into
 * linked directories. Errors are `PathRefusedError` (confinement) or `WorkspaceError`
 * (everything else), with messages fit for the user.
 */
export function createConfinedWorkspace<Handle>(raw: RawDirectoryFs<Handle>, options: ConfinedWorkspaceOptions): WorkspaceFs & ManyTextReader {
  const root = options.root;
  const allowHardLinks = options.allowHardLinks ?? false;
  const writes = new AtomicWrites(raw, options.clock, options.changeLocks);
  /** Runs `operation` on `input`, a file system failure reported in the user's words (see `asWorkspaceFailure`). */
  const failing = <T>(input: string, action: 'read' | 'changed' | 'listed', operation: () => Promise<T>): Promise<T> =>
    operation().catch((error: unknown) => {
      throw asWorkspaceFailure(error, input, action);
    });
  let calls = 0;
  const breathe = async (): Promise<void> => {
    // Stryker disable next-line UpdateOperator: counting down, -64 % 64 is -0, which is 0: a breath every 64 calls all the same.
    if (++calls % breathEvery === 0) await raw.breathe();
  };
  let walker: Promise<ConfinedWalk<Handle>> | undefined;
  const walkFor = (input: string): Promise<ConfinedWalk<Handle>> =>
    (walker ??= raw.realRoot().then((real) => {
      if (real === undefined) throw new PathRefusedError(input, `the workspace root ${root} does not exist`);
      return new ConfinedWalk(root, real, raw);
    })).catch((error: unknown) => {
      walker = undefined;
      throw error;
    });
  const resolveEntry = async (input: string, relative: string, walk: WalkOptions): Promise<Entry<Handle> & { walk: ConfinedWalk<Handle> }> => {
    const confined = await walkFor(input);
    return { ...(await entryOf(confined, raw, input, relative, walk)), walk: confined };
  };
  /** Where `input` leads and what is there, its handles already released. */
  const lookUp = async (input: string, relative: string): Promise<Entry<Handle> & { walk: ConfinedWalk<Handle> }> => {
    const entry = await resolveEntry(input, relative, {});
    releaseEntry(entry.walk, entry);
    if (isDangling(entry)) throw missingError(true, input, relative);
    return entry;
  };

  const readOne = async (input: string, readOptions: ReadOptions | undefined): Promise<string> =>
    failing(input, 'read', () => openOne(input, readOptions, (file, relative) => readOpened(file, relative, input, readOptions?.maxBytes, allowHardLinks)));
  const readBytesOne = async (input: string, readOptions: ReadOptions | undefined): Promise<Uint8Array> =>
    failing(input, 'read', () =>
      openOne(input, readOptions, (file, relative) => readOpened(file, relative, input, readOptions?.maxBytes, allowHardLinks, true)),
    );
  /**
   * Walks to the regular file `input` names, following links inside the root, and hands the opened file to `read`, unless
   * `readOptions.refuseTarget` refuses where the walk led.
   */
  const openOne = async <T>(input: string, readOptions: ReadOptions | undefined, read: (file: RawFile, relative: string) => Promise<T>): Promise<T> => {
    const relative = normalizeWorkspacePath(input, root);
    const walk = await walkFor(input);
    let at = await walk.locate(input, relative);
    try {
      for (;;) {
        if ('missing' in at) throw missingError(at.dangling, input, relative);
        if (at.name === '') throw new WorkspaceError('is_directory', input, `${relative || '.'} is a directory, not a file`);
        const file = await raw.openFile(walk.directory(at), at.name);
        if (file === 'link') {
          at = await walk.follow(at);
          continue;
        }
        if (file === 'missing') throw missingError(at.fromLink, input, relative);
        const refused = readOptions?.refuseTarget?.(walk.resolvedPath(at), input);
        if (refused !== undefined) {
          await file.close();
          throw refused;
        }
        return await read(file, relative);
      }
    } finally {
      if (!('missing' in at)) walk.release(at);
    }
  };

  return {
    rootLabel: root,
    ...(options.textSearcher === undefined ? {} : { textSearcher: options.textSearcher }),

    async readText(input, signal, readOptions) {
      signal?.throwIfAborted();
      await breathe();
      return readOne(input, readOptions);
    },

    async readBytes(input, signal, readOptions) {
      signal?.throwIfAborted();
      await breathe();
      return readBytesOne(input, readOptions);
    },

    async readTextMany(paths, visit, signal, readOptions) {
      signal?.throwIfAborted();
      const walk = await walkFor('');
      await readManyConfined({ raw, walk, root, readOne }, paths, visit, signal, readOptions);
    },

    async writeText(input, text, signal, changeOptions) {
      return failing(input, 'changed', async () => {
        signal?.throwIfAborted();
        const relative = normalizeWorkspacePath(input, root);
        if (relative === '') throw new WorkspaceError('is_directory', input, 'The workspace root is a directory, not a file');
        const entry = await resolveEntry(input, relative, { create: true, guard: true });
        try {
          const { at, stats } = entry;
          // Stryker disable next-line ConditionalExpression,StringLiteral: creating the directories on the way, only a dangling link leaves the path missing.
          if ('missing' in at || isDangling(entry)) throw missingError(isDangling(entry), input, relative);
          if (stats?.type === 'directory') throw new WorkspaceError('is_directory', input, `${relative} is a directory; choose a file path`);
          if (stats && !allowHardLinks) refuseHardLink(stats, relative, input);
          const directory = entry.walk.directory(at);
          const target = { directory, name: at.name, key: entry.walk.resolvedPath(at) };
          const refused = changeOptions?.refuseTarget?.(target.key, input);
          if (refused !== undefined) throw refused;
          await writes.replace(entry.walk, target, text, stats?.mode ?? changeOptions?.mode, signal, () =>
            checkExpectedContent(raw, directory, at.name, changeOptions?.expected, input, relative),
            changeOptions?.waiting,
          );
        } finally {
          releaseEntry(entry.walk, entry);
        }
      });
    },

    async delete(input, signal, changeOptions) {
      return failing(input, 'changed', async () => {
        signal?.throwIfAborted();
        const relative = normalizeWorkspacePath(input, root);
        if (relative === '') throw new PathRefusedError(input, 'the workspace root itself cannot be deleted');
        const nothing = (): WorkspaceError => new WorkspaceError('not_found', input, `Nothing to delete: ${relative} does not exist`);
        // What the path leads to must exist inside the root; the entry itself is what goes.
        const { walk, stats: target } = await lookUp(input, relative);
        if (target === undefined) throw nothing();
        const at = await walk.locate(input, relative, { guard: true });
        if ('missing' in at) throw nothing();
        try {
          const directory = walk.directory(at);
          const stats = await raw.lstat(directory, at.name);
          if (stats === undefined) throw nothing();
          if (stats.type === 'directory') {
            if (changeOptions?.expected !== undefined) throw changedMeanwhileError(input, relative);
            if ((await raw.removeDirectory(directory, at.name)) === 'not_empty') {
              throw new WorkspaceError('not_empty', input, `${relative} is a directory that is not empty; delete its files first`);
            }
          } else {
            if (!allowHardLinks) refuseHardLink(stats, relative, input);
            const expected = changeOptions?.expected;
            // The check and the removal hold the file's change lock, as a write's check and rename do.
            await writes.exclusive(walk.resolvedPath(at), async () => {
              if (stats.type === 'link' && expected !== undefined) {
                // A link's version is the version of the file it leads to, as every read sees it.
                const target = await readBytesOne(input, undefined).catch(() => undefined);
                const actual: ExpectedContent = target === undefined ? { exists: false } : { exists: true, sha256: sha256OfBytes(target) };
                if (!isExpectedContent(actual, expected)) throw changedMeanwhileError(input, relative);
              } else {
                await checkExpectedContent(raw, directory, at.name, expected, input, relative);
              }
              // A link goes itself, not its target: that is what the path names.
              await raw.removeFile(directory, at.name);
            }, changeOptions?.waiting);
          }
        } finally {
          walk.release(at);
        }
      });
    },

    async createDirectory(input, signal) {
      return failing(input, 'changed', async () => {
        signal?.throwIfAborted();
        const relative = normalizeWorkspacePath(input, root);
        const walk = await walkFor(input);
        const at = await walk.locate(input, relative, { create: true, directory: true, guard: true });
        if ('missing' in at) throw missingError(at.dangling, input, relative);
        walk.release(at);
      });
    },

    async list(glob, signal) {
      return failing('', 'listed', async () => listConfined(raw, await walkFor(''), glob, signal, breathe));
    },

    async stat(input, signal): Promise<FileStat | undefined> {
      return failing(input, 'read', async () => {
        signal?.throwIfAborted();
        await breathe();
        const { stats } = await lookUp(input, normalizeWorkspacePath(input, root));
        if (stats === undefined) return undefined;
        return {
          type: stats.type === 'directory' ? 'directory' : 'file',
          size: stats.size,
          mtimeMs: stats.mtimeMs,
          ...(stats.mode === undefined ? {} : { mode: stats.mode }),
        };
      });
    },

    async locate(input, signal) {
      return failing(input, 'read', async () => {
        signal?.throwIfAborted();
        const relative = normalizeWorkspacePath(input, root);
        const entry = await resolveEntry(input, relative, {});
        try {
          // As a read refuses it: a command's argument naming it (`cat notes.txt`) printed a file outside (an outside attack).
          if (entry.stats && !allowHardLinks) refuseHardLink(entry.stats, relative, input);
          return 'missing' in entry.at ? entry.at.resolved : entry.walk.resolvedPath(entry.at);
        } finally {
          releaseEntry(entry.walk, entry);
        }
      });
    },
  };
}
