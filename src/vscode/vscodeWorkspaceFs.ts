import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FileStat, WorkspaceFs } from '../core/ports';
import { compileGlob } from '../core/workspace/globMatcher';
import { alwaysSkipped, IgnoreRules } from '../core/workspace/ignoreRules';
import { lexicallyInside, PathRefusedError, resolveInRoot } from '../core/workspace/resolveInRoot';
import type { ResolvedPath } from '../core/workspace/resolveInRoot';
import { WorkspaceError } from '../core/workspace/workspaceError';
import { createNodePathProbe } from '../node/nodePathProbe';

/** Prefix of the temporary files atomic writes create next to their target; never listed. */
const tempFilePrefix = '.task-planner-tmp-';

/**
 * A `WorkspaceFs` over `vscode.workspace.fs` for a local (`file:`) workspace folder, as the
 * extension host sees it (also in a remote host). Every path goes through the core's
 * `resolveInRoot` with symbolic links followed, so nothing outside `root` is read or
 * changed; writes are atomic (a temporary file next to the target, then a rename); `list`
 * honours `.gitignore` files at every level and skips `.git` and `node_modules`.
 */
export function createVscodeWorkspaceFs(root: vscode.Uri): WorkspaceFs {
  const fs = vscode.workspace.fs;
  const rootPath = root.fsPath;
  const probe = createNodePathProbe();
  const resolve = (input: string): Promise<ResolvedPath> => resolveInRoot(input, { root: rootPath, probe });
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

    async readText(input, signal, options) {
      signal?.throwIfAborted();
      const target = await resolve(input);
      const stat = await statOf(uriOf(target.real));
      if (!stat) throw new WorkspaceError('not_found', input, `File not found: ${target.relative || '.'}`);
      if (stat.type & vscode.FileType.Directory) throw new WorkspaceError('is_directory', input, `${target.relative || '.'} is a directory, not a file`);
      if (options?.maxBytes !== undefined && stat.size > options.maxBytes) {
        throw new WorkspaceError('too_large', input, `${target.relative} is ${stat.size} bytes, more than the ${options.maxBytes}-byte limit for this read`);
      }
      const bytes = await fs.readFile(uriOf(target.real));
      signal?.throwIfAborted();
      return new TextDecoder('utf-8').decode(bytes);
    },

    async writeText(input, text, signal) {
      signal?.throwIfAborted();
      const target = await resolve(input);
      if (target.relative === '') throw new WorkspaceError('is_directory', input, 'The workspace root is a directory, not a file');
      const existing = await statOf(uriOf(target.real));
      if (existing && existing.type & vscode.FileType.Directory) throw new WorkspaceError('is_directory', input, `${target.relative} is a directory; choose a file path`);
      await checkAncestors(target);
      const directory = path.dirname(target.real);
      await fs.createDirectory(uriOf(directory));
      const temp = uriOf(path.join(directory, `${tempFilePrefix}${path.basename(target.real)}.${randomBytes(6).toString('hex')}`));
      try {
        await fs.writeFile(temp, new TextEncoder().encode(text));
        signal?.throwIfAborted();
        await fs.rename(temp, uriOf(target.real), { overwrite: true });
      } catch (error) {
        await fs.delete(temp, { useTrash: false }).then(undefined, () => undefined);
        throw error;
      }
    },

    async delete(input, signal) {
      signal?.throwIfAborted();
      const target = await resolve(input);
      if (target.relative === '') throw new PathRefusedError(input, 'the workspace root itself cannot be deleted');
      const stat = await statOf(uriOf(target.real));
      if (!stat) throw new WorkspaceError('not_found', input, `Nothing to delete: ${target.relative} does not exist`);
      // The link itself, not its target, is what the path names.
      const victim = (await probe.isSymlink(target.absolute)) ? uriOf(target.absolute) : uriOf(target.real);
      if (stat.type & vscode.FileType.Directory) {
        const entries = await fs.readDirectory(victim);
        if (entries.length > 0) throw new WorkspaceError('not_empty', input, `${target.relative} is a directory that is not empty; delete its files first`);
      }
      await fs.delete(victim, { recursive: false, useTrash: false });
    },

    async createDirectory(input, signal) {
      signal?.throwIfAborted();
      const target = await resolve(input);
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
  };
}

function isNotFound(error: unknown): boolean {
  // A path through a file (`file.txt/sub`) does not exist either.
  return error instanceof vscode.FileSystemError && ['FileNotFound', 'EntryNotFound', 'FileNotADirectory', 'EntryNotADirectory'].includes(error.code);
}
