import { actionVerbs, alternation, isCjk, reportVerbs, sequencingWords } from './requestWords';

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

// Bullets (group 1) and numbers; Chinese and Japanese lists also number with "1、", "（1）", "一、" and bullet with "・", without a space.
const listItem = /^\s*(?:([-*•+])\s+|(・)\s*|(?:\d{1,3}[.)]|\(\d{1,3}\))\s+|(?:\d{1,3}[、．]|（\d{1,3}）|[一二三四五六七八九十]{1,3}、)\s*)(?!\s)(.*)$/;
const latinStart = alternation(sequencingWords.start.filter((word) => !isCjk(word)));
const cjkStart = alternation(sequencingWords.start.filter(isCjk));
const latinWithin = alternation(sequencingWords.within.filter((word) => !isCjk(word)));
const cjkWithin = alternation(sequencingWords.within.filter(isCjk));
const cjkCharacter = String.raw`[\u3040-\u30ff\u3400-\u9fff]`;
// "después de X", "depois de X" say "after X": the word does not order what follows it.
const notAfterClause = String.raw`(?!\s+(?:de|del|que|da|do|dos|das)\b)`;
// A new sentence starts after . ! ? or ; and whitespace, with a capital letter, a digit, a backtick, a quote,
// a sequencing word ("then", "danach", …) or a Chinese or Japanese character; and after 。！？； always.
const sentenceBoundary = new RegExp(
  String.raw`(?<=[.!?;])\s+(?=[\p{Lu}0-9\x60"'¿¡]|(?:${latinStart})\b[,:]?\s|${cjkCharacter})|(?<=[。！？；])\s*`,
  'u',
);
// ", then …", ", danach …", "，然后…", "、それから…": the clause after the comma is the next step.
const commaConnective = new RegExp(String.raw`,\s+(?=(?:${latinStart})\b${notAfterClause}[,:]?\s)(?!next\s+to\b)|[,，、]\s*(?=${cjkStart})`, 'i');
// "… und dann …", "… puis …", "… 然后 …": words that order what follows wherever they stand. Built patterns are out of
// ESLint's reach: a space run is matched from its start only (`(?<!\s)`), so a long run costs linear time.
const withinConnective = new RegExp(String.raw`(?<!\s)\s+(?=(?:${latinWithin})\b\s)|(?<=\S)\s*(?=${cjkWithin})`, 'i');
// "If it fails, then …", "Wenn …, dann …": a condition, not two steps.
const conditional = /^(?:if|when|unless|wenn|falls|sobald|si|quand|lorsque|cuando|se|quando)\b/i;
const leadingConnective = new RegExp(String.raw`^(?:(?:${latinStart})\b${notAfterClause}[,:]?\s*|(?:${cjkStart})[,:，、：]?\s*)`, 'i');
const leadingStart = /^(?:(?:first(?: of all)?|to start|to begin|zuerst|zunächst|d'abord|primero|primeiro)\b|首先|まず)[,:，、]?\s*/i;
// "X and <verb> …", "X then <verb> …": two actions in one sentence, done in that order. Reporting what a
// command printed is part of running it, not a step of its own.
const andAction = new RegExp(
  String.raw`(?<!\s)\s+(?:and|then)\s+(?=(?:then\s+)?(?:${actionVerbs})(?=\s))(?!(?:then\s+)?(?:${reportVerbs})\s+(?:me\s+)?(?:the\s+|on\s+the\s+|back\s+)?(?:results?|output|outcome|errors?|failures?)\b)`,
  'i',
);

/**
 * Splits a normalized request into step texts (docs/architecture.md §5): one per list bullet
 * or numbered line ("1.", "1)", and the "1、", "（1）", "一、", "・" of Chinese and Japanese
 * lists; indented or following lines continue the item), and, in running text, at each
 * sentence boundary (also 。！？；), at a comma followed by a word of `sequencingWords`
 * ("then", "danach", "puis", "luego", "depois", "然后", "それから"), at such a word that
 * orders what follows wherever it stands ("und dann", "然后"), and at "and" or "then" before
 * a second action ("Search for legacy and delete src/legacy.js", "add a section then run npm
 * test", "run the tests and fix the failures"), and at a comma before the next of a list of actions ("Create a.md,
 * delete b.md, …"); a leading sequencing word is removed from
 * the step and recorded in `follows`. A condition ("If it fails, then …") is not split.
 */
export function splitRequest(request: string): SplitRequest {
  // One line holding "1. … 2. …" is a list written inline; a list of lines is read as it is.
  const text = request.trim().includes('\n') ? request : (inlineList(request) ?? request);
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
      const numbered = item[1] === undefined && item[2] === undefined;
      current = { text: item[3]!.trim(), follows: numbered && numberedBefore };
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

// An item number of a list written on one line: "1. ", "2) " after a space or at the start, before a word.
const inlineNumber = /(?<=^|\s)(\d{1,2})[.)]\s+(?=\S)/g;

/**
 * "Do this: 1. Read the README 2. List the files 3. Write notes.md", a numbered list written on one line, as the lines of
 * a list (each item on a line of its own after the text before it); `undefined` unless its numbers run 1, 2… (at least
 * two), in order. Other numbers in an item ("version 3. Then…") stay its text.
 */
function inlineList(text: string): string | undefined {
  const marks: { at: number; end: number }[] = [];
  for (const match of text.matchAll(inlineNumber)) {
    if (Number(match[1]) === marks.length + 1) marks.push({ at: match.index, end: match.index + match[0].length });
  }
  if (marks.length < 2) return undefined;
  const items = marks.map((mark, index) => `${index + 1}. ${text.slice(mark.end, marks[index + 1]?.at ?? text.length).trim()}`);
  const lead = text.slice(0, marks[0]!.at).trim();
  return [...(lead === '' ? [] : [lead]), ...items].join('\n');
}

function result(preamble: string | undefined, parts: Part[]): SplitRequest {
  const cleaned = parts.flatMap(splitActions).map(cleanPart).filter((part) => part.text !== '');
  return { ...(preamble ? { preamble } : {}), parts: cleaned.map((part) => part.text), follows: cleaned.map((part, index) => index > 0 && part.follows) };
}

function splitProse(text: string): Part[] {
  return text
    .split(/\n\s*\n/)
    .flatMap((paragraph) => paragraph.replace(/(?<!\s)\s*\n\s*/g, ' ').split(sentenceBoundary))
    .flatMap((sentence) =>
      conditional.test(sentence.trim())
        ? [{ text: sentence, follows: false }]
        // Stryker disable next-line ConditionalExpression: a piece after ", then" starts with the connective, which cleanPart records as ordering too
        : sentence.split(commaConnective).map((piece, index): Part => ({ text: piece, follows: index > 0 })),
    );
}

/**
 * "A and B" where B is a second action, "A und dann B", "A 然后 B": two parts, the second after
 * the first (words inside backticks or quotes do not count, nor those of a condition).
 */
function splitActions(part: Part): Part[] {
  const masked = part.text.replace(/`[^`]*`|"[^"]*"/g, (quoted) => '_'.repeat(quoted.length));
  // The part's own leading word ("y luego …") is not a place to split again.
  const lead = masked.length - masked.trimStart().replace(leadingConnective, '').length;
  const within = conditional.test(masked.trim()) ? null : withinConnective.exec(masked.slice(lead));
  if (within && masked.slice(lead, lead + within.index).trim() !== '') {
    const at = lead + within.index;
    return [
      ...splitActions({ text: part.text.slice(0, at), follows: part.follows }),
      ...splitActions({ text: part.text.slice(at + within[0].length), follows: true }),
    ];
  }
  const listed = conditional.test(masked.trim()) ? undefined : commaBeforeAction(masked);
  if (listed !== undefined) {
    const [before, after] = [part.text.slice(0, listed.at), part.text.slice(listed.end)];
    return [...splitActions({ text: before, follows: part.follows }), ...splitActions({ text: after, follows: true })];
  }
  const at = actionJoin(masked);
  if (!at) return [part];
  return [{ text: part.text.slice(0, at.index), follows: part.follows }, ...splitActions({ text: part.text.slice(at.index + at[0].length), follows: true })];
}

const everyActionJoin = new RegExp(andAction.source, 'gi');
const startsWithAction = new RegExp(String.raw`^(?:please\s+)?(?:${actionVerbs})\s`, 'i');
// The verb opens a clause of its own: not one of a list of verbs used as names ("the add, list and search commands").
const commaThenAction = new RegExp(String.raw`(?<!\b(?:${actionVerbs})),\s+(?=(?:${actionVerbs})\s+(?!(?:and|or)\b)[^\s,])`, 'i');

/**
 * Where a comma starts the next of a list of actions ("Create docs/usage.md, delete CHANGELOG.md, add a line …"): a comma
 * before an action verb in a part that itself opens with one. Without a model such a request was one step for you, its
 * actions unread (a trial), while the same actions joined by "then" were tool steps. A comma before anything else lists
 * the things one action acts on ("Read a.md, b.md and c.md").
 */
function commaBeforeAction(masked: string): { at: number; end: number } | undefined {
  if (!startsWithAction.test(masked.trim())) return undefined;
  const comma = commaThenAction.exec(masked);
  return comma === null ? undefined : { at: comma.index, end: comma.index + comma[0].length };
}
const verbWord = new RegExp(String.raw`^(?:${actionVerbs})$`, 'i');

/**
 * The first "and <verb>" or "then <verb>" of `masked` that starts a second action: after two words or more, and an "and"
 * not after a verb, which joins two verbs into one action ("Read and summarize", "the add, list and search commands", "says list and search print
 * tags": a newcomer's request lost "and search commands" to a search step of its own).
 */
function actionJoin(masked: string): RegExpExecArray | null {
  for (const match of masked.matchAll(everyActionJoin)) {
    const before = masked.slice(0, match.index).trim().split(/\s+/);
    const joinsVerbs = verbWord.test(before.at(-1)!) && /^\s+and\s/i.test(match[0]);
    // Stryker disable next-line EqualityOperator: only one word or more counts, and a single word has no space to split at
    if (before.length >= 2 && !joinsVerbs) return match;
  }
  return null;
}

function cleanPart(part: Part): Part {
  const trimmed = part.text.trim();
  const ordered = leadingConnective.test(trimmed);
  // Stryker disable next-line MethodExpression: both patterns take the spaces after the word, so the trim finds nothing
  // A comma or semicolon left before a split ("Create a.md and b.md, and list the files") ends no step. Matched from the
  // first of a run only, so a long run costs linear time.
  const stripped = trimmed.replace(leadingConnective, '').replace(leadingStart, '').replace(/(?<![,;，、；])[,;，、；]+$/, '').trim();
  return { text: stripped.charAt(0).toUpperCase() + stripped.slice(1), follows: part.follows || ordered };
}
