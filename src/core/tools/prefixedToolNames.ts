/** The longest tool name the registry (and LLM APIs) accept. */
const maxToolNameLength = 64;

/**
 * Registry names for tools that come from elsewhere: `prefix` and the tool's own name with
 * every character outside `[a-zA-Z0-9_-]` made `_`, at most 64 characters; where two would
 * be the same, the later one in sorted order of the original names gets `_2`, `_3`… (cut to
 * fit), so the names do not depend on the order the tools are listed in. `prefix` must itself
 * be a valid name part of at most 50 characters.
 */
export function prefixedToolNames(prefix: string, originals: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const original of [...new Set(originals)].sort()) {
    const base = `${prefix}${original.replace(/[^a-zA-Z0-9_-]/g, '_')}`.slice(0, maxToolNameLength);
    let name = base;
    for (let suffix = 2; taken.has(name); suffix++) name = `${base.slice(0, maxToolNameLength - String(suffix).length - 1)}_${suffix}`;
    taken.add(name);
    names.set(original, name);
  }
  return names;
}
