/** How large a JSON value from a stranger (the panel's page) may be: its nesting, its entries and its text. */
export interface ValueBounds {
  /** Deepest nesting of objects and lists (a flat object is 1 level deep). */
  depth: number;
  /** Most entries in all (an object's keys and a list's items, at every level). */
  entries: number;
  /** Most characters of text in all (keys and string values). */
  chars: number;
}

/**
 * What in `value` goes past `bounds` (`depth`, `entries` or `chars`), or `undefined` when it stays within them.
 * The walk stops at the first bound passed, so a value nested a million deep or holding a million entries costs no
 * more than the bounds themselves (and no stack: it recurses at most `bounds.depth` levels).
 */
export function valueOutOfBounds(value: unknown, bounds: ValueBounds): keyof ValueBounds | undefined {
  let entries = 0;
  let chars = 0;
  const walk = (item: unknown, level: number): keyof ValueBounds | undefined => {
    if (typeof item === 'string') {
      chars += item.length;
      return chars > bounds.chars ? 'chars' : undefined;
    }
    if (typeof item !== 'object' || item === null) return undefined;
    if (level >= bounds.depth) return 'depth';
    const keys = Array.isArray(item) ? undefined : Object.keys(item);
    const count = keys?.length ?? (item as unknown[]).length;
    if (entries + count > bounds.entries) return 'entries';
    entries += count;
    for (let index = 0; index < count; index++) {
      const key = keys?.[index];
      if (key !== undefined) chars += key.length;
      if (chars > bounds.chars) return 'chars';
      const out = walk(key === undefined ? (item as unknown[])[index] : (item as Record<string, unknown>)[key], level + 1);
      if (out !== undefined) return out;
    }
    return undefined;
  };
  return walk(value, 0);
}

/** What to do about `what` (`the arguments`) passing each of `bounds`, in the user's words. */
export function boundsAdvice(bounds: ValueBounds, what: string): Record<keyof ValueBounds, string> {
  return {
    depth: `Keep ${what} under ${bounds.depth} levels deep.`,
    entries: `Keep ${what} under ${bounds.entries.toLocaleString('en-US')} entries.`,
    chars: `Keep ${what} under ${bounds.chars.toLocaleString('en-US')} characters: put a long text in a file.`,
  };
}
