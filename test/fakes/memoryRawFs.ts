import type { RawDirectoryFs, RawFile, RawStat, WorkspaceFs } from '../../src/core/workspacePorts';
import { createConfinedWorkspace } from '../../src/core/workspace/confinedWorkspace';
import type { ManyTextReader } from '../../src/core/workspace/readTextMany';
import { memoryChangeLocks } from './memoryChangeLocks';

/** A directory of the fake: entries by name. */
export interface MemoryDirectory {
  kind: 'directory';
  entries: Map<string, MemoryNode>;
}
/** A file of the fake; `links` is its hard-link count, `mode` its permission bits. */
export interface MemoryFile {
  kind: 'file';
  text: string;
  links: number;
  mtimeMs: number;
  mode: number;
}
/** A symbolic link of the fake. */
export interface MemoryLink {
  kind: 'link';
  target: string;
}
/** A pipe, socket or device: something that is neither file, directory nor link. */
export interface MemoryOther {
  kind: 'other';
}
export type MemoryNode = MemoryDirectory | MemoryFile | MemoryLink | MemoryOther;

/** Every operation of the fake, by name, for `before` hooks. */
export type RawOperation = Exclude<keyof RawDirectoryFs<MemoryDirectory>, 'crossesDevices' | 'close' | 'breathe'>;

/** Options of `createMemoryRawFs`. */
export interface MemoryRawFsOptions {
  /** Handles report their real place (as directory descriptors do); `false` behaves like paths. */
  handlesKnowTheirPlace?: boolean;
  /** Called before each operation with its name and entry name; throwing makes the operation throw (fault injection), anything else may change the tree (a race). */
  before?: (operation: RawOperation, name: string) => void;
  /** Time of new files, in milliseconds. */
  now?: () => number;
}

/**
 * An in-memory `RawDirectoryFs` fake. The tree's top directory holds the absolute path
 * `/` of the fake; the workspace root is `rootPath` in it. Handles are the directory
 * objects themselves, so (as with descriptors) a handle keeps its directory when the path
 * that led to it is swapped for a link. `open` counts handles still open.
 */
export class MemoryRawFs implements RawDirectoryFs<MemoryDirectory> {
  readonly top: MemoryDirectory = directory();
  /** Directory handles and files currently open. */
  open = 0;

  constructor(
    readonly rootPath: string,
    private readonly options: MemoryRawFsOptions = {},
  ) {}

  /** The node at the absolute `at` (`/`-separated, links not followed), or `undefined`. */
  node(at: string): MemoryNode | undefined {
    let node: MemoryNode = this.top;
    for (const name of at.split('/').filter(Boolean)) {
      if (node.kind !== 'directory') return undefined;
      const next = node.entries.get(name);
      if (next === undefined) return undefined;
      node = next;
    }
    return node;
  }

  /** Puts `node` at the absolute `at`, making the directories on the way. */
  put(at: string, node: MemoryNode): MemoryNode {
    const names = at.split('/').filter(Boolean);
    const last = names.pop() as string;
    let parent = this.top;
    for (const name of names) {
      let next = parent.entries.get(name);
      if (next === undefined) parent.entries.set(name, (next = directory()));
      if (next.kind !== 'directory') throw new Error(`${name} is no directory`);
      parent = next;
    }
    parent.entries.set(last, node);
    return node;
  }

  /** Writes a file at the absolute `at`. */
  file(at: string, text: string, extra: Partial<MemoryFile> = {}): MemoryFile {
    return this.put(at, { kind: 'file', text, links: 1, mtimeMs: 0, mode: 0o644, ...extra }) as MemoryFile;
  }

  /** The text of the file at the absolute `at`, `undefined` for anything else. */
  text(at: string): string | undefined {
    const node = this.node(at);
    return node?.kind === 'file' ? node.text : undefined;
  }

  async realRoot(): Promise<string | undefined> {
    this.options.before?.('realRoot', this.rootPath);
    return this.resolveRoot();
  }

  /** Where the root path leads now, links followed. */
  private resolveRoot(): string | undefined {
    let at = this.rootPath;
    for (let hops = 0; hops < 40; hops++) {
      const node = this.node(at);
      if (node?.kind !== 'link') return node?.kind === 'directory' ? at : undefined;
      at = node.target;
    }
    return undefined;
  }

  async openRoot(realRoot: string): Promise<{ handle: MemoryDirectory; real: string | undefined } | 'missing'> {
    this.options.before?.('openRoot', realRoot);
    // As a descriptor: the root path opened now, links followed; as a path: the real root found earlier.
    const place = this.options.handlesKnowTheirPlace === false ? realRoot : this.resolveRoot();
    const node = place === undefined ? undefined : this.node(place);
    if (node?.kind !== 'directory') return 'missing';
    return this.opened(node);
  }

  async openDirectory(parent: MemoryDirectory, name: string): Promise<{ handle: MemoryDirectory; real: string | undefined } | 'link' | 'missing' | 'not_directory'> {
    this.options.before?.('openDirectory', name);
    const node = parent.entries.get(name);
    if (node === undefined) return 'missing';
    if (node.kind === 'link') return 'link';
    return node.kind === 'directory' ? this.opened(node) : 'not_directory';
  }

  async makeDirectory(parent: MemoryDirectory, name: string): Promise<'made' | 'exists' | 'not_directory'> {
    this.options.before?.('makeDirectory', name);
    if (parent.entries.has(name)) return 'exists';
    parent.entries.set(name, directory());
    return 'made';
  }

  async readLink(parent: MemoryDirectory, name: string): Promise<string | undefined> {
    this.options.before?.('readLink', name);
    const node = parent.entries.get(name);
    return node?.kind === 'link' ? node.target : undefined;
  }

  async lstat(parent: MemoryDirectory, name: string): Promise<RawStat | undefined> {
    this.options.before?.('lstat', name);
    const node = parent.entries.get(name);
    return node === undefined ? undefined : statOf(node);
  }

  async statDirectory(handle: MemoryDirectory): Promise<RawStat> {
    this.options.before?.('statDirectory', '');
    return statOf(handle);
  }

  async openFile(parent: MemoryDirectory, name: string): Promise<RawFile | 'link' | 'missing'> {
    this.options.before?.('openFile', name);
    const node = parent.entries.get(name);
    if (node === undefined) return 'missing';
    if (node.kind === 'link') return 'link';
    const text = node.kind === 'file' ? node.text : '';
    this.open++;
    return {
      stat: statOf(node),
      read: async () => text,
      readBytes: async () => new TextEncoder().encode(text),
      close: async () => {
        this.open--;
      },
    };
  }

  async readDirectory(handle: MemoryDirectory): Promise<{ name: string; type: RawStat['type'] }[]> {
    this.options.before?.('readDirectory', '');
    return [...handle.entries].map(([name, node]) => ({ name, type: statOf(node).type }));
  }

  async writeNewFile(parent: MemoryDirectory, name: string, text: string, mode: number | undefined): Promise<void> {
    this.options.before?.('writeNewFile', name);
    if (parent.entries.has(name)) throw Object.assign(new Error(`EEXIST: ${name}`), { code: 'EEXIST' });
    parent.entries.set(name, { kind: 'file', text, links: 1, mtimeMs: this.options.now?.() ?? 0, mode: mode ?? 0o644 });
  }

  async rename(from: MemoryDirectory, fromName: string, to: MemoryDirectory, toName: string): Promise<void> {
    this.options.before?.('rename', toName);
    const node = from.entries.get(fromName);
    if (node === undefined) throw Object.assign(new Error(`ENOENT: ${fromName}`), { code: 'ENOENT' });
    from.entries.delete(fromName);
    to.entries.set(toName, node);
  }

  crossesDevices(error: unknown): boolean {
    return (error as { code?: string }).code === 'EXDEV';
  }

  async removeFile(parent: MemoryDirectory, name: string): Promise<void> {
    this.options.before?.('removeFile', name);
    if (!parent.entries.delete(name)) throw Object.assign(new Error(`ENOENT: ${name}`), { code: 'ENOENT' });
  }

  async removeDirectory(parent: MemoryDirectory, name: string): Promise<'removed' | 'not_empty'> {
    this.options.before?.('removeDirectory', name);
    const node = parent.entries.get(name);
    if (node?.kind === 'directory' && node.entries.size > 0) return 'not_empty';
    parent.entries.delete(name);
    return 'removed';
  }

  close(): void {
    this.open--;
  }

  async breathe(): Promise<void> {}

  private opened(node: MemoryDirectory): { handle: MemoryDirectory; real: string | undefined } {
    this.open++;
    return { handle: node, real: this.options.handlesKnowTheirPlace === false ? undefined : (this.placeOf(node) ?? '/nowhere') };
  }

  /** Where `target` is now in the tree (as the kernel names an open directory). */
  private placeOf(target: MemoryDirectory, at = '', node: MemoryDirectory = this.top): string | undefined {
    if (node === target) return at === '' ? '/' : at;
    for (const [name, child] of node.entries) {
      if (child.kind !== 'directory') continue;
      const found = this.placeOf(target, `${at}/${name}`, child);
      if (found !== undefined) return found;
    }
    return undefined;
  }
}

function directory(): MemoryDirectory {
  return { kind: 'directory', entries: new Map() };
}

function statOf(node: MemoryNode): RawStat {
  const type = node.kind === 'link' ? 'link' : node.kind;
  if (node.kind === 'file') return { type, size: new TextEncoder().encode(node.text).length, mtimeMs: node.mtimeMs, links: node.links, mode: node.mode };
  // A directory has two names at least (its entry and its own "."), as on POSIX systems.
  return { type, size: 0, mtimeMs: 0, links: node.kind === 'directory' ? 2 : 1, mode: undefined };
}

/** No real time for a workspace over the fake: its time stands at 0, and a wait for a lock only yields. */
export const stillClock = { now: (): number => 0, sleep: async (): Promise<void> => undefined };

/** The workspace root of `confinedMemoryWorkspace`. */
export const memoryRoot = '/ws';

/** The workspace policy over a fresh `MemoryRawFs` whose root `/ws` exists (empty). */
export function confinedMemoryWorkspace(
  options: MemoryRawFsOptions & {
    allowHardLinks?: boolean;
    wait?: (ms: number) => Promise<void>;
    raw?: MemoryRawFs;
    /** Who this workspace's process is to its change locks, and which other holders still run (`memoryChangeLocks`). */
    locks?: { process?: string; running?: (process: string) => boolean };
  } = {},
): { raw: MemoryRawFs; workspace: WorkspaceFs & ManyTextReader } {
  // A second workspace over the `raw` of a first is another process over the same disk.
  const raw = options.raw ?? new MemoryRawFs(memoryRoot, options);
  if (options.raw === undefined) raw.put(memoryRoot, directory());
  const workspace = createConfinedWorkspace(raw, {
    root: memoryRoot,
    allowHardLinks: options.allowHardLinks ?? false,
    // No real time: files are new at the fake's time (0 unless `now` says), and a wait for a lock only yields.
    clock: { now: options.now ?? stillClock.now, sleep: options.wait ?? stillClock.sleep },
    // In the fake's tree, outside the root: a second workspace over the same `raw` takes the same locks.
    changeLocks: memoryChangeLocks(raw, { ...options.locks, ...(options.now ? { now: options.now } : {}), ...(options.before ? { before: options.before } : {}) }),
  });
  return { raw, workspace };
}

/** The names in the directory at the absolute `at`, sorted (`[]` when there is none). */
export function namesIn(raw: MemoryRawFs, at: string): string[] {
  const node = raw.node(at);
  return node?.kind === 'directory' ? [...node.entries.keys()].sort() : [];
}
