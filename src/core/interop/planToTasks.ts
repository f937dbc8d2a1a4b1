import type { Plan, Step } from '../plan/planSchema';
import { topologicalOrder } from '../plan/topologicalOrder';
import { canonicalJson } from '../engine/answerSeals';
import { readOrigin, type SourceOrigin } from './sourceOrigin';
import { emptyTask, headingLine, headingText, oneLineText, sectionPath, splitDependsOn, type SourceDocument, type SourceTask } from './sourceTasks';
import { orderDependencies, tasksToPlan } from './tasksToPlan';
import { visibleControls } from '../../shared/visibleCharacters';
import { capText } from '../text/capText';
import { shownCommand } from '../tools/commandApprovalText';

/** What a format can say about order, for `planToTasks`. */
export interface TaskEncoding {
  /** The key the format writes for the step at `index` (also what `dependsOn` names). */
  keyOf: (step: Step, index: number, steps: readonly Step[]) => string;
  /** Whether the format marks parallel tasks (`[P]`). */
  parallel: boolean;
  /** Whether the format marks optional tasks (Kiro's `- [ ]*`); else every task reads back as required. */
  optional?: boolean;
}

/**
 * The tasks a file of another format is written from (issue 31): the plan's steps in an
 * order where each follows what it depends on, each with what its origin kept (section,
 * labels, requirements, status, place among the notes: `afterNote`), done when skipped and optional when not critical.
 * A task is marked parallel, when the format can, if that gives exactly its dependencies by `orderDependencies`: a task
 * of a file as the file marked it when that still does (a task of no file first when the next step waits for the same
 * steps); a task that named its dependencies names them again, as written when they still are the ones; else, when its
 * place does not give them, it names them (`dependsOn`), so the file reads back as the same plan. Unedited, a file's
 * tasks are written with its own marks and names. Each task's title and details are on one line (line
 * breaks made spaces; a blank title is the step's id), and a title that ends in words naming
 * dependencies has its task name its own, so no text of the plan adds a task or changes
 * what one waits for. The title is the objective's first line; its other lines are the
 * document's notes, numbered as the objective's lines. Every character that shows nothing or acts on the text around it (zero-width and tag characters,
 * direction controls, controls: `visibleControls`) is written as its visible escape: the file is read by another tool's
 * agent, and a plan's text must not carry words the user reviewing it never saw ("ASCII smuggling").
 */
export function planToTasks(plan: Plan, encoding: TaskEncoding): SourceDocument {
  const seen = new Set<string>();
  const inOrder = plan.steps.every((step) => step.dependsOn.every((id) => seen.has(id)) && seen.add(step.id));
  const sorted = inOrder ? undefined : topologicalOrder(plan.steps);
  const steps = sorted?.ok === true ? sorted.order.map((index) => plan.steps[index]!) : plan.steps;
  const keys = steps.map((step, index) => encoding.keyOf(step, index, steps));
  const keyById = new Map(steps.map((step, index) => [step.id, keys[index]!]));
  const written = new Set(keys);
  const tasks: SourceTask[] = [];
  for (const [index, step] of steps.entries()) {
    const { task, origin } = taskOf(step, keys[index]!);
    task.optional &&= encoding.optional === true;
    // Markdown cannot leave a section again: a task without one reads back under the one before it.
    if (task.section.length === 0 && tasks.length > 0) task.section = tasks[tasks.length - 1]!.section;
    const wanted = step.dependsOn.map((id) => keyById.get(id) ?? id);
    const derive = (candidate: SourceTask): string[] =>
      orderDependencies([...tasks, candidate], keys, (_task, key) => (written.has(key) ? key : undefined))[index]!.filter((key) => key !== '');
    // Parallel first when the file said so; a step of no file when the next step waits for the same steps (they can form a
    // run): a ticked task of a file got `[P]` that way, and the task after it too (a trial).
    const next = steps[index + 1];
    const together = origin !== undefined ? origin.parallel : next !== undefined && sameSet(next.dependsOn, step.dependsOn);
    const marks: SourceTask[] = [{ ...task, parallel: false }, ...(encoding.parallel ? [{ ...task, parallel: true }] : [])];
    if (together) marks.reverse();
    // A task that named what it depends on names it again, as the file did when those are still the ones (a trial's export
    // dropped "(depends on T010, T011)" where the task's place said as much).
    const named = origin?.dependsOn === undefined ? [] : [origin.dependsOn, wanted].filter((names) => names.every((key) => written.has(key)));
    const choices = [...named.flatMap((names) => marks.map((mark) => ({ ...mark, dependsOn: names }))), ...marks];
    // A title ending in "(depends on …)" would read back as naming them: its task names its own, which are read instead.
    const fits = splitDependsOn(task.title).dependsOn !== undefined ? undefined : choices.find((choice) => sameSet(derive(choice), wanted));
    tasks.push(fits ?? { ...task, parallel: false, dependsOn: wanted });
  }
  const [first = '', ...rest] = visibleControls(plan.objective).split('\n');
  const title = oneLineText(first);
  const notes = rest.join('\n').trim();
  // Numbered as the objective's lines, which each task's origin places it after (`afterNote`).
  const line = 2 + rest.findIndex((text) => text.trim() !== '');
  return { title, tasks, notes: notes === '' ? [] : [{ line, text: notes }] };
}

/** What a heading of `text` reads back as (`readMarkdownTasks`): on one line, trimmed, its closing `#`s dropped. */
function headingAsRead(text: string): string {
  return headingText(headingLine.exec(`## ${oneLineText(text)}`)?.[2]);
}

function taskOf(step: Step, key: string): { task: SourceTask; origin: SourceOrigin | undefined } {
  const { text, origin } = readOrigin(visibleControls(step.input ?? ''));
  // One line, as every format writes a task; a blank title would write no task at all.
  const title = oneLineText(visibleControls(step.title)).trim();
  const task = emptyTask(origin?.line ?? 0, title === '' ? step.id : title);
  task.key = key;
  task.done = step.skipped === true;
  task.optional = !step.critical;
  if (origin !== undefined) {
    task.parallel = origin.parallel;
    // Markdown has six heading levels and the title takes the first: a section nested deeper (a file whose `#` headings came
    // after its title nests six) was written `####### E`, no heading, so the [P] run it ended merged with the one before it
    // on reading back (attack). The deepest sections share the last level, named as the origin joins them.
    const sections = sectionPath(origin.section);
    // Each as its heading reads back: "X " or "X #" read back as "X", the section before, so a [P] run of a hostile
    // plan's origin was taken for the same run on reading, and its tasks lost what they waited for (attack).
    task.section = sections.map(headingAsRead);
    task.depth = origin.depth;
    task.labels = origin.labels;
    task.requirements = origin.requirements;
    if (origin.status !== undefined) task.status = origin.status;
    if (origin.afterNote !== undefined) task.afterNote = origin.afterNote;
  }
  const lines = text.split('\n');
  const body = lines[0]?.trim() === step.title.trim() ? lines.slice(1) : lines;
  task.details = body.map((line) => oneLineText(line.replace(/^\s*-\s+/, '')).trimEnd()).filter((line) => line.trim() !== '');
  const call = toolCallDetail(step);
  if (call !== undefined && !title.includes(call.shown)) task.details.push(call.line);
  return { task, origin };
}

/**
 * Whether tool step `step` comes back as the same call when its task, as an export writes it, is imported again: a
 * `run_command` step whose task is exactly "Run `<command>`" (as a task file's own is, imported) runs that command again.
 * Any other tool step comes back as a task to do, an agent's or a person's.
 */
export function toolCallReadBack(step: Step): boolean {
  if (step.kind !== 'tool') return false;
  const back = tasksToPlan({ title: '', tasks: [taskOf(step, step.id).task], notes: [] }, { file: '', model: false }).plan.steps[0]!;
  return back.kind === 'tool' && back.tool === step.tool && canonicalJson(back.args) === canonicalJson(step.args);
}

/** Longest tool call a task's detail line shows, in characters (a write's whole content is not for a task list). */
const maxToolCallDetail = 300;

/**
 * What a tool step does, as a detail line of its task (a list of tasks keeps what a step is to do, not the call that
 * does it: "Run the tests" lost its `npm test`): "Command: `npm test`" (and its folder), else "Tool call: `name {args}`";
 * `shown` is the code the line quotes. `undefined` for a step that is no tool call.
 */
function toolCallDetail(step: Step): { line: string; shown: string } | undefined {
  if (step.kind !== 'tool' || step.tool === undefined) return undefined;
  const argv = step.args?.['argv'];
  if (step.tool === 'run_command' && Array.isArray(argv) && argv.length > 0 && argv.every((word) => typeof word === 'string')) {
    const shown = capText(visibleControls(shownCommand(argv)), maxToolCallDetail);
    const cwd = step.args?.['cwd'];
    const where = typeof cwd === 'string' && cwd !== '' && cwd !== '.' ? ` (in ${codeSpan(capText(visibleControls(cwd), maxToolCallDetail))})` : '';
    return { line: oneLineText(`Command: ${codeSpan(shown)}${where}`), shown: codeSpan(shown) };
  }
  const args = step.args === undefined || Object.keys(step.args).length === 0 ? '' : ` ${JSON.stringify(step.args)}`;
  const shown = codeSpan(capText(visibleControls(`${step.tool}${args}`), maxToolCallDetail));
  return { line: oneLineText(`Tool call: ${shown}`), shown };
}

/** `text` as Markdown inline code: fenced by more backticks than it holds in a row, padded when it starts or ends with one. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((item) => set.has(item));
}
