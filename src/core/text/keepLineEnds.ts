/**
 * `content`, meant to replace the whole of `current`, written in `current`'s conventions: its
 * line ends when every one of them is the same (all CRLF, or all LF), and its byte order mark
 * (kept when it has one, dropped, with any repeat of it, when it has none). A diff editor shows neither a changed
 * line end nor a byte order mark, so a whole-file write that changed them would change bytes
 * the approval never showed (found by an outside attack: a CRLF rewrite of a shell script
 * and an added BOM, each shown as "no change", were written). A new file (`current`
 * undefined), a file of mixed line ends or of a single line keep `content` as given.
 */
export function keepLineEnds(current: string | undefined, content: string): string {
  if (current === undefined) return content;
  const bom = '\ufeff';
  // Every mark at the start: a second one would read as the file's own to any program reading it.
  const body = content.replace(/^\ufeff+/, '');
  const kind = lineEnds(current);
  const ends = kind === 'crlf' ? body.replace(/\r?\n/g, '\r\n') : kind === 'lf' ? body.replace(/\r\n/g, '\n') : body;
  return current.startsWith(bom) ? bom + ends : ends;
}

/** How `text`'s lines end: every one in CRLF, every one in LF, `mixed`, or `none` (a single line). A lone CR is no line end. */
export function lineEnds(text: string): 'crlf' | 'lf' | 'mixed' | 'none' {
  const crlf = text.includes('\r\n');
  const lf = /(?:^|[^\r])\n/.test(text);
  return crlf ? (lf ? 'mixed' : 'crlf') : lf ? 'lf' : 'none';
}
