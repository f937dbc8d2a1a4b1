/**
 * `text` on one line: every run of whitespace (line breaks and the Unicode line separators
 * included) becomes one space, so text from a plan or a model cannot print lines that look
 * like a view's own. With `max`, cut to at most `max` characters ending in "…", never
 * splitting a surrogate pair; only the first `4 × max` characters are looked at, so a 5 MB
 * text costs no more than a short one.
 */
export function oneLine(text: string, max = Number.POSITIVE_INFINITY): string {
  const flat = text
    .slice(0, max * 4)
    .replace(/\s+/g, ' ')
    .trim();
  if (flat.length <= max && text.length <= max * 4) return flat;
  let kept = flat.slice(0, max - 1).trimEnd();
  if (/[\ud800-\udbff]$/.test(kept)) kept = kept.slice(0, -1);
  return `${kept}…`;
}
