import { lstat } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FileStat, WorkspaceFs } from '../core/ports';
import { compileGlob } from '../core/workspace/globMatcher';
import { alwaysSkipped, IgnoreRules } from '../core/workspace/ignoreRules';
import { isProtectedPath, protectedPlaceReason } from '../core/workspace/protectedPlaces';
import { lexicallyInside, PathRefusedError, resolveInRoot } from '../core/workspace/resolveInRoot';
import type { ResolvedPath } from '../core/workspace/resolveInRoot';
import { hardLinkError, WorkspaceError } from '../core/workspace/workspaceError';
import { createNodePathProbe } from '../node/nodePathProbe';
import { newTemporaryName, staleTemporaryFileMs, temporaryFileName, temporaryFolder, temporaryFolderIgnore, tempFilePrefix } from '../node/temporaryFiles';

/** Options of `createVscodeWorkspaceFs`. */
export interface VscodeWorkspaceFsOptions {
  /** Reads and changes regular files with more than one hard link (`taskPlanner.workspace.allowHardLinks`). */
  allowHardLinks?: boolean;
}

/**
 * A `WorkspaceFs` over `vscode.workspace.fs` for a local (`file:`) workspace folder, as the
 * extension host sees it (also in a remote host), so that changes go through VS Code's file
 * service (open editors, watchers).
 *
 * What it guarantees: every path goes through the core's `resolveInRoot` with symbolic links
 * followed, so a path that leads outside `root` (`..`, absolute, links out, dangling links)
 * is refused before anything is read or changed; changes whose location after links lies in
 * `.git` are refused; regular files with several hard links are refused unless
 * `allowHardLinks`; writes are atomic (a temporary file in `.task-planner/tmp/`, hidden from
 * git by its own `.gitignore`, then a rename; stale ones are removed at a later first write);
 * `list` honours `.gitignore` files at every level and skips `.git` and `node_modules`.
 *
 * What it cannot guarantee: `vscode.workspace.fs` takes paths, not handles, so each
 * operation acts on a path checked a moment earlier. A process that swaps a directory or file
 * of the workspace for a link to the outside between that check and the operation can
 * redirect it (a read outside, a file or directory created outside). The Node workspace
 * (`createNodeWorkspace`, used by the command line) closes that window with directory
 * handles; here it stays open, and only a local process able to change the workspace
 * while a run works can use it.
 */
export function createVscodeWorkspaceFs(root: vscode.Uri, options: VscodeWorkspaceFsOptions = {}): WorkspaceFs {
  const fs = vscode.workspace.fs;
  const rootPath = root.fsPath;
  const probe = createNodePathProbe();
  const resolve = (input: string): Promise<ResolvedPath> => resolveInRoot(input, { root: rootPath, probe });
  const realRoot = async (): Promise<string> => (await resolve('')).real;
  /** The workspace-relative location of `target` after links. */
  const located = async (target: ResolvedPath): Promise<string> => lexicallyInside(await realRoot(), target.real) ?? target.relative;
  /** Refuses a change whose location after links is in a protected place. */
  const guard = async (input: string, target: ResolvedPath): Promise<void> => {
    const resolved = await located(target);
    if (isProtectedPath(resolved)) throw new PathRefusedError(input, protectedPlaceReason(resolved));
  };
  /** Refuses a regular file with several hard links, unless allowed. */
  const refuseHardLink = async (input: string, target: ResolvedPath): Promise<void> => {
    if (options.allowHardLinks) return;
    const stats = await lstat(target.real).catch(() => undefined);
    if (stats?.isFile() && stats.nlink > 1) throw hardLinkError(target.relative, input, stats.nlink);
  };
  let swept = false;
  /** The temporary folder (made, hidden from git and swept of stale files on first use), or `undefined` when it cannot be used. */
  const temporaryDirectory = async (): Promise<string | undefined> => {
    try {
      const folder = (await resolve(temporaryFolder)).real;
      await fs.createDirectory(uriOf(folder));
      if (!swept) {
        swept = true;
        const ignore = uriOf(path.join(folder, '.gitignore'));
        if (!(await statOf(ignore))) await fs.writeFile(ignore, new TextEncoder().encode(temporaryFolderIgnore));
        const now = Date.now();
        for (const [name, type] of await fs.readDirectory(uriOf(folder))) {
          if (!(type & vscode.FileType.File) || !temporaryFileName.test(name)) continue;
          const stale = uriOf(path.join(folder, name));
          const stat = await statOf(stale);
          if (stat && now - stat.mtime > staleTemporaryFileMs) await fs.delete(stale, { useTrash: false }).then(undefined, () => undefined);
        }
      }
      return folder;
    } catch {
      // Refused (a link out) or not creatable: the temporary file goes next to the target.
      return undefined;
    }
  };
  const uriOf = (real: string): vscode.Uri => vscode.Uri.file(real);
  const statOf = async (uri: vscode.Uri): Promise<vscode.FileStat | undefined> => {
    try {
      return await fs.stat(uri);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  };
  /** Refuses when the nearest existing ancestor of the target is a file (the root always exists). */
  const checkAncestors = async (target: ResolvedPath): Promise<void> => {
    let current = path.dirname(target.real);
    for (;;) {
      const stat = await statOf(uriOf(current));
      if (stat) {
        if (!(stat.type & vscode.FileType.Directory)) throw new WorkspaceError('not_directory', target.relative, `Cannot create ${target.relative}: a file is in the way`);
        return;
      }
      const parent = path.dirname(current);
      if (parent === current) return;
      current = parent;
    }
  };

  return {
    rootLabel: rootPath,

    async readText(input, signal, readOptions) {
      signal?.throwIfAborted();
      const target = await resolve(input);
      const stat = await statOf(uriOf(target.real));
      if (!stat) throw new WorkspaceError('not_found', input, `File not found: ${target.relative || '.'}`);
      if (stat.type & vscode.FileType.Directory) throw new WorkspaceError('is_directory', input, `${target.relative || '.'} is a directory, not a file`);
      await refuseHardLink(input, target);
      if (readOptions?.maxBytes !== undefined && stat.size > readOptions.maxBytes) {
        throw new WorkspaceError('too_large', input, `${target.relative} is ${stat.size} bytes, more than the ${readOptions.maxBytes}-byte limit for this read`);
      }
      const bytes = await fs.readFile(uriOf(target.real));
      signal?.throwIfAborted();
      return new TextDecoder('utf-8').decode(bytes);
    },

    async writeText(input, text, signal) {
      signal?.throwIfAborted();
      const target = await resolve(input);
      if (target.relative === '') throw new WorkspaceError('is_directory', input, 'The workspace root is a directory, not a file');
      await guard(input, target);
      const existing = await statOf(uriOf(target.real));
      if (existing && existing.type & vscode.FileType.Directory) throw new WorkspaceError('is_directory', input, `${target.relative} is a directory; choose a file path`);
      if (existing) await refuseHardLink(input, target);
      await checkAncestors(target);
      const directory = path.dirname(target.real);
      await fs.createDirectory(uriOf(directory));
      const bytes = new TextEncoder().encode(text);
      const replaceThrough = async (temp: vscode.Uri): Promise<void> => {
        try {
          await fs.writeFile(temp, bytes);
          signal?.throwIfAborted();
          await fs.rename(temp, uriOf(target.real), { overwrite: true });
        } catch (error) {
          await fs.delete(temp, { useTrash: false }).then(undefined, () => undefined);
          throw error;
        }
      };
      const folder = await temporaryDirectory();
      if (folder !== undefined) {
        try {
          return await replaceThrough(uriOf(path.join(folder, newTemporaryName(true))));
        } catch {
          // The target may be on another file system than the temporary folder: try next to it.
          signal?.throwIfAborted();
        }
      }
      await replaceThrough(uriOf(path.join(directory, newTemporaryName(false))));
    },

    async delete(input, signal) {
      signal?.throwIfAborted();
      const target = await resolve(input);
      if (target.relative === '') throw new PathRefusedError(input, 'the workspace root itself cannot be deleted');
      const stat = await statOf(uriOf(target.real));
      if (!stat) throw new WorkspaceError('not_found', input, `Nothing to delete: ${target.relative} does not exist`);
      // The link itself, not its target, is what the path names.
      const isLink = await probe.isSymlink(target.absolute);
      if (!isLink) {
        await guard(input, target);
        await refuseHardLink(input, target);
      }
      const victim = isLink ? uriOf(target.absolute) : uriOf(target.real);
      if (stat.type & vscode.FileType.Directory) {
        const entries = await fs.readDirectory(victim);
        if (entries.length > 0) throw new WorkspaceError('not_empty', input, `${target.relative} is a directory that is not empty; delete its files first`);
      }
      await fs.delete(victim, { recursive: false, useTrash: false });
    },

    async createDirectory(input, signal) {
      signal?.throwIfAborted();
      const target = await resolve(input);
      await guard(input, target);
      const existing = await statOf(uriOf(target.real));
      if (existing) {
        if (existing.type & vscode.FileType.Directory) return;
        throw new WorkspaceError('not_directory', target.relative, `Cannot create directory ${target.relative}: a file is in the way`);
      }
      await checkAncestors(target);
      await fs.createDirectory(uriOf(target.real));
    },

    async list(glob, signal) {
      const matches = glob === undefined ? () => true : compileGlob(glob);
      const realRoot = (await resolve('')).real;
      const files: string[] = [];
      const walk = async (directory: string, relative: string, inherited: IgnoreRules): Promise<void> => {
        signal?.throwIfAborted();
        const entries = await fs.readDirectory(uriOf(directory));
        let rules = inherited;
        if (entries.some(([name, type]) => name === '.gitignore' && type & vscode.FileType.File)) {
          const text = new TextDecoder('utf-8').decode(await fs.readFile(uriOf(path.join(directory, '.gitignore'))));
          rules = rules.withFile(relative, text);
        }
        const subdirectories: Promise<void>[] = [];
        for (const [name, type] of entries) {
          if (alwaysSkipped.has(name) || name.startsWith(tempFilePrefix)) continue;
          const childRelative = relative === '' ? name : `${relative}/${name}`;
          const absolute = path.join(directory, name);
          if (type & vscode.FileType.SymbolicLink) {
            // A file link is listed when it stays inside the root; linked directories are not followed.
            if (!(type & vscode.FileType.File) || !matches(childRelative) || rules.ignores(childRelative, false)) continue;
            const real = await probe.realpath(absolute);
            const inside = real === undefined ? undefined : lexicallyInside(realRoot, real);
            if (inside !== undefined && inside !== '') files.push(childRelative);
          } else if (type & vscode.FileType.Directory) {
            if (!rules.ignores(childRelative, true)) subdirectories.push(walk(absolute, childRelative, rules));
          } else if (type & vscode.FileType.File) {
            if (matches(childRelative) && !rules.ignores(childRelative, false)) files.push(childRelative);
          }
        }
        await Promise.all(subdirectories);
      };
      await walk(realRoot, '', IgnoreRules.empty());
      return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    },

    async stat(input, signal): Promise<FileStat | undefined> {
      signal?.throwIfAborted();
      const target = await resolve(input);
      const stat = await statOf(uriOf(target.real));
      if (!stat) return undefined;
      return { type: stat.type & vscode.FileType.Directory ? 'directory' : 'file', size: stat.size, mtimeMs: stat.mtime };
    },

    async locate(input, signal) {
      signal?.throwIfAborted();
      return located(await resolve(input));
    },
  };
}

function isNotFound(error: unknown): boolean {
  // A path through a file (`file.txt/sub`) does not exist either.
  return error instanceof vscode.FileSystemError && ['FileNotFound', 'EntryNotFound', 'FileNotADirectory', 'EntryNotADirectory'].includes(error.code);
}
