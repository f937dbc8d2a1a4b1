import type { ChangeLockFolder } from '../../src/core/workspacePorts';
import type { MemoryRawFs, RawOperation } from './memoryRawFs';

/** Where `memoryChangeLocks` keeps its locks in the fake's tree: outside the workspace root `/ws`, as the user's folder is. */
export const memoryLockFolder = '/locks';

/**
 * A `ChangeLockFolder` fake over the tree of `raw`, in `memoryLockFolder`: workspaces over one `raw` (processes over one
 * disk, of one user) share it. A lock file holds its holder's name (`process`, "this" unless given); `running` tells
 * whether another holder still runs (every one does unless it says otherwise); an empty file's holder is unknown. `before` is told each operation under the raw name it stands for (`writeNewFile`,
 * `lstat`, `removeFile`, `readDirectory`), so a test's fault injection and races reach it as they reach the workspace's own operations.
 */
export function memoryChangeLocks(
  raw: MemoryRawFs,
  options: { now?: () => number; before?: (operation: RawOperation, name: string) => void; process?: string; running?: (process: string) => boolean } = {},
): ChangeLockFolder {
  const self = options.process ?? 'this';
  const at = (name: string): string => `${memoryLockFolder}/${name}`;
  return {
    async create(name) {
      options.before?.('writeNewFile', name);
      if (raw.node(at(name)) !== undefined) throw Object.assign(new Error(`EEXIST: file already exists, ${name}`), { code: 'EEXIST' });
      raw.file(at(name), self, { mtimeMs: options.now?.() ?? 0 });
    },
    async holder(name) {
      const text = raw.text(at(name)) ?? '';
      if (text === '') return 'unknown';
      if (text === self) return 'mine';
      return (options.running ?? (() => true))(text) ? 'running' : 'ended';
    },
    async stat(name) {
      options.before?.('lstat', name);
      const node = raw.node(at(name));
      if (node === undefined) return undefined;
      return { type: node.kind, mtimeMs: node.kind === 'file' ? node.mtimeMs : 0 };
    },
    async names() {
      options.before?.('readDirectory', memoryLockFolder);
      const folder = raw.node(memoryLockFolder);
      return folder?.kind === 'directory' ? [...folder.entries.keys()] : [];
    },
    async remove(name) {
      options.before?.('removeFile', name);
      const folder = raw.node(memoryLockFolder);
      if (folder?.kind !== 'directory') return;
      // As unlink: a folder is not removed.
      if (folder.entries.get(name)?.kind === 'directory') throw Object.assign(new Error(`EISDIR: illegal operation on a directory, ${name}`), { code: 'EISDIR' });
      folder.entries.delete(name);
    },
  };
}
