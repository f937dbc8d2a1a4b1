import { isMap, isNode, isSeq, parseDocument, stringify } from 'yaml';
import type { Plan } from '../plan/planSchema';
import { planToTasks } from './planToTasks';
import { emptyTask, type SourceDocument, type SourceNote, type SourceTask } from './sourceTasks';

const opening = /^\uFEFF?---[ \t]*\r?\n/;
// A line of its own: after a line feed, not after the CR, U+2028 or U+2029 that `^` of the `m` flag would take for one.
const closing = /(?<=^|\n)---[ \t]*\r?(?=\n|$)/;
/** The statuses Cursor gives a todo, and whether a todo with it is done with. */
const cursorStatusDone: Readonly<Record<string, boolean>> = { pending: false, in_progress: false, completed: true, cancelled: true };
/** Most characters of front matter read: 5,000 todos (the most one plan is made of) of a line of text each fit well within it. */
export const maxFrontMatterChars = 1_000_000;
const todoFields: ReadonlySet<string> = new Set(['id', 'content', 'status', 'dependencies']);

/**
 * Reads a Cursor plan (`.cursor/plans/*.plan.md`): YAML front matter with `name`,
 * `overview` and `todos` (each `id`, `content`, `status` — pending, in_progress, completed,
 * cancelled — and `dependencies`, the ids it waits for), then Markdown. When any todo has
 * `dependencies`, each waits for exactly those; else they run in order. The name is the
 * title; the overview, other fields, other todo fields and the Markdown are notes. A file
 * whose front matter cannot be read says why (`problem`).
 */
export function readCursor(text: string, name: string): SourceDocument & { problem?: string } {
  const start = opening.exec(text);
  const rest = start ? text.slice(start[0].length) : '';
  const end = closing.exec(rest);
  if (!start || !end) return { title: name, tasks: [], notes: bodyNotes(text, 1), problem: 'it has no YAML front matter between "---" lines' };
  const yamlText = rest.slice(0, end.index);
  // The YAML reader takes seconds for each hundred thousand todos: a 10 MB front matter held the import for half a minute
  // before it was refused for its number of tasks (attack).
  if (yamlText.length > maxFrontMatterChars) {
    return {
      title: name,
      tasks: [],
      notes: bodyNotes(text, 1),
      problem:
        `its front matter is ${yamlText.length.toLocaleString('en-US')} characters long, more than the ${maxFrontMatterChars.toLocaleString('en-US')} read; ` +
        'a plan that large is best split into smaller plans',
    };
  }
  const lineAt = lineOfOffset(yamlText, 2);
  const document = parseDocument(yamlText, { uniqueKeys: true, prettyErrors: false, schema: 'core' });
  const bodyStart = lineAt(yamlText.length) + 1;
  const body = bodyNotes(rest.slice(end.index + end[0].length).replace(/^\r?\n/, ''), bodyStart + 1);
  if (document.errors.length > 0 || !isMap(document.contents)) {
    return {
      title: name,
      tasks: [],
      notes: bodyNotes(text, 1),
      problem: `its front matter is not valid YAML (${document.errors[0]?.message.split('\n')[0] ?? 'not a mapping'})`,
    };
  }
  const fields = document.toJS({ maxAliasCount: 0 }) as Record<string, unknown>;
  const notes: SourceNote[] = [];
  if (typeof fields['overview'] === 'string') notes.push({ line: 2, text: fields['overview'] }, { line: 2, text: '' });
  for (const [key, value] of Object.entries(fields)) {
    if (key !== 'name' && key !== 'overview' && key !== 'todos') notes.push({ line: 2, text: stringify({ [key]: value }).trimEnd() });
  }
  const todosNode = document.contents.get('todos', true);
  const todos = Array.isArray(fields['todos']) ? (fields['todos'] as unknown[]) : [];
  const named = todos.some((todo) => typeof todo === 'object' && todo !== null && 'dependencies' in todo);
  const tasks = todos.map((todo, index): SourceTask => {
    const node: unknown = isSeq(todosNode) ? todosNode.items[index] : undefined;
    const range = isNode(node) ? node.range : undefined;
    return taskOf(todo, range ? lineAt(range[0]) : 2, named);
  });
  return { title: typeof fields['name'] === 'string' ? fields['name'] : name, tasks, notes: [...notes, ...body] };
}

function taskOf(todo: unknown, line: number, named: boolean): SourceTask {
  const fields = typeof todo === 'object' && todo !== null ? (todo as Record<string, unknown>) : { content: String(todo) };
  const content = fields['content'] ?? fields['id'] ?? '';
  const task = emptyTask(line, typeof content === 'string' ? content : JSON.stringify(content));
  if (typeof fields['id'] === 'string' || typeof fields['id'] === 'number') task.key = String(fields['id']);
  const status = typeof fields['status'] === 'string' ? fields['status'] : 'pending';
  task.done = Object.hasOwn(cursorStatusDone, status) && cursorStatusDone[status] === true;
  if (status !== 'pending' && status !== 'completed') task.status = status;
  if (named) task.dependsOn = Array.isArray(fields['dependencies']) ? fields['dependencies'].map(String) : [];
  for (const [key, value] of Object.entries(fields)) if (!todoFields.has(key)) task.details.push(`${key}: ${JSON.stringify(value)}`);
  return task;
}

/**
 * The line number of an offset of `text` whose first line is `first`: counted once, each offset then found by halving (a
 * count from the start for each todo took 12 s for 10,000 todos and grew with their square: attack).
 */
function lineOfOffset(text: string, first: number): (offset: number) => number {
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return first + low;
  };
}

function bodyNotes(text: string, firstLine: number): SourceNote[] {
  return text === '' ? [] : text.split(/\r?\n/).map((line, index) => ({ line: firstLine + index, text: line }));
}

/**
 * Writes `plan` as a Cursor plan: the objective's first line as `name`, its next paragraph
 * as `overview`, a todo a step (its id, title, status and every dependency, `[]` for none,
 * so the file reads back with the same order), then the rest of the objective as Markdown.
 */
export function writeCursor(plan: Plan): string {
  const document = planToTasks(plan, { parallel: false, keyOf: (step) => step.id });
  const [overview = '', ...body] = (document.notes[0]?.text ?? '').split(/\n\s*\n/);
  const front = {
    name: document.title,
    ...(overview !== '' ? { overview } : {}),
    todos: document.tasks.map((task) => ({
      id: task.key,
      content: task.title,
      status: task.done ? (task.status === 'cancelled' ? 'cancelled' : 'completed') : task.status === 'in_progress' ? 'in_progress' : 'pending',
      dependencies: planDependencies(plan, task.key!),
    })),
  };
  return `---\n${stringify(front, { lineWidth: 0 })}---\n${body.length > 0 ? `\n${body.join('\n\n')}\n` : ''}`;
}

function planDependencies(plan: Plan, id: string): string[] {
  return [...(plan.steps.find((step) => step.id === id)?.dependsOn ?? [])];
}
