// Ports of the workspace's files: the confined workspace the tools use, its text search, and the raw file system the
// workspace policy is built on.
// Every port of the core is in a `*Ports.ts` file at the root of src/core (docs/architecture.md, Ports).

/** Metadata of one workspace entry; `size` in bytes, `mtimeMs` in milliseconds. */
export interface FileStat {
  type: 'file' | 'directory';
  size: number;
  mtimeMs: number;
  /** Permission bits (`0o7777` at most), where the file system keeps them. */
  mode?: number;
}

/**
 * What a workspace listing found: `files`, workspace-relative and sorted, and the folders
 * below the root it was not allowed to read (`unreadable`, sorted), whose files are missing
 * from `files`: the listing goes on without them, as git and ripgrep do.
 */
export interface WorkspaceListing {
  files: string[];
  unreadable: string[];
  /**
   * The listed files that are symbolic links (each leading to a file inside the root; a listing descends into no linked
   * folder, so no other file leads elsewhere). Absent when the lister cannot tell: any listed file may then be one.
   */
  links?: string[];
}

/**
 * Which content a change was computed from: the file was absent, or its bytes had this
 * sha256 (hex). A link is judged by the file it leads to.
 */
export type ExpectedContent = { exists: false } | { exists: true; sha256: string };

/**
 * A judge of where a path leads, as an operation opens it: `resolved` is the workspace-relative place after links,
 * `input` the path as the operation was given it; an error returned refuses the operation with it.
 */
export type TargetCheck = (resolved: string, input: string) => Error | undefined;

/** Options of a change (`writeText`, `delete`). */
export interface ChangeOptions {
  /** Change only while the file is still this version; a mismatch rejects with `WorkspaceError` code `changed`. */
  expected?: ExpectedContent;
  /** Permission bits of a file `writeText` creates (an existing file keeps its own), where the file system keeps them. */
  mode?: number;
  /** The step making the change, for a question an editor asks about it (a file open with unsaved changes); never checked. */
  by?: { stepId: string; stepTitle: string };
  /**
   * Told once, in the user's words, when the change has waited a second for another Task Planner process changing the
   * same file (its change lock; see `AtomicWrites.exclusive`): a step shows it as where it stands.
   */
  waiting?: (message: string) => void;
  /**
   * Judges where the path (`input`, as given) leads, workspace-relative with links followed, as `writeText` opens the
   * place it writes: an error returned refuses the change with it, nothing written. A change checked against where a link
   * led (its lock, whether the file is withheld) cannot see it retargeted before the write; this sees the file written.
   * `delete` removes the entry the path names (a link goes itself) and does not ask.
   */
  refuseTarget?: TargetCheck;
}

/** What a read (`readText`, `readBytes`, `readTextMany`) of a workspace file is held to. */
export interface ReadOptions {
  /** A larger file is refused with a `WorkspaceError` of code `too_large` before it is read. */
  maxBytes?: number;
  /**
   * Judges where the path (`input`, as given to the read) leads, workspace-relative with links followed, as the file is
   * opened: an error returned refuses the read with it, nothing read. A check of where a link led made before the read
   * cannot see it retargeted meanwhile (a committed `notes.txt` pointed at `.env` between the check and the read); this
   * one sees the file the read opens.
   */
  refuseTarget?: TargetCheck;
}

/**
 * The open workspace's files. Every path is workspace-relative with `/` separators;
 * implementations refuse any path that resolves outside the root (see `resolveInRoot`).
 */
export interface WorkspaceFs {
  /** A display name of the root (a folder path or URI). */
  readonly rootLabel: string;
  /** The file's text (UTF-8), under `options` (see `ReadOptions`). */
  readText(path: string, signal?: AbortSignal, options?: ReadOptions): Promise<string>;
  /**
   * The file's bytes, under the same rules as `readText` (confined, regular files only,
   * `options` as there). Optional: a workspace without it cannot hand images to a model,
   * and says so.
   */
  readBytes?(path: string, signal?: AbortSignal, options?: ReadOptions): Promise<Uint8Array>;
  /**
   * Writes atomically: a temporary file in the same directory, then a rename. With
   * `options.expected`, the write happens only while the file is still that version
   * (checked right before the rename); otherwise nothing changes and it rejects with a
   * `WorkspaceError` of code `changed`.
   */
  writeText(path: string, text: string, signal?: AbortSignal, options?: ChangeOptions): Promise<void>;
  /** Deletes the file (a link goes itself) or empty directory; `options.expected` as in `writeText`. */
  delete(path: string, signal?: AbortSignal, options?: ChangeOptions): Promise<void>;
  createDirectory(path: string, signal?: AbortSignal): Promise<void>;
  /** The files matching `glob` (all files without one), and the folders that could not be read. */
  list(glob?: string, signal?: AbortSignal): Promise<WorkspaceListing>;
  /** `undefined` when nothing exists at `path`. */
  stat(path: string, signal?: AbortSignal): Promise<FileStat | undefined>;
  /**
   * Where `path` leads once symbolic links are followed, workspace-relative (for a path
   * that does not exist yet: its existing part resolved, plus the rest). Refuses what the
   * other methods refuse. Optional: a workspace without links does not need it.
   */
  locate?(path: string, signal?: AbortSignal): Promise<string>;
  /**
   * A faster way to tell which files can hold a match of a `search_text` query (the
   * ripgrep that VS Code ships, one on `PATH`, or a pool of reader threads). Optional:
   * without it every listed file is read on the caller's thread.
   */
  readonly textSearcher?: TextSearcher;
}

/** A `search_text` query as a `TextSearcher` sees it. `pattern` is JavaScript syntax when `regex`. */
export interface TextQuery {
  pattern: string;
  regex: boolean;
  caseSensitive: boolean;
}

/**
 * Which files of a workspace can hold a line matching a query: `matched` are the
 * workspace-relative paths of the files it found a match in, `seen` every file it looked
 * at. A file it did not see (a link, a file its own ignore rules skip) may match all the
 * same. Matching lines, columns and texts always come from the core's own reader; a file
 * seen without a match is counted as searched, so a searcher that leaves binary files and
 * names the reader refuses unseen keeps the counts of skipped files the reader's.
 */
export interface TextNarrowing {
  matched: ReadonlySet<string>;
  seen: ReadonlySet<string>;
}

/**
 * Narrows a workspace search to the files worth reading. It must never leave out a file it
 * saw that holds a line matching the query as `search_text` matches it (it may name more),
 * and never read outside the root; `undefined` when it cannot answer (no program, a pattern
 * it cannot be sure of, a failure, a time or output limit), and then the caller reads every
 * file. `listed` settles with the workspace-relative files the search covers, in path
 * order, once the workspace has listed them (a searcher that walks by itself may ignore
 * it); when it rejects, `narrow` may reject likewise. Rejects with the signal's reason when
 * `signal` aborts.
 */
export interface TextSearcher {
  narrow(query: TextQuery, listed: Promise<readonly string[]>, signal?: AbortSignal): Promise<TextNarrowing | undefined>;
}

/** What a raw file-system entry is, not following a symbolic link. */
export type RawEntryType = 'file' | 'directory' | 'link' | 'other';

/** Metadata of one raw entry; `size` in bytes, `mtimeMs` in milliseconds, `links` its hard-link count. */
export interface RawStat {
  type: RawEntryType;
  size: number;
  mtimeMs: number;
  links: number;
  /** Permission bits (`0o7777` at most); `undefined` where the file system has none to keep. */
  mode: number | undefined;
}

/** A file opened for reading; `stat` describes the opened file itself, whatever its name now names. */
export interface RawFile {
  readonly stat: RawStat;
  /** The whole file as UTF-8 text (`stat.size` bytes, fewer when it shrank meanwhile). */
  read(): Promise<string>;
  /** The whole file's bytes (`stat.size` bytes, fewer when it shrank meanwhile). */
  readBytes(): Promise<Uint8Array>;
  close(): Promise<void>;
}

/**
 * The raw file system under one workspace root, as the workspace policy
 * (`src/core/workspace/confinedWorkspace.ts`) needs it: no path checks, no policy, no
 * messages. `Handle` is an open directory: every entry is named by a handle and a single
 * name (never a path, never `.` or `..`), and nothing here follows a symbolic link except
 * `realRoot`. Where the platform can, a handle holds the directory itself, so an entry
 * is found in it even after the path that led there was swapped for a link; elsewhere it is
 * the directory's path, checked a moment earlier. Errors other than the answers below
 * propagate as they are.
 */
export interface RawDirectoryFs<Handle> {
  /** The root with its links resolved; `undefined` when it does not exist. */
  realRoot(): Promise<string | undefined>;
  /**
   * The root itself; `real` is where the handle really is (to compare with `realRoot`), `undefined` when the handle is a path. `'missing'` when there is no
   * root.
   */
  openRoot(realRoot: string): Promise<{ handle: Handle; real: string | undefined } | 'missing'>;
  /** The directory `name` in `parent`, not through a link; `real` as in `openRoot`. */
  openDirectory(parent: Handle, name: string): Promise<{ handle: Handle; real: string | undefined } | 'link' | 'missing' | 'not_directory'>;
  /** Makes the directory `name` in `parent`; `'exists'` when something is already there, `'not_directory'` when a file is on the way. */
  makeDirectory(parent: Handle, name: string): Promise<'made' | 'exists' | 'not_directory'>;
  /** The target of the link `name` in `parent`; `undefined` when it is gone. */
  readLink(parent: Handle, name: string): Promise<string | undefined>;
  /** `name` in `parent` itself (a link is not followed); `undefined` when nothing is there. */
  lstat(parent: Handle, name: string): Promise<RawStat | undefined>;
  /** The directory `handle` holds. */
  statDirectory(handle: Handle): Promise<RawStat>;
  /** Opens `name` in `parent` for reading, without following a link or blocking on a pipe. */
  openFile(parent: Handle, name: string): Promise<RawFile | 'link' | 'missing'>;
  /** The entries of the directory `handle` holds (without `.` and `..`). */
  readDirectory(handle: Handle): Promise<{ name: string; type: RawEntryType }[]>;
  /**
   * Creates the new file `name` in `parent` with `text` (UTF-8), on disk (synced) once it resolves, where the file system
   * can tell; fails when something is there. `mode`: permission bits to give it, where kept.
   */
  writeNewFile(parent: Handle, name: string, text: string, mode: number | undefined): Promise<void>;
  /** Renames `fromName` in `from` over `toName` in `to`, replacing a file there. */
  rename(from: Handle, fromName: string, to: Handle, toName: string): Promise<void>;
  /** `true` when `error` (from `rename`) may mean the two directories lie on different file systems. */
  crossesDevices(error: unknown): boolean;
  /** Removes the file or link `name` in `parent` (a link goes itself, not its target). */
  removeFile(parent: Handle, name: string): Promise<void>;
  /** Removes the empty directory `name` in `parent`; `'not_empty'` when it holds entries. */
  removeDirectory(parent: Handle, name: string): Promise<'removed' | 'not_empty'>;
  /** Releases `handle`. */
  close(handle: Handle): void;
  /** Lets other work run between many quick synchronous operations; resolves at once where operations are truly asynchronous. */
  breathe(): Promise<void>;
}

/**
 * The folder the change locks of every workspace's files are taken in (`AtomicWrites`): one of the user's own, outside
 * every workspace, so that a repository cannot put anything in a lock's place, and two processes that opened one file
 * through different roots (a repository and a folder inside it) take one lock. Names are given by `AtomicWrites`.
 */
export interface ChangeLockFolder {
  /**
   * Creates the file `name` naming this process as its holder, failing when anything is there already (the lock is then
   * someone else's); the error of a name taken has the code `EEXIST`.
   */
  create(name: string): Promise<void>;
  /**
   * Who holds the lock `name`, by what its file names: this process (`mine`), another process still running, one that
   * ended, or `unknown` (another machine's process, a file without a holder, nothing there).
   */
  holder(name: string): Promise<'mine' | 'running' | 'ended' | 'unknown'>;
  /** `name` itself (a link is not followed); `undefined` when nothing is there. */
  stat(name: string): Promise<Pick<RawStat, 'type' | 'mtimeMs'> | undefined>;
  /** Removes the file `name`; nothing there is no error. */
  remove(name: string): Promise<void>;
  /** The names in the folder (none when it is not there yet). */
  names(): Promise<string[]>;
}
