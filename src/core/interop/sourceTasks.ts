import { isDirectoryToken, pathsInText } from '../text/pathsInText';

/**
 * One task as another tool's file writes it. `key` is the id the file gives it (`T001`,
 * `1.2`, a Cursor todo id), `line` where it starts (1-based); a `side` task (done in the
 * file, or optional) is one nothing after it waits for.
 */
export interface SourceTask {
  line: number;
  key?: string;
  title: string;
  done: boolean;
  /** Marked to run beside the tasks around it (Spec Kit's `[P]`). */
  parallel: boolean;
  /** Kiro's `- [ ]*`: a task that may be left out. */
  optional: boolean;
  /** The headings the task is under, outermost first (below the document's title). */
  section: string[];
  /** Nesting below another task (Kiro's `1.1` under `1.`). */
  depth: number;
  /** Story labels (`US1`). */
  labels: string[];
  /** Requirement references (Kiro's `_Requirements: 1.2, 3.1_`). */
  requirements: string[];
  /** The task's sub-bullets and other lines, as written (without their bullet). */
  details: string[];
  /** Keys of the tasks it waits for when the file says so; else its place decides. */
  dependsOn?: string[];
  /** The file's own status word when it has more than done and not done (Cursor's `cancelled`). */
  status?: string;
  /**
   * Where a task to write stands among the document's notes (`writeMarkdownTasks`): after every note line numbered up to
   * this (a `SourceNote`'s `line`), before the others. Unset: right after the task before it, no note between them.
   */
  afterNote?: number;
}

/** A line of the file that is not part of a task, kept as written. */
export interface SourceNote {
  line: number;
  text: string;
  /** A heading some task is under (its `section` names it too): kept where it stands, but no line the import left unread. */
  section?: boolean;
}

/** What a format reader made of a file: its title, its tasks and every other line. */
export interface SourceDocument {
  title: string;
  tasks: SourceTask[];
  notes: SourceNote[];
}

/** Sections a Markdown task file can nest below its `#` title (`##` to `######`). */
const maxSectionDepth = 5;

/** `section` as a Markdown task file can write it below its title: the sections past the fifth joined into the fifth ("D › E"). */
export function sectionPath(section: readonly string[]): string[] {
  return section.length > maxSectionDepth ? [...section.slice(0, maxSectionDepth - 1), section.slice(maxSectionDepth - 1).join(' › ')] : [...section];
}

/** A task with every optional part empty, for readers to fill. */
export function emptyTask(line: number, title: string): SourceTask {
  return { line, title, done: false, parallel: false, optional: false, section: [], depth: 0, labels: [], requirements: [], details: [] };
}

// "and" between keys stands between spaces: `\s*and\s*` took "aandaand…" in exponentially many ways (a task line of a few
// dozen characters hung the import; attack), as the words of a key are the letters of "and".
const dependsPattern = /\(?\*?(?<!\s)\s*depends on:?\s+((?:(?:steps?|tasks?)\s+)?[\w.:-]+(?:\s*,\s*[\w.:-]+|\s+and\s+[\w.:-]+)*)(?:\s*(?:\*\)?\.?|\)\.?|\.))?\s*$/i;

/**
 * Splits "… (depends on T012, T013)" (Spec Kit's own wording, and Copilot's `*depends on
 * 2*`) off a task's text: the text before, and the keys named, if any.
 */
export function splitDependsOn(text: string): { text: string; dependsOn?: string[] } {
  const found = dependsPattern.exec(text);
  if (!found) return { text };
  const keys = found[1]!
    .replace(/^(?:steps?|tasks?)\s+/i, '')
    .split(/,|\band\b/)
    .map((key) => key.trim())
    .filter((key) => key !== '');
  return { text: text.slice(0, found.index).trimEnd(), dependsOn: keys.length === 1 && keys[0]!.toLowerCase() === 'none' ? [] : keys };
}

/** The words that say a task waits for `keys`, as `splitDependsOn` reads them back. */
export function dependsOnText(keys: readonly string[]): string {
  return `(depends on ${keys.length === 0 ? 'none' : keys.join(', ')})`;
}

/** The workspace files a task's text and details name, Markdown links' targets included. */
export function pathsOfTask(task: SourceTask): string[] {
  return workspacePathsIn([task.title, ...task.details].join('\n'));
}

/**
 * The files a task says to create: those its title or a detail line names after "Create" at its start ("Create
 * `src/theme.ts`", "Create a new file docs/usage.md", "Create `a.ts` and `b.ts`"), up to the first other word after
 * them; folders left out (a path ending in "/" or without an extension).
 */
export function createdPathsOfTask(task: SourceTask): string[] {
  const lines = [task.title, ...task.details].filter((line) => /^create\b/i.test(line.trim()));
  return workspacePathsIn(lines.map(createdPart).join('\n')).filter((path) => !isDirectoryToken(path));
}

/** Words that may stand between the files a "Create" line names: "Create the files `a.ts` and `b.ts`". */
const betweenCreatedFiles = new Set(['a', 'an', 'and', 'the', 'new', 'empty', 'file', 'files', 'called', 'named', '&', '+']);

/**
 * A "Create …" line up to the end of the files it names first: "Create `docs/usage.md` describing how to run
 * wordcount.py" creates docs/usage.md, and wordcount.py, which it only mentions, is no file it creates (a trial's
 * imported step failed its check "file exists wordcount.py" in the folder that had no such file).
 */
function createdPart(line: string): string {
  const words = line.trim().split(/[\s,]+/);
  let named = false;
  const kept: string[] = [];
  for (const word of words) {
    const isPath = pathsInText(word.replace(/\[[^[\]\n]*\]\(([^)\s]+)\)/g, ' $1 ')).length > 0;
    if (named && !isPath && !betweenCreatedFiles.has(word.toLowerCase())) break;
    named ||= isPath;
    kept.push(word);
  }
  return kept.join(' ');
}

/** The workspace-relative paths `text` names, Markdown links' targets included: no pattern, none absolute or leading out. */
function workspacePathsIn(text: string): string[] {
  const linked = text.replace(/\[[^[\]\n]*\]\(([^)\s]+)\)/g, ' $1 ');
  return pathsInText(linked).filter((path) => !/[[\]{}<>*?]/.test(path) && !path.startsWith('/') && !path.split('/').includes('..'));
}

/** The line a Markdown checkbox item starts with: indent, bullet, box, Kiro's optional mark, the rest. */
export const checkboxItem = /^(\s*)(?:[-*+]|\d+[.)])\s+\[([ xX])\](\\?\*)?[ \t]+(?![ \t])([^\n]*)$/;
/** A Markdown heading: its `#`s and the rest of the line, trimmed, if any (`headingText` reads its text). */
export const headingLine = /^(#{1,6})(?:\s+(\S(?:.*\S)?)\s*|\s+)$/;
/** A bullet that is not a checkbox: indent and text. */
export const bulletItem = /^(\s*)(?:[-*+]|\d+[.)])\s+(?!\s)(.*)$/;

/** A heading's text from the rest of its line (`headingLine`'s second group): without the closing `#`s and the spaces before them. */
export function headingText(rest: string | undefined): string {
  return (rest ?? '').replace(/(?<!#)#+$/, '').trimEnd();
}

/** Width of a line's indent, a tab counting as four spaces. */
export function indentOf(text: string): number {
  return text.replace(/\t/g, '    ').length;
}

/** `text` on one line as every reader splits lines: each line break (`\r\n`, `\r`, `\n`, U+2028, U+2029) a space. */
export function oneLineText(text: string): string {
  return text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ');
}

/**
 * Whether `text` has old Mac line endings: a carriage return and no line feed at all, so that every reader, which splits
 * lines at `\n` and `\r\n` only, would take the whole file for one line (three tasks read as one task holding the
 * others, and only the first ticked). A `\r` inside a file that has line feeds is a stray character of its line, kept as
 * part of it; a file of one line ending in `\r` alone counts as old Mac's too.
 */
export function hasOldMacLineEndings(text: string): boolean {
  return text.includes('\r') && !text.includes('\n');
}

/** Why the task file `file` of old Mac line endings (`hasOldMacLineEndings`) is not read, and what to do, in the user's words. */
export function oldMacLineEndingsProblem(file: string): string {
  return `${oneLineText(file)} uses old Mac line endings (CR alone), so its lines could not be told apart; save it with LF or CRLF line endings`;
}

/**
 * `text` written after a bullet (a task's detail) without it reading back as a checkbox item:
 * a box at its start (`[ ] …`, `[x] …`, spaces before it or not) gets a backslash, as Markdown escapes it.
 */
export function inertAfterBullet(text: string): string {
  return text.replace(/^(\s*)\[(?=[ xX]\])/, '$1\\[');
}
