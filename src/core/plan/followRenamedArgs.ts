import type { Check, Step } from './planSchema';

/**
 * `edited` (a step after its arguments were edited) with what named an argument's old value following it: a path
 * argument changed from `docs/NOTES.md` to `docs/ROADMAP.md` renames that path in the step's checks (`path`, `paths`,
 * `cwd`) and `writes` where it is their whole value, and in its title where it stands whole, which the planner made from
 * the old value; else the run would write the new file, ask about a change outside the step's files and fail the old
 * file's check. Fields the same edit changed itself (`patched`) are the user's and are left alone.
 */
export function followRenamedArgs(before: Step, edited: Step, patched: ReadonlySet<string>): Step {
  const renames = new Map<string, string>();
  for (const [key, old] of Object.entries(before.args ?? {})) {
    const now = edited.args?.[key];
    // Only a path argument names what the checks and `writes` name: a file's content changed from "a" is no rename.
    if (pathKeys.has(key) && typeof old === 'string' && typeof now === 'string' && old !== now && isPathLike(old) && isPathLike(now)) renames.set(old, now);
  }
  if (renames.size === 0) return edited;
  const renamed = (value: string): string => renames.get(value) ?? value;
  const step: Step = { ...edited };
  if (!patched.has('checks') && step.checks) step.checks = step.checks.map((check) => renamedCheck(check, renamed));
  if (!patched.has('writes') && step.writes) step.writes = step.writes.map(renamed);
  if (!patched.has('title')) {
    for (const [old, now] of renames) step.title = step.title.replace(wholePath(old), (_match, lead: string) => `${lead}${now}`);
  }
  return step;
}

/** The arguments of the built-in tools that name a file or folder. */
const pathKeys = new Set(['path', 'cwd', 'file', 'dir', 'directory', 'from', 'to', 'source', 'destination', 'output']);

/** A workspace path as an argument holds one: a word, no spaces or line breaks, no control characters. */
function isPathLike(value: string): boolean {
  return /^[^\s\p{Cc}]{1,400}$/u.test(value);
}

/** `path` where it stands as a whole in a title (not inside a longer path or word), with the character before it. */
function wholePath(path: string): RegExp {
  return new RegExp(`(^|[^\\w./-])${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w/-]|\\.\\w)`, 'g');
}

function renamedCheck(check: Check, renamed: (value: string) => string): Check {
  switch (check.kind) {
    case 'file_exists':
    case 'file_absent':
    case 'file_contains':
      return { ...check, path: renamed(check.path) };
    case 'command':
      return check.cwd === undefined ? check : { ...check, cwd: renamed(check.cwd) };
    case 'no_new_diagnostics':
      return check.paths === undefined ? check : { ...check, paths: check.paths.map(renamed) };
  }
}
