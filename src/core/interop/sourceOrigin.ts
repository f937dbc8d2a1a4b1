import { doneOriginName, originHead, tickOriginName } from '../plan/originTick';
import { oneLineText, type SourceTask } from './sourceTasks';

/**
 * Where an imported step came from and what the file said of it besides its text, as the
 * last lines of the step's input (so the agent, the person and the review all read it, and
 * an export writes it back): "From tasks.md, line 12:" then one "- Name: value" line each ("From tasks.md, line 12."
 * when the file said nothing more).
 */
export interface SourceOrigin {
  file: string;
  line: number;
  key?: string;
  section: string[];
  depth: number;
  labels: string[];
  requirements: string[];
  parallel: boolean;
  optional: boolean;
  status?: string;
  /** The keys of the tasks the file said it depends on ("(depends on T010, T011)"), as written; `[]` for "none". */
  dependsOn?: string[];
  /** The line of the plan's objective the task came after in the file (`SourceTask.afterNote`): where an export writes it back. */
  afterNote?: number;
  /** The user chose, at import, to have the task's checkbox ticked in the file once its step completes (`tickSourceCheckbox`). */
  tick: boolean;
  /**
   * The task's whole text, as the step's input opens with it (its first line, before the details): `readOrigin` reads it
   * there, `originText` never writes it (the input holds it already). Unlike the step's title it is never cut, so the
   * task's line is found again by it (`tickTaskLine`); `undefined` when the input holds nothing before the origin block.
   */
  taskText?: string;
}

const sectionJoin = ' › ';
const dependsOnName = 'Depends on';
// "Request": the word the panel uses for the objective ("Full request"); "objective line" meant nothing to a reader.
const afterNoteName = 'After request line';

/**
 * The lines `readOrigin` reads back, for `task` of `file`; `tick` when its checkbox is to be ticked as its step completes.
 * Each value is written on its own line whatever it holds: a Cursor todo's `status` or `id` holding line breaks wrote
 * lines of its own after them, a `From README.md, line 3:` and a tick line, and the step ticked a box in that file
 * although the user had not asked for ticks (attack).
 */
export function originText(file: string, task: SourceTask, tick = false): string {
  const line = (name: string, value: string): string => `- ${name}: ${oneLineText(value)}`;
  const lines = [`From ${oneLineText(file)}, line ${task.line}:`];
  if (task.key !== undefined) lines.push(line('Task', task.key));
  if (task.section.length > 0) lines.push(line('Section', task.section.join(sectionJoin)));
  if (task.depth > 0) lines.push(`- Depth: ${task.depth}`);
  if (task.labels.length > 0) lines.push(line('Story', task.labels.join(', ')));
  if (task.requirements.length > 0) lines.push(line('Requirements', task.requirements.join(', ')));
  if (task.parallel) lines.push('- Parallel: yes');
  if (task.optional) lines.push('- Optional: yes');
  if (task.status !== undefined) lines.push(line('Status', task.status));
  if (task.dependsOn !== undefined) lines.push(line(dependsOnName, task.dependsOn.length === 0 ? 'none' : task.dependsOn.join(', ')));
  if (task.afterNote !== undefined) lines.push(`- ${afterNoteName}: ${task.afterNote}`);
  if (task.done) lines.push(`- ${doneOriginName}: yes`);
  if (tick && !task.done) lines.push(`- ${tickOriginName}: yes`);
  // A head with nothing after it ends its sentence: "line 5:" read as if something was missing.
  if (lines.length === 1) lines[0] = `${lines[0]!.slice(0, -1)}.`;
  return lines.join('\n');
}

/** The origin block at the end of a step's `input`, and the text before it; no origin when it has none. */
export function readOrigin(input: string): { text: string; origin?: SourceOrigin } {
  const lines = input.split('\n');
  let start = -1;
  for (let index = lines.length - 1; index >= 0; index--) {
    if (originHead.test(lines[index]!)) {
      start = index;
      break;
    }
    if (!lines[index]!.startsWith('- ')) return { text: input };
  }
  if (start < 0) return { text: input };
  const head = originHead.exec(lines[start]!)!;
  const origin: SourceOrigin = {
    file: head[1]!,
    line: Number(head[2]),
    section: [],
    depth: 0,
    labels: [],
    requirements: [],
    parallel: false,
    optional: false,
    tick: false,
  };
  for (const line of lines.slice(start + 1)) {
    const split = line.indexOf(': ');
    const name = line.slice(2, split);
    const value = line.slice(split + 2);
    if (name === 'Task') origin.key = value;
    else if (name === 'Section') origin.section = value.split(sectionJoin);
    else if (name === 'Depth') origin.depth = Number(value) || 0;
    else if (name === 'Story') origin.labels = value.split(', ');
    else if (name === 'Requirements') origin.requirements = value.split(', ');
    else if (name === 'Parallel') origin.parallel = true;
    else if (name === 'Optional') origin.optional = true;
    else if (name === 'Status') origin.status = value;
    else if (name === dependsOnName) origin.dependsOn = value === 'none' ? [] : value.split(', ');
    else if (name === afterNoteName && /^\d+$/.test(value)) origin.afterNote = Number(value);
    else if (name === tickOriginName) origin.tick = true;
  }
  const text = lines.slice(0, start).join('\n').trimEnd();
  if (text !== '') origin.taskText = text.split('\n')[0]!;
  return { text, origin };
}
