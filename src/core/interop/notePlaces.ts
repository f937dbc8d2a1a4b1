import { visibleControls } from '../../shared/visibleCharacters';
import { checkboxItem, headingLine, type SourceDocument } from './sourceTasks';

/**
 * Where each task of `document` stood among the lines its plan's `objective` keeps (the title, then every line that is no
 * task: `tasksToPlan`), as `SourceTask.afterNote`: the objective line (1-based) of the last line before the task in the
 * file that is not blank, 1 (the title) when there is none. The first task gets it, and each task with such a line between
 * it and the task before it; the others `undefined` (right after the task before). None when the objective has no line
 * but the title. Blank lines do not count: the objective keeps a run of them as one, and none at its ends.
 */
export function notePlaces(document: SourceDocument, objective: string): (number | undefined)[] {
  const lines = objective.split('\n');
  const shown: number[] = [];
  for (let index = visibleControls(document.title).split('\n').length; index < lines.length; index++) {
    if (lines[index]!.trim() !== '') shown.push(index + 1);
  }
  if (shown.length === 0) return [];
  const written = document.notes.filter((note) => visibleControls(note.text).trim() !== '').map((note) => note.line);
  let before = 0;
  let last: number | undefined;
  return document.tasks.map((task, index) => {
    while (before < written.length && written[before]! < task.line) before++;
    const place = before === 0 ? 1 : shown[Math.min(before, shown.length) - 1]!;
    const changed = index === 0 || place !== last;
    last = place;
    return changed ? place : undefined;
  });
}

// A YAML line of front matter: a key, an indented continuation or a blank line (a `#` comment would read as the title).
const frontMatterLine = /^(?:[A-Za-z_][\w.-]*:(?:\s.*)?|\s+\S.*|\s*)$/;

/**
 * How many of `lines` (a document's notes, from its first) are its YAML front matter, which stood above its `#` title (Spec
 * Kit's `description:`): from a `---` first line to the next `---`, with a `key:` line and nothing else but YAML keys,
 * indented lines and blank ones, none a checkbox item or a heading; 0 when they do not start so.
 */
export function frontMatterLength(lines: readonly string[]): number {
  if (lines[0] !== '---') return 0;
  const end = lines.indexOf('---', 1);
  if (end < 0) return 0;
  const inside = lines.slice(1, end);
  const yaml = inside.every((line) => frontMatterLine.test(line) && !checkboxItem.test(line) && !headingLine.test(line));
  return yaml && inside.some((line) => /^[A-Za-z_][\w.-]*:/.test(line)) ? end + 1 : 0;
}
