import { diffArrays } from 'diff';

/**
 * `content`, meant to replace the whole of `current`, written in `current`'s conventions: its
 * line ends when every one of them is the same (all CRLF, or all LF), and its byte order mark
 * (kept when it has one, dropped, with any repeat of it, when it has none). A diff editor shows neither a changed
 * line end nor a byte order mark, so a whole-file write that changed them would change bytes
 * the approval never showed (found by an outside attack: a CRLF rewrite of a shell script
 * and an added BOM, each shown as "no change", were written). In a file of mixed line ends, every
 * line the write leaves as it was keeps its own line end, and a new or changed line ends as most of
 * the file's lines do (the editor shows such a file in that one line end too); lines are told apart
 * by a line diff bounded at `maxLineEdits` edits, beyond which only the unchanged lines at the start
 * and the end keep theirs. A file of lone CR ends keeps them too, and a lone CR beside CRLF or LF ends counts as a line
 * end there (a file holding one is kept line by line, as a mixed one). A new file (`current` undefined) or a file of a single line keeps
 * `content` as given.
 */
export function keepLineEnds(current: string | undefined, content: string): string {
  if (current === undefined) return content;
  const body = content.replace(/^\ufeff+/, '');
  const kind = lineEnds(current);
  // A lone CR beside CRLF or LF ends is a line end to the editor too (it shows the file in one line end): rewritten in the
  // file's usual end, it changed bytes the diff showed as no change (an outside attack: `b\rc` written as `b\nc`). Such a
  // file is kept line by line, as a mixed one is.
  const strayCr = (kind === 'crlf' || kind === 'lf') && /\r(?!\n)/.test(current);
  const end = strayCr ? undefined : uniformLineEnd(kind);
  const ends =
    end !== undefined ? body.replace(/\r?\n/g, end) : kind === 'mixed' || strayCr ? keepEachLineEnd(current.replace(/^\ufeff/, ''), body) : body;
  return keepByteOrderMark(current, ends);
}

/**
 * `text`, the new content of a file that held `current`, with `current`'s byte order mark at its start, or none when
 * `current` has none. Every mark at the start of `text` goes: a second one would read as the file's own to any program
 * reading it, and a diff editor shows none of them.
 */
export function keepByteOrderMark(current: string, text: string): string {
  const body = text.replace(/^\ufeff+/, '');
  return current.startsWith('\ufeff') ? `\ufeff${body}` : body;
}

/** The one line end of a file whose lines all end alike (`lineEnds`: CRLF, LF or a lone CR), else `undefined`. */
export function uniformLineEnd(kind: ReturnType<typeof lineEnds>): string | undefined {
  return kind === 'crlf' ? '\r\n' : kind === 'lf' ? '\n' : kind === 'cr' ? '\r' : undefined;
}

/**
 * How `text`'s lines end: every one in CRLF, every one in LF, `mixed`, every one in a lone CR (`cr`, old Mac line ends,
 * which the editor shows as lines too), or `none` (a single line). Beside CRLF or LF ends, a lone CR is no line end.
 */
export function lineEnds(text: string): 'crlf' | 'lf' | 'cr' | 'mixed' | 'none' {
  const crlf = text.includes('\r\n');
  const lf = /(?:^|[^\r])\n/.test(text);
  return crlf ? (lf ? 'mixed' : 'crlf') : lf ? 'lf' : /\r(?!\n)/.test(text) ? 'cr' : 'none';
}

/**
 * The most edits the line diff of a mixed file looks for: its cost grows with the lines times the edits, and a rewrite
 * of a large file beyond this is rare enough to keep only its unchanged first and last lines' ends.
 */
export const maxLineEdits = 500;

/** A text as its lines, each with the line end that follows it (none after the last). */
interface Lines {
  readonly texts: string[];
  readonly ends: string[];
}

/** `text` as its lines, split where the editor splits them: at CRLF, LF and a lone CR. */
function splitLines(text: string): Lines {
  const parts = text.split(/(\r\n|\r|\n)/);
  return { texts: parts.filter((_, index) => index % 2 === 0), ends: parts.filter((_, index) => index % 2 === 1) };
}

/**
 * `content`, an edit of `current` (a file of mixed line ends, or with a lone CR beside CRLF or LF ends), with the end of every
 * line it leaves as it was taken from `current`; a line it adds or changes keeps its own end. The editor shows such a file in
 * one line end, so a line shown unchanged must not change its end (an outside attack: `cd build\n` rewritten as
 * `cd build\r\n` in a mostly-LF script showed no change). Neither side's byte order mark is looked at.
 */
export function keepUnchangedLineEnds(current: string, content: string): string {
  return keepEachLineEnd(current, content, 'own');
}

/**
 * `content` with each line's end taken from the same unchanged line of `current`, and elsewhere the file's most used end
 * (`others: 'usual'`) or the line's own end in `content` (`'own'`).
 */
function keepEachLineEnd(current: string, content: string, others: 'usual' | 'own' = 'usual'): string {
  const old = splitLines(current);
  const next = splitLines(content);
  const crCount = old.ends.filter((end) => end !== '\n').length;
  // As the editor picks the one line end it shows a mixed file in: CRLF when more than half the ends are CRLF or a lone CR.
  const usual = crCount > old.ends.length / 2 ? '\r\n' : '\n';
  /** The end of each line of `content`, by its index, where it is a line of `current` left as it was. */
  const kept = new Map<number, string>();
  const keep = (oldIndex: number, newIndex: number): void => {
    const end = old.ends[oldIndex];
    if (end !== undefined) kept.set(newIndex, end);
  };
  let prefix = 0;
  while (prefix < old.texts.length && prefix < next.texts.length && old.texts[prefix] === next.texts[prefix]) keep(prefix, prefix++);
  let suffix = 0;
  while (
    suffix < old.texts.length - prefix && suffix < next.texts.length - prefix
    && old.texts[old.texts.length - 1 - suffix] === next.texts[next.texts.length - 1 - suffix]
  ) {
    keep(old.texts.length - 1 - suffix, next.texts.length - 1 - suffix);
    suffix++;
  }
  const oldMiddle = old.texts.slice(prefix, old.texts.length - suffix);
  const middle = diffArrays(oldMiddle, next.texts.slice(prefix, next.texts.length - suffix), { maxEditLength: maxLineEdits });
  let oldIndex = prefix;
  let newIndex = prefix;
  for (const part of middle ?? []) {
    if (!part.added && !part.removed) for (let line = 0; line < part.count; line++) keep(oldIndex + line, newIndex + line);
    if (!part.added) oldIndex += part.count;
    if (!part.removed) newIndex += part.count;
  }
  const otherEnd = (index: number): string => (others === 'own' ? (next.ends[index] ?? usual) : usual);
  return next.texts.map((text, index) => (index === next.texts.length - 1 ? text : text + (kept.get(index) ?? otherEnd(index)))).join('');
}
