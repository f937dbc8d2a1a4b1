import { caseFold } from './caseFold';

/**
 * The key under which changes of one file are serialized in this process: the file's place on disk as the root names it
 * (`root` with `/` separators and no trailing one, then the workspace-relative `resolvedPath`), folded as a case-insensitive
 * disk folds it (`caseFold`). So two workspaces whose roots nest (`/w` and `/w/sub`, each with its own run lane) changing `/w/sub/x.txt` take one
 * key, and so do `README.md` and `readme.md`, one file on a case-insensitive disk. On a case-sensitive disk two such files
 * merely wait for each other: serializing too much costs a moment, too little loses a change.
 */
export function changeKey(root: string, resolvedPath: string): string {
  let base = root.replaceAll('\\', '/');
  while (base.endsWith('/')) base = base.slice(0, -1);
  return foldedPath(`${base}/${resolvedPath}`);
}

/** A path as a case-insensitive, normalization-insensitive file system tells files apart (`caseFold`). */
export function foldedPath(path: string): string {
  return caseFold(path);
}
