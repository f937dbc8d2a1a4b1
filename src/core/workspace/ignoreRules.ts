import ignore from 'ignore';
import type { Ignore } from 'ignore';

/**
 * Directory names never listed or searched, at any depth, whatever `.gitignore` says: git's
 * own, installed packages, and Task Planner's own (run journals and temporary files: a search
 * would find every past run's records, which grow with each run).
 */
export const alwaysSkipped: ReadonlySet<string> = new Set(['.git', 'node_modules', '.task-planner']);
const skippedNames = [...alwaysSkipped];

/**
 * The `.gitignore` rules in force in one directory: its ancestors' files plus its own.
 * Immutable: `withFile` returns a new value, so a walker can hand each subdirectory its own.
 */
export class IgnoreRules {
  private constructor(private readonly levels: readonly { base: string; rules: Ignore }[]) {}

  /** No rules at all. */
  static empty(): IgnoreRules {
    return new IgnoreRules([]);
  }

  /** These rules plus the `.gitignore` text found in directory `base` (workspace-relative, `''` for the root). */
  withFile(base: string, gitignoreText: string): IgnoreRules {
    return new IgnoreRules([...this.levels, { base, rules: ignore({ allowRelativePaths: true }).add(gitignoreText) }]);
  }

  /**
   * Whether `relativePath` (a file, or a directory when `isDirectory`) is ignored. Deeper
   * files override shallower ones, negations (`!pattern`) re-include. Callers must also
   * skip everything below an ignored directory, as git does.
   */
  ignores(relativePath: string, isDirectory: boolean): boolean {
    // The substring test keeps the split off most paths (this runs once per listed entry).
    if (skippedNames.some((name) => relativePath.includes(name)) && relativePath.split('/').some((segment) => alwaysSkipped.has(segment))) return true;
    let ignored = false;
    for (const level of this.levels) {
      if (level.base !== '' && !relativePath.startsWith(level.base + '/')) continue;
      const local = level.base === '' ? relativePath : relativePath.slice(level.base.length + 1);
      const verdict = level.rules.test(isDirectory ? `${local}/` : local);
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  }
}
