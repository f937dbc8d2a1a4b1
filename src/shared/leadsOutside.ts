/**
 * Whether `relative`, a path as `path.relative` gives it (either separator), leads out of the
 * folder it is relative to: `..` itself or a path through it (`../x`, `..\x`). A name that
 * merely starts with two dots (`..notes.md`, `...`) is inside. An absolute result (another
 * drive) is for the caller to refuse.
 */
export function leadsOutside(relative: string): boolean {
  return relative === '..' || relative.startsWith('../') || relative.startsWith('..\\');
}
