import { visibleControls } from '../../shared/visibleCharacters';
import { fence } from './markdownTasks';
import type { SourceOrigin } from './sourceOrigin';
import { checkboxItem, hasOldMacLineEndings, headingLine, headingText, oldMacLineEndingsProblem, splitDependsOn } from './sourceTasks';
import { mayBeCutTitle, stepTitleOf } from './tasksToPlan';

/** The text of a task file with one task's checkbox ticked, or why it was not. */
export type TickedText = { ok: true; text: string; line: number } | { ok: false; problem: string };

// The key opens the item's text (Spec Kit's `T001`, Kiro's `2.1`), maybe emphasised; a mention further on is another task's,
// and so is a longer number (`1.1` is not task `1`: a dot may follow the key, a digit after the dot may not).
const keyWord = (key: string): RegExp => new RegExp(`^[*_\`]*${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=$|[\\s:)*_\`,]|\\.(?!\\d))`);

/**
 * Ticks the checkbox of the task `origin` names (titled `title`) in `text`, the task file as
 * it is now. The line the task was imported from is used when it is still that task's (a
 * checkbox item opening with its key, else whose text is the task's whole text as the step's input opens with it,
 * `SourceOrigin.taskText`, or, for an input that no longer does, whose text is its title, as the import read it:
 * a longer text that merely contains the title is another task); else the one checkbox item
 * that does anywhere: the user may have added or moved lines since. A task known only by a title the import may have cut
 * (`mayBeCutTitle`) must be the only one of that title in the file, wherever its line: its own line may hold another task
 * of the same start. A task imported under a
 * section must still be under a heading of that name (the innermost) for its own line to
 * count, and among several lines that hold it the one under that heading is taken: after
 * the user swaps two sections that each have a "Write tests" task, the recorded line holds
 * the other section's. Items inside fenced code blocks are examples, never tasks, as at the
 * import. No such line, or more than one, or a file of old Mac line endings (`hasOldMacLineEndings`, its lines not told
 * apart) is a problem that says so, and nothing changes. Everything else is kept byte for byte: a
 * byte order mark, each line's own ending (`\r\n` or `\n`), a ticked box's case. A task
 * already ticked gives back `text` as it is. A task the file held more than once (`twins`: its steps read from lines of
 * the same text in the same section) is the one at its place among the lines that hold that text now, and only while
 * there are as many: a line number or a search tells such tasks apart no more.
 */
export function tickTaskLine(text: string, origin: SourceOrigin, title: string, twins?: Twins): TickedText {
  const what = origin.key !== undefined ? `task ${origin.key}` : `the task "${title}"`;
  if (hasOldMacLineEndings(text)) return { ok: false, problem: `${oldMacLineEndingsProblem(origin.file)}. The checkbox of ${what} was left as it is.` };
  const parts = text.split(/(\r?\n)/);
  // Even indexes are lines, odd ones their endings.
  const lineAt = (number: number): string | undefined => parts[(number - 1) * 2];
  const key = origin.key !== undefined ? keyWord(origin.key) : undefined;
  const wanted = title.trim();
  // The task's whole text, when the input still opens with the task the title was made of; else the title alone. Written
  // visibly, as an input an older import wrote raw may hold it.
  const whole = origin.taskText !== undefined && stepTitleOf(origin.taskText) === wanted ? visibleControls(origin.taskText) : undefined;
  // A cut title is the start of any number of tasks: one known by it alone must be the only one (attack: after the user
  // swapped or removed lines, a task that never ran was ticked for another of the same 180 first characters).
  const unsure = whole === undefined && key === undefined && mayBeCutTitle(wanted);
  const fenced = fencedLines(parts);
  const headings = innermostHeadings(parts, fenced);
  const section = origin.section.at(-1);
  const inSection = (number: number): boolean => section === undefined || headings[number - 1] === section;
  const matches = (number: number): boolean => {
    const line = lineAt(number);
    const box = line === undefined || fenced.has(number) ? null : checkboxItem.exec(line);
    if (!box) return false;
    if (key !== undefined) return key.test(box[4]!);
    const task = splitDependsOn(box[4]!.trim()).text;
    // As the import made the step's input and title of it: characters that show nothing written visibly (they were compared
    // raw, and never matched); the title also cut.
    return whole !== undefined ? visibleControls(task) === whole : wanted !== '' && stepTitleOf(task) === wanted;
  };
  let number: number | undefined;
  if (twins !== undefined && twins.of > 1) {
    // Attack: two "Run the tests" tasks, two lines added above them while the run went on: the second task's line now held
    // the first, which was ticked for it; after the user removed the first task, its step ticked the second's box.
    const holding: number[] = [];
    for (let index = 0; index < parts.length; index += 2) if (matches(index / 2 + 1) && inSection(index / 2 + 1)) holding.push(index / 2 + 1);
    if (holding.length !== twins.of) {
      return {
        ok: false,
        problem:
          `${origin.file} had ${twins.of} checkboxes for ${what} and has ${holding.length} now${holding.length > 0 ? ` (lines ${holding.join(', ')})` : ''}; ` +
          'none was ticked, to be sure not to tick another of them. Tick it by hand.',
      };
    }
    number = holding[twins.index]!;
  } else if (!unsure && matches(origin.line) && inSection(origin.line)) number = origin.line;
  else {
    const everywhere: number[] = [];
    for (let index = 0; index < parts.length; index += 2) if (matches(index / 2 + 1)) everywhere.push(index / 2 + 1);
    const inItsSection = everywhere.filter(inSection);
    const found = inItsSection.length === 1 && !unsure ? inItsSection : everywhere;
    if (found.length === 0) {
      return { ok: false, problem: `${origin.file} has no checkbox for ${what} any more (it was on line ${origin.line}); it was left as it is.` };
    }
    if (found.length > 1) {
      return {
        ok: false,
        problem: `${origin.file} has ${found.length} checkboxes for ${what} (lines ${found.join(', ')}); none was ticked, to be sure not to tick the wrong one.`,
      };
    }
    number = found[0]!;
  }
  const line = lineAt(number)!;
  const box = /\[ \]/.exec(line);
  const ticked = checkboxItem.exec(line)![2] !== ' ';
  if (ticked || !box) return { ok: true, text, line: number };
  parts[(number - 1) * 2] = `${line.slice(0, box.index)}[x]${line.slice(box.index + 3)}`;
  return { ok: true, text: parts.join(''), line: number };
}

/** A task the file held more than once: it was the `index`-th (from 0, in the file's order) of `of` tasks of one text and section. */
export interface Twins {
  index: number;
  of: number;
}

/**
 * What tells a task without a key from the others as `tickTaskLine` finds it (its innermost section and its whole text, else
 * its title), for `origin` of a step titled `title`; `undefined` for a task with a key, which is told by the key alone.
 */
export function taskIdentity(origin: SourceOrigin, title: string): string | undefined {
  if (origin.key !== undefined) return undefined;
  const wanted = title.trim();
  const whole = origin.taskText !== undefined && stepTitleOf(origin.taskText) === wanted ? visibleControls(origin.taskText) : wanted;
  return JSON.stringify([origin.file, origin.section.at(-1) ?? null, whole]);
}

/** For each line of `parts` (lines at even indexes), the text of the innermost heading above it outside fenced code, as `readMarkdownTasks` reads headings. */
function innermostHeadings(parts: readonly string[], fenced: ReadonlySet<number>): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  let current: string | undefined;
  for (let index = 0; index < parts.length; index += 2) {
    const heading = fenced.has(index / 2 + 1) ? null : headingLine.exec(parts[index]!);
    if (heading) current = headingText(heading[2]);
    out.push(current);
  }
  return out;
}

/** The numbers of the lines (of `parts`, lines at even indexes) inside fenced code blocks or fencing them, as `readMarkdownTasks` skips them. */
function fencedLines(parts: readonly string[]): Set<number> {
  const inside = new Set<number>();
  let open = false;
  for (let index = 0; index < parts.length; index += 2) {
    const isFence = fence.test(parts[index]!);
    if (open || isFence) inside.add(index / 2 + 1);
    if (isFence) open = !open;
  }
  return inside;
}
