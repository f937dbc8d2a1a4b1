import { RE2JS } from 're2js';
import type { TextQuery } from '../workspacePorts';
import { errorMessage } from '../../shared/errorMessage';
import { jsRegexToRe2, UnsupportedRegexError } from './jsRegexToRe2';

/** A file with a NUL among its first this many characters is binary: `search_text` skips it. */
const binaryCheckChars = 8192;

/** `true` for the text of a file `search_text` skips as binary. */
export function looksBinary(text: string): boolean {
  return text.slice(0, binaryCheckChars).includes('\u0000');
}

/** A compiled `search_text` query. */
export interface QueryMatcher {
  /** `true` when some line of `text` holds a match (the whole text is tested at once). */
  anywhere(text: string): boolean;
  /** 0-based column of the first match in `line`, or -1. */
  column(line: string): number;
}

/**
 * Compiles a `search_text` query: a literal (case-insensitive through a JavaScript regular
 * expression of the escaped text), or a JavaScript regular expression run on RE2 (`re2js`,
 * see `jsRegexToRe2`), multiline so `^` and `$` hold at every line. Throws an error fit for
 * the user when the pattern is invalid or needs what RE2 lacks. The same function serves
 * the tool and every `TextSearcher` that matches text itself, so both match alike.
 */
export function compileTextQuery({ pattern: query, regex: isRegex, caseSensitive }: TextQuery): QueryMatcher {
  if (!isRegex) {
    if (caseSensitive) return { anywhere: (text) => text.includes(query), column: (line) => line.indexOf(query) };
    const pattern = new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
    return { anywhere: (text) => pattern.test(text), column: (line) => line.search(pattern) };
  }
  try {
    // JavaScript's own parser names syntax errors precisely; the pattern is never run by it.
    new RegExp(query, caseSensitive ? 'm' : 'im');
  } catch (error) {
    throw new Error(`The regular expression ${JSON.stringify(query)} is invalid: ${errorMessage(error)}. Fix it, or search literally with regex: false.`, {
      cause: error,
    });
  }
  let pattern: RE2JS;
  try {
    pattern = RE2JS.compile(jsRegexToRe2(query), RE2JS.MULTILINE | (caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE));
  } catch (error) {
    if (error instanceof UnsupportedRegexError) {
      throw new Error(
        `The regular expression ${JSON.stringify(query)} uses ${error.feature}, which is not supported: search_text runs regular expressions on a linear-time engine (RE2) so that no pattern can freeze it. Rewrite the pattern without it, or search literally with regex: false.`,
        { cause: error },
      );
    }
    throw new Error(
      `The regular expression ${JSON.stringify(query)} cannot run on the linear-time engine (RE2): ${errorMessage(error)}. Simplify it (repetition counts stay under 1000), or search literally with regex: false.`,
      { cause: error },
    );
  }
  return {
    anywhere: (text) => pattern.test(text),
    column: (line) => {
      const matcher = pattern.matcher(line);
      return matcher.find() ? matcher.start() : -1;
    },
  };
}
