import { withoutOpenHtmlBlocks } from './htmlBlocks';
import { frontMatterLength } from './notePlaces';
import {
  bulletItem,
  checkboxItem,
  emptyTask,
  headingLine,
  headingText,
  indentOf,
  inertAfterBullet,
  sectionPath,
  type SourceDocument,
  type SourceNote,
  type SourceTask,
} from './sourceTasks';

/** What a format makes of a checkbox item's text: the task's key, title and marks; `undefined` when it is no task of the format. */
export type ItemReader = (text: string) => Pick<SourceTask, 'title' | 'parallel' | 'labels'> & { key?: string; dependsOn?: string[] } | undefined;

type MarkedNote = SourceNote & { heading?: boolean; used?: boolean };

const requirementsLine = /^_?Requirements?:(.*)$/i;
/** A line that opens or closes a fenced code block: the checkbox items inside one are examples, no tasks. */
export const fence = /^\s*(```|~~~)/;

/**
 * Reads a Markdown task list (Spec Kit, Kiro, a plain checklist): each checkbox item
 * `readItem` accepts is a task, nested under the items less indented than it; the lines
 * indented below a task (blank lines between allowed) are its details, a
 * `_Requirements: 1.2, 3.1_` line its requirements; headings are the sections of the tasks
 * under them, the first `#` heading before any task the title. Every other line is a note, with its line number, a
 * heading with tasks under it marked `section`.
 */
export function readMarkdownTasks(text: string, readItem: ItemReader, fallbackTitle: string): SourceDocument {
  const lines = text.split(/\r?\n/);
  const tasks: SourceTask[] = [];
  const notes: MarkedNote[] = [];
  let title: string | undefined;
  let sections: { level: number; text: string; note: MarkedNote }[] = [];
  let open: SourceTask | undefined;
  let openIndent = 0;
  const parents: { indent: number }[] = [];
  let inFence = false;
  lines.forEach((line, index) => {
    const number = index + 1;
    const indent = indentOf(/^\s*/.exec(line)![0]);
    if (inFence || fence.test(line)) {
      if (fence.test(line)) inFence = !inFence;
      if (open !== undefined && indent > openIndent) open.details.push(line.slice(Math.min(line.length, openIndent + 2)));
      else notes.push({ line: number, text: line });
      return;
    }
    const heading = headingLine.exec(line);
    if (heading) {
      open = undefined;
      const level = heading[1]!.length;
      if (level === 1 && title === undefined && tasks.length === 0) {
        title = headingText(heading[2]);
        return;
      }
      const note: MarkedNote = { line: number, text: line, heading: true };
      notes.push(note);
      sections = [...sections.filter((section) => section.level < level), { level, text: headingText(heading[2]), note }];
      return;
    }
    const box = checkboxItem.exec(line);
    const item = box ? readItem(box[4]!) : undefined;
    // A box with no words is no task (it became a step titled ""); it stays in the objective as written, said so.
    if (box && item && item.title.trim() !== '') {
      while (parents.length > 0 && parents[parents.length - 1]!.indent >= indent) parents.pop();
      const task = emptyTask(number, item.title);
      Object.assign(task, item, { done: box[2] !== ' ', optional: box[3] !== undefined, depth: parents.length });
      task.section = sections.map((section) => section.text);
      for (const section of sections) section.note.used = true;
      tasks.push(task);
      parents.push({ indent });
      open = task;
      openIndent = indent;
      return;
    }
    if (line.trim() === '') {
      notes.push({ line: number, text: line });
      return;
    }
    if (open !== undefined && indent > openIndent) {
      const detail = (bulletItem.exec(line)?.[2] ?? line.trim()).trimEnd();
      const requirements = requirementsLine.exec(detail);
      if (requirements) {
        const list = requirements[1]!.trim();
        open.requirements.push(...(list.endsWith('_') ? list.slice(0, -1) : list).split(',').map((part) => part.trim()).filter((part) => part !== ''));
      }
      else open.details.push(detail);
      return;
    }
    open = undefined;
    notes.push({ line: number, text: line });
  });
  // A heading that tasks are under stays among the notes, where it stands: the notes around it (a phase's purpose, its
  // checkpoint) are written back under it (a trial's export moved them all above the first phase).
  const kept = notes.map(({ line, text, heading, used }): SourceNote => (heading === true && used === true ? { line, text, section: true } : { line, text }));
  return { title: title ?? fallbackTitle, tasks, notes: trimBlankRuns(kept) };
}

function trimBlankRuns(notes: readonly SourceNote[]): SourceNote[] {
  return notes.filter((note, index) => note.text.trim() !== '' || (index > 0 && notes[index - 1]!.text.trim() !== ''));
}

/**
 * Note lines written where `readMarkdownTasks` reads them back as notes: a checkbox item's box
 * escaped (`- \\[ ] …`, no task), and a fenced block left open closed (else it would hide
 * every task after it), nor an HTML block left open (`withoutOpenHtmlBlocks`: it hid them where the file is rendered).
 */
export function inertNotes(lines: readonly string[]): string[] {
  let open = false;
  const out = withoutOpenHtmlBlocks(lines).map((line) => {
    if (fence.test(line)) open = !open;
    // The reader splits lines at `\r\n` too: a line's `\r` is its ending there.
    return !open && checkboxItem.test(line.replace(/\r$/, '')) ? line.replace(/^(\s*(?:[-*+]|\d+[.)])\s+)\[/, '$1\\[') : line;
  });
  if (open) out.push('```');
  return out;
}

/** How a format writes one task's checkbox line (without indent and box). */
export type ItemWriter = (task: SourceTask) => string;

/** How `writeMarkdownTasks` writes a format: its items both ways, Kiro's optional mark, blank lines between tasks. */
export interface MarkdownStyle {
  writeItem: ItemWriter;
  /** The format's reader of an item, which the written file must read back by. */
  readItem: ItemReader;
  optionalMark: boolean;
  spaced: boolean;
}

/**
 * Writes `document` as a Markdown task list: `# title`, the notes, then each task as a
 * checkbox item (indented two spaces a level of `depth`, `- [ ]*` when `optionalMark` and
 * the task is optional), each section heading where it begins (`##` for the outermost),
 * details and requirements as bullets below the item; `spaced` puts a blank line between
 * tasks, as Kiro writes them. When a task says where it stands among the notes (`afterNote`: a file imported), each note
 * is written there instead, front matter above the title, so a file imported and exported unedited keeps its layout: a
 * phase's heading, purpose and checkpoint around its tasks. Only when that reads back as the same title and tasks (an
 * indented note after a task reads as its detail): else every note goes first, as for a plan of no file.
 */
export function writeMarkdownTasks(document: SourceDocument, style: MarkdownStyle): string {
  const first = writeTasks(document, style, false);
  if (!document.tasks.some((task) => task.afterNote !== undefined)) return first;
  const placed = writeTasks(document, style, true);
  const read = (text: string): { tasks: string; sections: string } => {
    const back = readMarkdownTasks(text, style.readItem, '');
    return {
      tasks: JSON.stringify([back.title, back.tasks.map(({ line: _line, section: _section, ...task }) => task)]),
      sections: JSON.stringify(back.tasks.map((task) => sectionPath(task.section))),
    };
  };
  const [mine, theirs] = [read(placed), read(first)];
  return mine.tasks === theirs.tasks && mine.sections === JSON.stringify(document.tasks.map((task) => task.section)) ? placed : first;
}

function writeTasks(document: SourceDocument, style: MarkdownStyle, placed: boolean): string {
  const notes = document.notes.flatMap((note) => note.text.split('\n').map((text, index) => ({ line: note.line + index, text })));
  const front = placed ? frontMatterLength(notes.map((note) => note.text)) : 0;
  const out: string[] = front > 0 ? [...inertNotes(notes.slice(0, front).map((note) => note.text)), ''] : [];
  out.push(`# ${document.title}`, '');
  // Notes all first, before a task of no section and then one of a section: a heading among them would put the first under it,
  // and the two in one [P] run when the other is its section too. Written as text (`\#`), they leave the tasks as they are.
  const plain = !placed && document.tasks[0]?.section.length === 0 && document.tasks.some((task) => task.section.length > 0);
  let next = front;
  let anchor = 0;
  // The headings read so far, as `readMarkdownTasks` reads them: those of the notes written, then those written for tasks.
  let sections: Heading[] = [];
  const writeNotes = (upTo: number): void => {
    let end = next;
    while (end < notes.length && notes[end]!.line <= upTo) end++;
    const lines = withoutBlankEnds(notes.slice(next, end).map((note) => note.text));
    next = end;
    if (lines.length === 0) return;
    const inert = inertNotes(lines);
    if (out[out.length - 1] !== '') out.push('');
    out.push(...(plain ? withoutHeadings(inert) : inert), '');
    sections = plain ? sections : headingsAfter(inert, sections);
  };
  if (!placed) writeNotes(Infinity);
  for (const task of document.tasks) {
    anchor = Math.max(anchor, task.afterNote ?? anchor);
    if (placed) writeNotes(anchor);
    const headings = headingsFor(task.section, sections);
    if (headings.length > 0) {
      if (out[out.length - 1] !== '') out.push('');
      for (const heading of headings) out.push(`${'#'.repeat(heading.level)} ${heading.text}`, '');
      sections = headingsAfter(headings.map((heading) => `${'#'.repeat(heading.level)} ${heading.text}`), sections);
    }
    const pad = '  '.repeat(task.depth);
    out.push(`${pad}- [${task.done ? 'x' : ' '}]${style.optionalMark && task.optional ? '*' : ''} ${style.writeItem(task)}`);
    for (const detail of task.details) out.push(`${pad}  - ${inertAfterBullet(detail)}`);
    if (task.requirements.length > 0) out.push(`${pad}  - _Requirements: ${task.requirements.join(', ')}_`);
    if (style.spaced) out.push('');
  }
  writeNotes(Infinity);
  return `${out.join('\n').trimEnd()}\n`;
}

/** A heading as read: its level (number of `#`s) and text. */
interface Heading {
  level: number;
  text: string;
}

/** The headings `readMarkdownTasks` has read after `lines` (written after the title), from those it had read before. */
function headingsAfter(lines: readonly string[], before: readonly Heading[]): Heading[] {
  let sections = [...before];
  for (const { level, text } of headingsIn(lines)) sections = [...sections.filter((section) => section.level < level), { level, text }];
  return sections;
}

/** `lines` with each heading `readMarkdownTasks` would read escaped (`\## Notes`), shown as written but read as a note. */
function withoutHeadings(lines: readonly string[]): string[] {
  const at = new Set(headingsIn(lines).map((heading) => heading.index));
  return lines.map((line, index) => (at.has(index) ? `\\${line}` : line));
}

/** The headings among `lines` as `readMarkdownTasks` reads them (none inside a fenced block), with their index. */
function headingsIn(lines: readonly string[]): (Heading & { index: number })[] {
  const headings: (Heading & { index: number })[] = [];
  let inFence = false;
  for (const [index, line] of lines.entries()) {
    const text = line.replace(/\r$/, '');
    const fenced = inFence || fence.test(text);
    if (fence.test(text)) inFence = !inFence;
    const heading = fenced ? null : headingLine.exec(text);
    if (heading) headings.push({ level: heading[1]!.length, text: headingText(heading[2]), index });
  }
  return headings;
}

/**
 * The headings to write before a task of `section` after `sections` were read, each a level below the one it is under (at
 * most six `#`s): those from where they differ, or the task's innermost again when it is back in an outer section after a
 * nested one; none when they are the same (sections past the fifth as one: `sectionPath`).
 */
function headingsFor(section: readonly string[], sections: readonly Heading[]): Heading[] {
  const read = sectionPath(sections.map((heading) => heading.text));
  const from = section.findIndex((text, index) => read[index] !== text);
  const start = from >= 0 ? from : section.length < read.length ? section.length - 1 : -1;
  if (start < 0) return [];
  // Read headings nest deeper each (`readMarkdownTasks` drops those of its level or deeper): the first written is nested
  // in the one before it and ends the one it replaces, `#` after a note's `# Title` (at `##` it went under it).
  const under = start === 0 ? 1 : sections[start - 1]!.level;
  const level = Math.min(under + 1, sections[start]?.level ?? under + 1);
  if (level + section.length - start - 1 <= 6) return section.slice(start).map((text, index) => ({ level: level + index, text }));
  // Under a heading too deep for the rest (`#####` from a file's notes), the whole path again from the top.
  const top = Math.min(2, sections[0]?.level ?? 2);
  return section.map((text, index) => ({ level: top + index, text }));
}

function withoutBlankEnds(lines: readonly string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === '') start++;
  while (end > start && lines[end - 1]!.trim() === '') end--;
  return lines.slice(start, end);
}
