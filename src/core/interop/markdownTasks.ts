import { withoutOpenHtmlBlocks } from './htmlBlocks';
import {
  bulletItem,
  checkboxItem,
  emptyTask,
  headingLine,
  headingText,
  indentOf,
  inertAfterBullet,
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
 * under them, the first `#` heading before any task the title. Every other line, and every
 * heading with no task under it, is a note, with its line number.
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
  // Blank lines between a task and its details are not notes.
  const kept = notes.filter((note) => !(note.heading === true && note.used === true));
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

/**
 * Writes `document` as a Markdown task list: `# title`, the notes, then each task as a
 * checkbox item (indented two spaces a level of `depth`, `- [ ]*` when `optionalMark` and
 * the task is optional), each section heading where it begins (`##` for the outermost),
 * details and requirements as bullets below the item; `spaced` puts a blank line between
 * tasks, as Kiro writes them.
 */
export function writeMarkdownTasks(document: SourceDocument, writeItem: ItemWriter, style: { optionalMark: boolean; spaced: boolean }): string {
  const out: string[] = [`# ${document.title}`, ''];
  out.push(...inertNotes(document.notes.flatMap((note) => note.text.split('\n'))));
  if (document.notes.length > 0) out.push('');
  let sections: string[] = [];
  for (const task of document.tasks) {
    const from = task.section.findIndex((section, index) => sections[index] !== section);
    // A task back in an outer section after a nested one: that section's heading again.
    const start = from >= 0 ? from : task.section.length < sections.length ? task.section.length - 1 : -1;
    if (start >= 0) {
      if (out[out.length - 1] !== '') out.push('');
      for (const [index, section] of task.section.slice(start).entries()) out.push(`${'#'.repeat(2 + start + index)} ${section}`, '');
    }
    sections = task.section;
    const pad = '  '.repeat(task.depth);
    out.push(`${pad}- [${task.done ? 'x' : ' '}]${style.optionalMark && task.optional ? '*' : ''} ${writeItem(task)}`);
    for (const detail of task.details) out.push(`${pad}  - ${inertAfterBullet(detail)}`);
    if (task.requirements.length > 0) out.push(`${pad}  - _Requirements: ${task.requirements.join(', ')}_`);
    if (style.spaced) out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
