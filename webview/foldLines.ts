/** Lines a long block shows before "Show N more lines". */
export const foldedLineCount = 20;

/**
 * `text` cut after its first `limit` lines: what shows while folded and how many lines
 * stay hidden (0 when the text fits, and then `shown` is the whole text).
 */
export function foldLines(text: string, limit = foldedLineCount): { shown: string; hiddenLines: number } {
  const lines = text.split('\n');
  // a trailing newline ends the last line; it is not one more line
  const count = text.endsWith('\n') ? lines.length - 1 : lines.length;
  if (count <= limit) return { shown: text, hiddenLines: 0 };
  return { shown: lines.slice(0, limit).join('\n'), hiddenLines: count - limit };
}
