/** A request cut into step texts, and the lead-in that introduced a list, if any. */
export interface SplitRequest {
  /** Text before a list that ends with ":" ("Do the following:"); it describes, it is not a step. */
  preamble?: string;
  parts: string[];
  /**
   * One flag per part: true when the text orders it after the part before (a sequencing
   * word, a numbered list item after the first, a ", then" or an "and" joining two actions).
   */
  follows: boolean[];
}

interface Part {
  text: string;
  follows: boolean;
}

const listItem = /^\s*(?:([-*•+])|\d{1,3}[.)]|\(\d{1,3}\))\s+(.*)$/;
const connective = String.raw`(?:and then|then|next|after that|afterwards|afterward|finally|lastly|once (?:that is|that's|it is|it's) done|when (?:that is|that's) done)`;
// A new sentence starts after . ! ? or ; and whitespace, with a capital letter, a digit,
// a backtick or a sequencing word ("then", "next", …).
const sentenceBoundary = new RegExp(String.raw`(?<=[.!?;])\s+(?=[A-Z0-9\x60"']|${connective}\b[,:]?\s)`);
const commaThenConnective = new RegExp(String.raw`,\s+(?=(?:and then|then)\s)`, 'i');
const leadingConnective = new RegExp(String.raw`^(?:${connective})\b[,:]?\s*`, 'i');
const leadingStart = /^(?:first(?: of all)?|to start|to begin)\b[,:]?\s*/i;
// "X and <verb> …", "X then <verb> …": two actions in one sentence, done in that order. Reporting what a
// command printed is part of running it, not a step of its own.
const actionVerbs = 'read|open|show|list|search|grep|find|delete|remove|run|execute|create|make|add|write|update|edit|fix|change|rename|move|copy|implement|refactor|explain|summari[sz]e|document|commit|push|deploy|install|test|check|verify|review|build|compile|lint|format|replace|clean|generate|publish|release|upgrade|bump|describe|tell|report';
const andAction = new RegExp(
  String.raw`\s+(?:and|then)\s+(?=(?:then\s+)?(?:${actionVerbs})(?=\s)(?!\s+(?:me\s+)?(?:the\s+|on\s+the\s+|back\s+)?(?:results?|output|outcome|errors?|failures?)\b))`,
  'i',
);

/**
 * Splits a normalized request into step texts (docs/architecture.md §5): one per list bullet or numbered
 * line (indented or following lines continue the item), and, in running text, at each
 * sentence boundary, at a comma followed by "then", and at "and" or "then" before a second
 * action ("Search for legacy and delete src/legacy.js", "add a section then run npm test"); a leading sequencing word is removed from
 * the step and recorded in `follows`.
 */
export function splitRequest(text: string): SplitRequest {
  const lines = text.split('\n');
  const firstItem = lines.findIndex((line) => listItem.test(line));
  if (firstItem < 0) return result(undefined, splitProse(text));

  const parts: Part[] = [];
  let preamble: string | undefined;
  const lead = lines.slice(0, firstItem).join('\n').trim();
  if (lead.endsWith(':')) preamble = lead.slice(0, -1).trim();
  // Stryker disable next-line ConditionalExpression,StringLiteral: an empty lead gives one empty part, which result() drops
  else if (lead !== '') parts.push(...splitProse(lead));

  let current: Part | undefined;
  let numberedBefore = false;
  let prose: string[] = [];
  const flush = (): void => {
    if (current !== undefined) parts.push(current);
    current = undefined;
  };
  const flushProse = (): void => {
    // Stryker disable next-line ConditionalExpression,MethodExpression: prose holds only non-blank lines, so the test is always true
    if (prose.join('').trim() !== '') parts.push(...splitProse(prose.join('\n')));
    prose = [];
  };
  for (const line of lines.slice(firstItem)) {
    const item = listItem.exec(line);
    if (item) {
      flushProse();
      flush();
      const numbered = item[1] === undefined;
      current = { text: item[2]!.trim(), follows: numbered && numberedBefore };
      numberedBefore = numbered;
    } else if (line.trim() === '') {
      flush();
    } else if (current !== undefined) {
      current.text = `${current.text}\n${line.trim()}`;
    } else {
      prose.push(line);
      numberedBefore = false;
    }
  }
  flush();
  flushProse();
  return result(preamble, parts);
}

function result(preamble: string | undefined, parts: Part[]): SplitRequest {
  const cleaned = parts.flatMap(splitActions).map(cleanPart).filter((part) => part.text !== '');
  return { ...(preamble ? { preamble } : {}), parts: cleaned.map((part) => part.text), follows: cleaned.map((part, index) => index > 0 && part.follows) };
}

function splitProse(text: string): Part[] {
  return text
    .split(/\n\s*\n/)
    .flatMap((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').split(sentenceBoundary))
    // Stryker disable next-line ConditionalExpression: a piece after ", then" starts with the connective, which cleanPart records as ordering too
    .flatMap((sentence) => sentence.split(commaThenConnective).map((piece, index): Part => ({ text: piece, follows: index > 0 })));
}

/** "A and B" where B is a second action: two parts, the second after the first ("and" inside backticks or quotes does not count). */
function splitActions(part: Part): Part[] {
  const masked = part.text.replace(/`[^`]*`|"[^"]*"/g, (quoted) => '_'.repeat(quoted.length));
  const at = andAction.exec(masked);
  // Stryker disable next-line Regex: only one word or more counts, and a single word has no space to split at
  if (!at || masked.slice(0, at.index).trim().split(/\s+/).length < 2) return [part];
  return [{ text: part.text.slice(0, at.index), follows: part.follows }, ...splitActions({ text: part.text.slice(at.index + at[0].length), follows: true })];
}

function cleanPart(part: Part): Part {
  const trimmed = part.text.trim();
  const ordered = leadingConnective.test(trimmed);
  // Stryker disable next-line MethodExpression: both patterns take the spaces after the word, so the trim finds nothing
  const stripped = trimmed.replace(leadingConnective, '').replace(leadingStart, '').trim();
  return { text: stripped.charAt(0).toUpperCase() + stripped.slice(1), follows: part.follows || ordered };
}
