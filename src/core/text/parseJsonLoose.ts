import { jsonrepair } from 'jsonrepair';
import { errorMessage } from '../../shared/errorMessage';

/**
 * Reads JSON the way models write it: the body of a code fence, else the span from the
 * first `{`/`[` to the last `}`/`]`, else the whole text; each candidate parsed strictly
 * first, then repaired with `jsonrepair` (trailing commas, comments, single quotes, cut-off
 * endings). Never throws.
 */
export function parseJsonLoose(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const fenced = /```[a-zA-Z0-9]*[^\S\n]*\n([\s\S]*?)(?:```|$)/.exec(text)?.[1];
  const candidates = [...new Set([fenced, sliceJson(text), text])].filter(
    (candidate): candidate is string => candidate !== undefined && candidate.trim() !== '',
  );
  if (candidates.length === 0) return { ok: false, error: 'The reply was empty; expected a JSON value.' };
  for (const candidate of candidates) {
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch {
      // try the next candidate, then repairs
    }
  }
  // Stryker disable next-line StringLiteral: every candidate is non-blank, so the repair loop always overwrites it before it is read
  let lastError = '';
  for (const candidate of candidates) {
    try {
      return { ok: true, value: JSON.parse(jsonrepair(candidate)) };
    } catch (error: unknown) {
      lastError = errorMessage(error);
    }
  }
  return { ok: false, error: `The reply is not valid JSON, even after repair (${lastError}).` };
}

function sliceJson(text: string): string | undefined {
  const start = text.search(/[[{]/);
  if (start < 0) return undefined;
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
  // Stryker disable next-line EqualityOperator: the character at `start` opens a bracket and the one at `end` closes one, so they never coincide
  return end > start ? text.slice(start, end + 1) : text.slice(start);
}
