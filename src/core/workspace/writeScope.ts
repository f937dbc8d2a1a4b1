import { compileGlob } from './globMatcher';

/**
 * Where a step may change files. `patterns`: workspace-relative paths or globs; a path
 * without glob characters names that file or, as a folder, everything under it (`src`
 * covers `src/a.ts`); a glob matches as `compileGlob` does (one without `/` matches the
 * file name at any depth). `everything`: a step that may write anywhere (a command, an
 * agent with write tools, no scope given). `nothing`: a step that changes no file.
 */
export type WriteScope = { kind: 'nothing' } | { kind: 'everything' } | { kind: 'patterns'; patterns: readonly string[] };

const globCharacters = /[*?[\]{}\\]/;

/** `pattern` without a leading `./`, doubled and trailing slashes. */
export function normalizeScopePattern(pattern: string): string {
  return pattern.trim().replace(/^(\.\/)+/, '').replace(/\/{2,}/g, '/').replace(/\/$/, '');
}

/** `true` when the change of `path` (workspace-relative) lies within `patterns`. */
export function inWriteScope(path: string, patterns: readonly string[]): boolean {
  return patterns.some((raw) => {
    const pattern = normalizeScopePattern(raw);
    if (!globCharacters.test(pattern)) return path === pattern || path.startsWith(`${pattern}/`);
    return compileGlob(pattern)(path);
  });
}

/**
 * `true` when two steps' scopes may name a common file, so they must not run at once.
 * Conservative for globs: two patterns are apart only when their fixed folders (the
 * segments before the first glob character) are apart; a glob without `/` is anywhere.
 */
export function writeScopesOverlap(a: WriteScope, b: WriteScope): boolean {
  if (a.kind === 'nothing' || b.kind === 'nothing') return false;
  if (a.kind === 'everything' || b.kind === 'everything') return true;
  return a.patterns.some((p) => b.patterns.some((q) => patternsOverlap(normalizeScopePattern(p), normalizeScopePattern(q))));
}

function patternsOverlap(p: string, q: string): boolean {
  return nested(fixedSegments(p), fixedSegments(q));
}

/** The segments every path a pattern names starts with. */
function fixedSegments(pattern: string): string[] {
  const segments = pattern.split('/').filter((segment) => segment !== '');
  if (!globCharacters.test(pattern)) return segments;
  // A glob without a folder matches the name at any depth.
  if (segments.length === 1) return [];
  const fixed: string[] = [];
  for (const segment of segments) {
    if (globCharacters.test(segment)) break;
    fixed.push(segment);
  }
  return fixed;
}

/** `true` when one list of segments starts with the other. */
function nested(a: readonly string[], b: readonly string[]): boolean {
  const shorter = Math.min(a.length, b.length);
  for (let index = 0; index < shorter; index++) if (a[index] !== b[index]) return false;
  return true;
}
