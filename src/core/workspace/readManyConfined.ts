import type { RawDirectoryFs, ReadOptions } from '../workspacePorts';
import { checkSize } from './confinedEntry';
import type { ConfinedWalk } from './confinedWalk';
import type { TextVisitor } from './readTextMany';
import { normalizeWorkspacePath } from './resolveInRoot';

/** What `readManyConfined` works with: the raw file system, its walk, and `readText`'s own read for what the quick path does not settle. */
export interface ReadManyContext<Handle> {
  raw: RawDirectoryFs<Handle>;
  walk: ConfinedWalk<Handle>;
  root: string;
  readOne(input: string, options: ReadOptions | undefined): Promise<string>;
}

// The event loop gets a turn after this many files or this many characters.
const breathEveryFiles = 64;
const breathEveryBytes = 8 * 1024 * 1024;
// Directories kept open at once; sorted paths rarely return to an older one.
const maxOpenDirectories = 16;

/**
 * Reads `paths` in order and hands each to `visit` (see `TextVisitor`) with exactly what
 * `readOne` gives it. The common case (a regular file with one link, not a link itself)
 * is read through a directory handle opened once per directory, so a directory swapped
 * for a link after its check cannot redirect the later reads; anything else goes through
 * `readOne`. Rejects when `signal` aborts (checked between files); closes every handle.
 */
export async function readManyConfined<Handle>(
  context: ReadManyContext<Handle>,
  paths: readonly string[],
  visit: TextVisitor,
  signal: AbortSignal | undefined,
  options: ReadOptions | undefined,
): Promise<void> {
  const directories = new DirectoryHandles(context);
  let sinceBreath = 0;
  let bytesSinceBreath = 0;
  try {
    for (const input of paths) {
      signal?.throwIfAborted();
      if (++sinceBreath >= breathEveryFiles || bytesSinceBreath >= breathEveryBytes) {
        await context.raw.breathe();
        signal?.throwIfAborted();
        sinceBreath = 0;
        bytesSinceBreath = 0;
      }
      let text: string | undefined;
      let failure: unknown;
      try {
        text = await readInDirectory(context, directories, input, options);
        // Anything the quick path does not settle (links, missing files, refusals, odd
        // file types, other errors) goes through readText's own path, with its errors.
        text ??= await context.readOne(input, options);
        bytesSinceBreath += text.length;
      } catch (error) {
        failure = error;
      }
      if (visit(input, text, failure) === false) return;
    }
  } finally {
    directories.closeAll();
  }
}

/** A directory read from: its handle, and where the walk to it led (workspace-relative, links followed). */
interface OpenDirectory<Handle> {
  handle: Handle;
  resolved: string;
}

/** Open handles of the directories read from, each opened through the walk once. */
class DirectoryHandles<Handle> {
  private readonly open = new Map<string, OpenDirectory<Handle> | undefined>();

  constructor(private readonly context: ReadManyContext<Handle>) {}

  /** The directory `relative`, opened; `undefined` for anything unusual. */
  async handleFor(relative: string): Promise<OpenDirectory<Handle> | undefined> {
    if (this.open.has(relative)) return this.open.get(relative);
    let directory: OpenDirectory<Handle> | undefined;
    try {
      const at = await this.context.walk.locate(relative, relative, { directory: true });
      // Stryker disable next-line ConditionalExpression,StringLiteral: a missing directory has no handle to keep: the attempt throws, and is caught below all the same.
      if (!('missing' in at)) directory = { resolved: this.context.walk.resolvedPath(at), handle: this.context.walk.keepDirectory(at) };
    } catch {
      // Refused, unreadable: each file's own readText says which.
    }
    this.open.set(relative, directory);
    if (this.open.size > maxOpenDirectories) {
      const [oldest, old] = this.open.entries().next().value as [string, OpenDirectory<Handle> | undefined];
      this.open.delete(oldest);
      if (old !== undefined) this.context.raw.close(old.handle);
    }
    return directory;
  }

  closeAll(): void {
    for (const directory of this.open.values()) if (directory !== undefined) this.context.raw.close(directory.handle);
    this.open.clear();
  }
}

/**
 * The quick path: `undefined` for anything but a regular file with one link in a usable directory; throws what `readText` would for a refused path
 * (`options.refuseTarget` judging the directory's place after links and the name) or a file over `options.maxBytes`.
 */
async function readInDirectory<Handle>(
  context: ReadManyContext<Handle>,
  directories: DirectoryHandles<Handle>,
  input: string,
  options: ReadOptions | undefined,
): Promise<string | undefined> {
  const relative = normalizeWorkspacePath(input, context.root);
  // Stryker disable next-line ConditionalExpression,StringLiteral: the root is no file: opened as one, it is a directory and takes the full path all the same.
  if (relative === '') return undefined;
  const slash = relative.lastIndexOf('/');
  // Stryker disable next-line EqualityOperator: a normalised path never starts with "/", so the slash is never at 0.
  const directory = await directories.handleFor(slash < 0 ? '' : relative.slice(0, slash));
  // Stryker disable next-line ConditionalExpression: opening in no directory fails, and a failed open takes the full path all the same.
  if (directory === undefined) return undefined;
  const name = relative.slice(slash + 1);
  const file = await context.raw.openFile(directory.handle, name).catch(() => undefined);
  if (typeof file !== 'object') return undefined;
  try {
    if (file.stat.type !== 'file' || file.stat.links > 1) return undefined;
    const refused = options?.refuseTarget?.(directory.resolved === '' ? name : `${directory.resolved}/${name}`, input);
    if (refused !== undefined) throw refused;
    checkSize(file.stat.size, options?.maxBytes, relative, input);
    return await file.read();
  } finally {
    await file.close();
  }
}
