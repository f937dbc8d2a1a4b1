/** A workspace folder as `chooseFolder` sees it: its name and URI (compared by `toString()`). */
export interface FolderLike {
  readonly name: string;
  readonly uri: { toString(): string };
}

/**
 * Which folder a "Plan task" works in: `folder` when it is clear, `ask` when the user must
 * pick one of the folders, `spread` when the given files lie in several folders (the
 * names of those folders, in workspace order), `none` when no folder is open.
 */
export type FolderChoice<F extends FolderLike> =
  | { kind: 'folder'; folder: F }
  | { kind: 'ask'; folders: readonly F[] }
  | { kind: 'spread'; names: string[] }
  | { kind: 'none' };

/**
 * Chooses the folder of a planning in a window of `folders`: the only one; else the one
 * holding every given file (`files`: each file's folder, `undefined` for a file outside
 * them all, which is left to the attachment check); else the active editor's folder
 * (`editor`); else the user is asked. Files in two or more folders are `spread`.
 */
export function chooseFolder<F extends FolderLike>(
  folders: readonly F[],
  context: { files?: readonly (F | undefined)[]; editor?: F | undefined },
): FolderChoice<F> {
  const [only] = folders;
  if (only === undefined) return { kind: 'none' };
  if (folders.length === 1) return { kind: 'folder', folder: only };
  const key = (folder: F): string => folder.uri.toString();
  const ofFiles = new Set((context.files ?? []).filter((folder) => folder !== undefined).map(key));
  const inWorkspaceOrder = folders.filter((folder) => ofFiles.has(key(folder)));
  if (inWorkspaceOrder.length > 1) return { kind: 'spread', names: inWorkspaceOrder.map((folder) => folder.name) };
  const [ofAllFiles] = inWorkspaceOrder;
  if (ofAllFiles) return { kind: 'folder', folder: ofAllFiles };
  const editor = context.editor && folders.find((folder) => key(folder) === key(context.editor!));
  return editor ? { kind: 'folder', folder: editor } : { kind: 'ask', folders };
}
