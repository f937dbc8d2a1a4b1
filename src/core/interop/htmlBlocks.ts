/** A line that opens or closes a fenced code block, as `readMarkdownTasks` reads it. */
const fenceLine = /^\s*(```|~~~)/;

/**
 * The HTML blocks a line may open (CommonMark's kinds 1 to 5, the ones a blank line does not end), by the start of
 * the line, and what ends each: a renderer shows nothing of the block up to there.
 */
const htmlBlockKinds: readonly { start: RegExp; end: RegExp }[] = [
  { start: /^ {0,3}<(?:script|pre|style|textarea)(?=[\s>]|$)/i, end: /<\/(?:script|pre|style|textarea)>/i },
  { start: /^ {0,3}<!--/, end: /-->/ },
  { start: /^ {0,3}<\?/, end: /\?>/ },
  { start: /^ {0,3}<!\[CDATA\[/, end: /\]\]>/ },
  { start: /^ {0,3}<![A-Za-z]/, end: />/ },
];

/**
 * Note lines of a Markdown task file that open no HTML block left open: a block the notes never close (a `<!--`, a
 * `<style>`, a `<?`) had every task written after it shown as nothing where the file is rendered (GitHub, a preview),
 * while the tool reading the file still ran them (attack). Its opening `<` is escaped (`\<!--`, shown as written).
 * A block the notes close stays, and a fence line inside it is escaped (`\```): the task reader, which knows no HTML,
 * took it for a fence and closed it after the notes with a line that opened a real one. Linear in the lines.
 */
export function withoutOpenHtmlBlocks(lines: readonly string[]): string[] {
  // The last line each kind's end is found on: a block opened before it closes, one opened after it never does.
  const lastEnd = htmlBlockKinds.map((kind) => lines.findLastIndex((line) => kind.end.test(line)));
  const out: string[] = [];
  let open: RegExp | undefined;
  let inFence = false;
  for (const [index, line] of lines.entries()) {
    if (open !== undefined) {
      out.push(fenceLine.test(line) ? line.replace(/^(\s*)/, '$1\\') : line);
      if (open.test(line)) open = undefined;
      continue;
    }
    if (fenceLine.test(line)) inFence = !inFence;
    const kind = inFence ? -1 : htmlBlockKinds.findIndex((each) => each.start.test(line));
    if (kind < 0) {
      out.push(line);
      continue;
    }
    const { start, end } = htmlBlockKinds[kind]!;
    const rest = line.slice(start.exec(line)![0].length);
    if (end.test(rest)) out.push(line);
    else if (lastEnd[kind]! > index) {
      out.push(line);
      open = end;
    } else out.push(line.replace('<', '\\<'));
  }
  return out;
}
