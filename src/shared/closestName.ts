/**
 * The name of `names` fewest edits away from `typed` (Levenshtein: insertions, deletions and substitutions of one
 * character each, letter case ignored), when within `maxEdits`; the first of equals. What a "Did you mean …?" names.
 * Names longer than `maxComparedChars` are not compared, so a hostile text costs at most that squared.
 */
export function closestName(typed: string, names: Iterable<string>, maxEdits: number): string | undefined {
  if (typed.length > maxComparedChars) return undefined;
  let best: { name: string; edits: number } | undefined;
  for (const name of names) {
    if (name.length > maxComparedChars) continue;
    const edits = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (edits <= maxEdits && (best === undefined || edits < best.edits)) best = { name, edits };
  }
  return best?.name;
}

const maxComparedChars = 64;

function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    for (let j = 1; j <= right.length; j++) {
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (left[i - 1] === right[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[right.length] ?? 0;
}
