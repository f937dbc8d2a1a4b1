import { z } from 'zod';
import { WorkspaceError } from '../workspace/workspaceError';
import { changeFile } from './fileChange';
import type { FileChangeResult } from './fileChange';
import type { Tool } from './tool';
import { keepByteOrderMark, keepUnchangedLineEnds, lineEnds, uniformLineEnd } from '../text/keepLineEnds';

const inputSchema = z.strictObject({
  path: z.string().describe('Workspace-relative path of an existing file.'),
  edits: z
    .array(
      z.strictObject({
        search: z.string().min(1).describe('Exact text to find; must occur exactly once in the file, whitespace included.'),
        replace: z.string().describe('Text that replaces it.'),
      }),
    )
    .min(1)
    .max(100)
    .describe('Search/replace blocks, all matched against the file as it is now; all are applied or none.'),
});

/** One search/replace block as `edit_file` takes it. */
export type EditBlock = { search: string; replace: string };

/**
 * Applies every block to `text` or none: each search text must occur exactly once in the
 * original and no two may overlap. Throws an `Error` naming every faulty block (1-based)
 * otherwise. When the file uses CRLF and a block uses LF, the block is matched with CRLF; in a file whose every line ends
 * in CRLF, a replacement's line breaks are written as CRLF, and in one whose every line ends in LF, as LF. The file keeps
 * its byte order mark, or its lack of one. In a file of mixed line ends, a line the edit leaves as it was keeps its own end.
 */
export function applyEditBlocks(path: string, text: string, blocks: readonly EditBlock[]): string {
  const problems: string[] = [];
  const ranges: { block: number; start: number; end: number; replace: string }[] = [];
  // A file whose every line ends in CRLF keeps doing so: a replacement's LF lines would mix the two. And one whose every
  // line ends in LF keeps LF: the diff editor shows a document in one line end, so a replacement's CRLF lines written into
  // it were bytes the approval never showed (an outside attack; the whole-file write keeps them too, keepLineEnds).
  // So does a file of old Mac line ends (CR alone), which the editor shows as lines too.
  const kind = lineEnds(text);
  const end = uniformLineEnd(kind);
  blocks.forEach((block, index) => {
    const label = `block ${index + 1}`;
    // In a CRLF (or CR) file a search's line break is the file's: matched as written, a leading "\n" would start inside a CRLF
    // and leave its "\r" before the replacement (an outside attack: "\nb" -> "\nB" wrote CR CR LF).
    let search = kind === 'crlf' || kind === 'cr' ? block.search.replace(/\r?\n/g, end!) : block.search;
    let replace = end === undefined ? block.replace : block.replace.replace(/\r?\n/g, end);
    let starts = occurrences(text, search);
    if (starts.length === 0 && text.includes('\r\n') && !search.includes('\r\n') && search.includes('\n')) {
      search = search.replace(/\n/g, '\r\n');
      replace = block.replace.replace(/\r?\n/g, '\r\n');
      starts = occurrences(text, search);
    }
    if (starts.length === 0) {
      problems.push(
        `${label}: its search text was not found (${preview(block.search)}); copy the exact current text, whitespace included, after reading the file`,
      );
    } else if (starts.length > 1) {
      const lines = starts.slice(0, 5).map((start) => lineOf(text, start));
      problems.push(
        `${label}: its search text occurs ${starts.length} times (lines ${lines.join(', ')}${starts.length > 5 ? ', …' : ''}); add surrounding lines so it matches exactly once`,
      );
    } else {
      ranges.push({ block: index + 1, start: starts[0] as number, end: (starts[0] as number) + search.length, replace });
    }
  });
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1] as (typeof sorted)[number];
    const current = sorted[i] as (typeof sorted)[number];
    if (current.start < previous.end) {
      const [first, second] = previous.block < current.block ? [previous.block, current.block] : [current.block, previous.block];
      const same = blocks[first - 1]?.search === blocks[second - 1]?.search;
      problems.push(
        same
          ? `blocks ${first} and ${second} have the same search text; give it once`
          : `blocks ${first} and ${second} overlap (both touch line ${lineOf(text, current.start)}); merge them into one block`,
      );
    }
  }
  if (problems.length > 0) throw new Error(`edit_file changed nothing in ${path}: ${problems.join('; ')}.`);
  let result = '';
  let cursor = 0;
  for (const range of sorted) {
    result += text.slice(cursor, range.start) + range.replace;
    cursor = range.end;
  }
  const edited = result + text.slice(cursor);
  // A CR at the edge of a search or a replacement (`beta\r` → `BETA` in a CRLF file, `beta` → `BETA\r` in an LF one) changed a
  // line end the diff editor does not show (an outside attack): a file whose lines all end alike keeps that end on every line.
  // A file of mixed line ends (or with a lone CR beside CRLF or LF ends) is shown in one line end too: every line the edit
  // leaves as it was keeps its own end; a new or changed line keeps the replacement's (an outside attack: `cd build\n`
  // rewritten as `cd build\r\n` in a mostly-LF script showed no change, and bash's `cd` then failed).
  const strayCr = (kind === 'crlf' || kind === 'lf') && /\r(?!\n)/.test(text);
  const uniform = end === undefined ? edited : edited.replace(/\r?\n/g, end);
  const ends = kind === 'mixed' || strayCr ? keepUnchangedLineEnds(text, uniform) : uniform;
  // The file keeps its byte order mark, or its lack of one: the diff editor drops a leading mark from both sides, so an
  // edit adding or removing it showed "no change" (an outside attack; the whole-file write keeps it too, keepLineEnds).
  return keepByteOrderMark(text, ends);
}

/** `edit_file`: exact search/replace blocks on one file, all or none, after approval. */
export const editFileTool: Tool<z.infer<typeof inputSchema>, FileChangeResult> = {
  name: 'edit_file',
  description: 'Change part of an existing file with exact search/replace blocks. Each search text must occur exactly once in the current file and blocks must not overlap; otherwise nothing is changed and the error names the faulty blocks. The user sees a diff and may reject it.',
  inputSchema,
  effects: 'write',
  run(ctx, input, signal) {
    return changeFile(
      ctx,
      {
        path: input.path,
        operation: 'edit',
        propose: (current) => {
          if (current === undefined) {
            const modelHint = 'Use write_file to create it.';
            throw new WorkspaceError('not_found', input.path, `${input.path} does not exist, so there is nothing to edit.`, { modelHint });
          }
          return applyEditBlocks(input.path, current, input.edits);
        },
      },
      signal,
    );
  },
};

function occurrences(text: string, search: string): number[] {
  const starts: number[] = [];
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + 1)) starts.push(at);
  return starts;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

function preview(search: string): string {
  const firstLine = search.split(/\r?\n/)[0] ?? '';
  return JSON.stringify(firstLine.length > 60 ? `${firstLine.slice(0, 60)}…` : firstLine) + (search.includes('\n') ? ' …' : '');
}
