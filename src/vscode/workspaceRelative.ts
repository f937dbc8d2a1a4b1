import { posix } from 'node:path';
import type * as vscode from 'vscode';
import { leadsOutside } from '../shared/leadsOutside';

/**
 * Where `uri` is relative to the folder `root`, with `/` separators: the workspace-relative
 * path, or `{ outside }` naming only the package the file belongs to (the folder after its
 * last `node_modules`, with its scope) or "outside the workspace", so no path outside the
 * workspace is ever shown.
 */
export function workspaceRelative(root: vscode.Uri, uri: vscode.Uri): { path: string } | { outside: string } {
  if (uri.scheme === root.scheme && uri.authority === root.authority) {
    const relative = posix.relative(root.path, uri.path);
    if (relative !== '' && !leadsOutside(relative) && !posix.isAbsolute(relative)) return { path: relative };
  }
  const parts = uri.path.split('/');
  const at = parts.lastIndexOf('node_modules');
  const name = at < 0 ? undefined : parts[at + 1]?.startsWith('@') ? `${parts[at + 1]}/${parts[at + 2] ?? ''}` : parts[at + 1];
  return { outside: name ? `package ${name}, outside the workspace` : 'outside the workspace' };
}
