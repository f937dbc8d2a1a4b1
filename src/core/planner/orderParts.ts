/** What the order of one part of a request depends on. */
export interface PartTraits {
  /** The text orders it after the part before (a sequencing word, a numbered item). */
  follows: boolean;
  /** A question for the user. */
  question: boolean;
  /** It names what the part before produced ("it", "the results"). */
  refersBack: boolean;
  /** It only reads (files read, listed or searched). */
  readOnly: boolean;
  /** It runs a command or checks the work: it tests the changes made before it. */
  checks: boolean;
  /** The workspace paths it names. */
  paths: readonly string[];
}

/** In which order the parts become steps, and the parts each one waits for (indexes into the parts). */
export interface PartOrder {
  order: number[];
  dependsOn: number[][];
}

/**
 * Orders the parts of a request (docs/architecture.md §5). A list of instructions runs in
 * its order, each part after the one before, unless the parts are clearly independent:
 * `parallel` (the request says "in parallel", "independently"), or every part that changes
 * something names files and no two name the same. Then a part waits only where the text
 * orders it ("then"), where it refers back ("it"), where it names a path an earlier part
 * named, and when it runs a command or checks (it tests every change before it). Reads next to
 * each other run side by side. A question that does not refer back comes first, waiting for
 * nothing, and all work after it in the text waits for its answer; the work before it does not.
 */
export function orderParts(parts: readonly PartTraits[], parallel: boolean): PartOrder {
  const hoisted = parts.map((part, index) => part.question && !(index > 0 && part.refersBack));
  const independent = parallel || disjointChanges(parts.filter((_, index) => !hoisted[index]));
  const dependsOn: number[][] = parts.map(() => []);
  const reach: Set<number>[] = parts.map(() => new Set<number>());
  let group: number[] = [];
  let base: number[] = [];
  let previous: number[] = [];
  let asked: number[] = [];
  let before: PartTraits | undefined;
  const lastByPath = new Map<string, number>();
  parts.forEach((part, index) => {
    if (hoisted[index]) {
      asked = [...asked, index];
      return;
    }
    const sideBySide = part.readOnly && before?.readOnly === true && !part.follows;
    const follows = part.follows || (independent ? part.checks : before !== undefined && !sideBySide);
    let after: number[];
    if (follows) {
      after = group;
      base = group;
      group = [];
    } else if (before !== undefined && part.refersBack) {
      after = previous;
      group = group.filter((id) => !previous.includes(id));
    } else {
      after = base;
    }
    const sharing = part.paths.flatMap((path) => (lastByPath.has(path) ? [lastByPath.get(path)!] : []));
    const direct = [...new Set([...after, ...sharing])];
    // A question the work waits for already through another part needs no second dependency.
    const waited = new Set(direct.flatMap((other) => [...reach[other]!]));
    const waits = [...direct, ...asked.filter((question) => !waited.has(question) && !direct.includes(question))].sort((a, b) => a - b);
    dependsOn[index] = waits;
    reach[index] = new Set([...waits, ...waits.flatMap((other) => [...reach[other]!])]);
    group = [...group, index];
    previous = [index];
    before = part;
    for (const path of part.paths) lastByPath.set(path, index);
    if (part.question) asked = [...asked, index];
  });
  const order = [...parts.keys()].sort((a, b) => Number(hoisted[b]) - Number(hoisted[a]) || a - b);
  return { order, dependsOn };
}

/** Whether at least two parts change something, each names files, and no file or folder is named by two of them. */
function disjointChanges(parts: readonly PartTraits[]): boolean {
  const changing = parts.filter((part) => !part.checks && !part.question && !part.readOnly);
  if (changing.length < 2 || changing.some((part) => part.paths.length === 0)) return false;
  const seen: string[] = [];
  for (const part of changing) {
    if (part.paths.some((path) => seen.some((other) => overlaps(path, other)))) return false;
    seen.push(...part.paths);
  }
  return true;
}

function overlaps(a: string, b: string): boolean {
  const [x, y] = [a.replace(/\/$/, ''), b.replace(/\/$/, '')];
  return x === y || x.startsWith(`${y}/`) || y.startsWith(`${x}/`);
}
