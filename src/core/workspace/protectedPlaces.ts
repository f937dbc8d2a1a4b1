/**
 * Places inside a workspace that tools never change: git's own data (`.git`, at any depth,
 * in any letter case, since case-insensitive file systems treat `.GIT` as `.git`). Checked
 * on the location a path resolves to, after symbolic links, not only on the path as written.
 */
export function isProtectedSegment(segment: string): boolean {
  // Stryker disable next-line ConditionalExpression: the length test only spares lower-casing most segments; the comparison decides.
  return segment.length === 4 && segment.toLowerCase() === '.git';
}

/** `true` when the workspace-relative `relative` lies in a protected place. */
export function isProtectedPath(relative: string): boolean {
  return relative.split('/').some(isProtectedSegment);
}

/** Why a change to `resolved` (workspace-relative, after links) is refused, for `PathRefusedError`. */
export function protectedPlaceReason(resolved: string): string {
  return `it leads to ${resolved}, inside .git, which git manages: tools never change files there`;
}
