import { countTokens, truncateToTokens } from './tokenCount';

/** The newest lines, which keep more words until merging the older ones is not enough. */
const newestKept = 3;

/**
 * Condenses summary lines (one fact per line, `[id] title: result`) into at most `budget` tokens
 * without a model, and without dropping the oldest facts whole while something else can give. In
 * turn, until it fits: lines are shortened oldest first to 40 tokens; all but the newest three to 12;
 * the oldest of those are merged into one line naming only their ids (neighbouring ids as a range,
 * `S1–S40`); the newest three are shortened to 12 too and merged but for the newest; and only then
 * are the oldest ids of the merged line dropped. Deterministic: the same text and budget give the
 * same summary. Invariants: `countTokens(result) <= budget`; never empty when `text` has a non-blank
 * line and `budget` is a few tokens or more; the newest line always starts as it did.
 */
export function condenseSummary(text: string, budget: number): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0 || budget <= 0) return '';
  if (countTokens(lines.join('\n')) <= budget) return lines.join('\n');
  // An earlier condensation's merged line keeps its ids; it is not shortened like a fact line.
  let ids = lines[0]?.startsWith(mergedHead) ? (lines.shift() ?? '').slice(mergedHead.length).split(', ').filter((id) => id !== '' && id !== '…') : [];
  if (lines.length === 0) lines.push(ids.pop() ?? '');
  let rest = lines;
  const render = (merged: readonly string[], facts: readonly string[]): string =>
    [...(merged.length > 0 ? [`${mergedHead}${merged.join(', ')}`] : []), ...facts].join('\n');
  const fits = (merged: readonly string[], facts: readonly string[]): boolean => countTokens(render(merged, facts)) <= budget;
  const shorten = (cap: number, kept: number): void => {
    const base = rest;
    const first = (count: number): string[] => base.map((line, index) => (index < count ? truncateToTokens(line, cap, { marker: ' …' }) : line));
    rest = first(smallest(Math.max(0, base.length - kept), (count) => fits(ids, first(count))));
  };
  // Merge the fewest oldest lines into the line of ids that lets the rest fit (binary search: merging more never costs more).
  const merge = (kept: number): void => {
    const base = rest;
    const mergedWith = (count: number): string[] => joinRanges([...ids, ...base.slice(0, count).map(lineLabel)]);
    const count = smallest(Math.max(0, base.length - kept), (n) => fits(mergedWith(n), base.slice(n)));
    ids = mergedWith(count);
    rest = base.slice(count);
  };
  for (const stage of [() => shorten(40, 0), () => shorten(12, newestKept), () => merge(newestKept), () => shorten(12, 0), () => merge(1)]) {
    stage();
    if (fits(ids, rest)) return render(ids, rest);
  }
  // Then drop the fewest oldest ids from the merged line.
  const all = ids;
  const without = (count: number): string[] => (count === 0 ? all : count >= all.length ? [] : ['…', ...all.slice(count)]);
  const summary = render(without(smallest(all.length, (count) => fits(without(count), rest))), rest);
  return countTokens(summary) <= budget ? summary : truncateToTokens(rest[rest.length - 1] ?? '', budget, { marker: ' …' });
}

const mergedHead = 'Earlier steps (condensed): ';

/** The smallest `n` in 0..`most` for which `fits(n)` holds (`fits` is monotonic), or `most` when none does. */
function smallest(most: number, fits: (n: number) => boolean): number {
  let low = 0;
  let high = most;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (fits(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** Joins neighbouring ids that count up (`S1, S2, S3–S5` gives `S1–S5`), so a merged line stays short however many steps it names. */
function joinRanges(ids: readonly string[]): string[] {
  const joined: string[] = [];
  for (const id of ids) {
    const last = joined[joined.length - 1];
    const end = last === undefined ? undefined : numbered(last.includes('–') ? last.slice(last.indexOf('–') + 1) : last);
    const start = numbered(id.includes('–') ? id.slice(0, id.indexOf('–')) : id);
    if (last !== undefined && end && start && end.prefix === start.prefix && String(Number(end.digits) + 1).padStart(end.digits.length, '0') === start.digits) {
      const first = last.includes('–') ? last.slice(0, last.indexOf('–')) : last;
      joined[joined.length - 1] = `${first}–${id.includes('–') ? id.slice(id.indexOf('–') + 1) : id}`;
    } else joined.push(id);
  }
  return joined;
}

/** An id's text before its trailing number, and that number's digits. */
function numbered(id: string): { prefix: string; digits: string } | undefined {
  const match = /^(.*?)(\d{1,9})$/.exec(id);
  return match ? { prefix: match[1] ?? '', digits: match[2] ?? '' } : undefined;
}

/** The id of a fact line (`[S012] …` gives `S012`), or its first few words. */
function lineLabel(line: string): string {
  const id = /^\[([^\]]{1,40})\]/.exec(line)?.[1];
  return id ?? truncateToTokens(line.replace(/,/g, ' '), 4, { marker: '…' });
}
