import { z } from 'zod';
import { holdsPrivateKey } from '../workspace/credentialFiles';
import { readTextMany } from '../workspace/readTextMany';
import { PathRefusedError } from '../workspace/resolveInRoot';
import { isWorkspaceError } from '../workspace/workspaceError';
import { unreadableFoldersReport, type UnreadableFoldersReport } from './listFilesTool';
import { compileTextQuery, looksBinary } from './textQueryMatcher';
import type { Tool, ToolContext } from './tool';
import { leadingToWithheld, refuseWithheldTarget, withheldReason } from './withheldFiles';

/** Files larger than this, in bytes, are skipped by `search_text` without being read. */
export const maxSearchFileBytes = 4 * 1024 * 1024;
/** Longest line text returned per match, in characters. */
export const maxMatchLineChars = 400;

const inputSchema = z.strictObject({
  query: z.string().min(1).max(1000).describe('Text to find, or a JavaScript regular expression when "regex" is true (no backreferences or lookaround).'),
  regex: z.boolean().optional().describe('Treat query as a regular expression (default false: literal text).'),
  caseSensitive: z.boolean().optional().describe('Match case exactly (default true).'),
  glob: z.string().optional().describe('Only search files matching this glob, e.g. "src/**/*.ts" or "*.md".'),
  maxMatches: z.int().min(1).max(2000).optional().describe('Stop after this many matching lines (default 200).'),
  contextLines: z.int().min(0).max(10).optional().describe('Lines of context before and after each match (default 0).'),
});

/** One matching line. `line` and `column` are 1-based. */
export interface SearchMatch {
  path: string;
  line: number;
  column: number;
  text: string;
  before?: string[];
  after?: string[];
}

/** What `search_text` returns; `truncated` when `maxMatches` stopped the search early; the folders it could not read. */
export interface SearchTextOutput extends UnreadableFoldersReport {
  matches: SearchMatch[];
  filesSearched: number;
  /** Binary, oversized, vanished or refused files left out. */
  filesSkipped: number;
  truncated: boolean;
}

/**
 * `search_text`: literal or regex search over the workspace files `list_files` would show.
 * A regular expression is written as in JavaScript and runs on RE2 (`re2js`, see
 * `jsRegexToRe2`): time linear in the text whatever the pattern, so no pattern can block
 * the event loop, and cancellation is seen between files. With a `TextSearcher` (ripgrep,
 * or reader threads) only the files it may find a match in are read; the matches are the same.
 */
export const searchTextTool: Tool<z.infer<typeof inputSchema>, SearchTextOutput> = {
  name: 'search_text',
  description: 'Search workspace text files (honouring .gitignore, skipping .git, node_modules, .task-planner and files that hold credentials such as .env and keys) for a literal string or a regular expression (JavaScript syntax, run in linear time: no backreferences or lookaround), optionally only in files matching a glob. Returns matching lines with 1-based line and column, in path order, capped by maxMatches.',
  inputSchema,
  effects: 'read',
  async run(ctx, input, signal) {
    const query = { pattern: input.query, regex: input.regex ?? false, caseSensitive: input.caseSensitive ?? true };
    const matcher = compileTextQuery(query);
    const maxMatches = input.maxMatches ?? 200;
    const contextLines = input.contextLines ?? 0;
    // The searcher runs while the files are listed; a listing that fails stops it.
    const stopNarrowing = new AbortController();
    // Files that hold credentials by their name are never read, nor offered to the searcher; the run is told of each.
    const listing = ctx.workspace.list(input.glob, signal).then((found) => ({ ...found, files: found.files.filter((path) => !withheld(ctx, path)) }));
    const listed = listing.then((found) => found.files);
    // Only the searcher waits on `listed`; a failed listing is reported through `listing`.
    listed.catch(() => undefined);
    const narrowed = ctx.workspace.textSearcher?.narrow(query, listed, AbortSignal.any([signal, stopNarrowing.signal]));
    // Marked as handled at once: it may reject (cancelled) while the listing is awaited.
    narrowed?.catch(() => undefined);
    let files: string[];
    let unreadable: string[];
    let links: string[] | undefined;
    try {
      ({ files, unreadable, links } = await listing);
    } catch (error) {
      stopNarrowing.abort(error);
      await narrowed?.catch(() => undefined);
      throw error;
    }
    const narrowing = await narrowed;
    // A file the searcher saw without a match holds none: counted as searched, not read.
    const candidates = narrowing === undefined ? files : files.filter((path) => narrowing.matched.has(path) || !narrowing.seen.has(path));
    // A file that is a link to one (`notes.txt` → `.env`) is found out by where it leads, before anything is read, and then
    // counted as a file the searcher saw without a match is: its matches, dropped after the search, counted against
    // `maxMatches` and so told the model through `truncated` whether its guess of the secret was right (an outside attack).
    // Only a link can lead elsewhere: each file located, 20,000 took a second (the listing names its links when it can).
    const linkNames = links === undefined ? undefined : new Set(links);
    const linked = linkNames === undefined ? candidates : candidates.filter((path) => linkNames.has(path));
    const leading = await leadingToWithheld(ctx, linked, signal);
    for (const target of leading.values()) ctx.withheld?.(target);
    const toRead = leading.size === 0 ? candidates : candidates.filter((path) => !leading.has(path));
    const matches: SearchMatch[] = [];
    let filesSearched = 0;
    let filesSkipped = 0;
    let truncated = false;
    let stoppedAt: string | undefined;
    // Files come back in path order, so the matches do too.
    await readTextMany(
      ctx.workspace,
      toRead,
      (path, text, error) => {
        if (text === undefined) {
          // Changed since it was listed (vanished, grown, swapped for a link that leads out).
          if (isWorkspaceError(error) || error instanceof PathRefusedError) {
            filesSkipped++;
            return true;
          }
          throw error;
        }
        if (looksBinary(text)) {
          filesSkipped++;
          return true;
        }
        if (holdsPrivateKey(text)) {
          ctx.withheld?.(path);
          // Counted as a file without a match, as the searcher counts it when the query is not in it: counted as skipped
          // only when read, the counts told the model whether its guess of the key was right (an outside attack).
          filesSearched++;
          return true;
        }
        filesSearched++;
        if (!matcher.anywhere(text)) return true;
        const lines = text.split(/\r?\n/);
        for (let line = 0; line < lines.length; line++) {
          const column = matcher.column(lines[line] as string);
          if (column < 0) continue;
          if (matches.length === maxMatches) {
            truncated = true;
            stoppedAt = path;
            return false;
          }
          const match: SearchMatch = { path, line: line + 1, column: column + 1, text: clip(lines[line] as string) };
          if (contextLines > 0) {
            match.before = lines.slice(Math.max(0, line - contextLines), line).map(clip);
            match.after = lines.slice(line + 1, line + 1 + contextLines).map(clip);
          }
          matches.push(match);
        }
        return true;
      },
      signal,
      // Led, as it is read, to a file kept from the model (a link retargeted since it was located): skipped, unread.
      { maxBytes: maxSearchFileBytes, refuseTarget: refuseWithheldTarget(ctx.withheld) },
    );
    // As the reader without a searcher counts: the files before the one it stopped in (all of them when it did not stop).
    const before = stoppedAt === undefined ? files.length : files.indexOf(stoppedAt);
    const read = new Set(toRead);
    for (let index = 0; index < before; index++) if (!read.has(files[index] as string)) filesSearched++;
    return {
      matches,
      filesSearched,
      filesSkipped,
      truncated,
      ...unreadableFoldersReport(unreadable),
    };
  },
};

/** Whether `search_text` leaves the listed `path` out (`withheldReason`); tells `ctx.withheld` when it does. */
function withheld(ctx: ToolContext, path: string): boolean {
  if (withheldReason(path) === undefined) return false;
  ctx.withheld?.(path);
  return true;
}

function clip(line: string): string {
  return line.length > maxMatchLineChars ? `${line.slice(0, maxMatchLineChars)}…` : line;
}

