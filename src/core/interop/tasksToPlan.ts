import { contentHash } from '../plan/contentHash';
import type { Check, Plan, Step } from '../plan/planSchema';
import { heuristicAgents } from '../planner/heuristicPlan';
import { recognizeCommand } from '../planner/recognizeCommand';
import { isReservedStepId, maxChecksPerStep, maxStepIdLength, maxWritePatternLength, maxWritePatterns, stepIdPattern } from '../../shared/vocabulary';
import { maxStepTitleLength } from '../../shared/stepEditSchema';
import { visibleControls } from '../../shared/visibleCharacters';
import { capText } from '../text/capText';
import { notePlaces } from './notePlaces';
import { originText } from './sourceOrigin';
import { createdPathsOfTask, emptyTask, oneLineText, pathsOfTask, type SourceDocument, type SourceTask } from './sourceTasks';

/** How `tasksToPlan` makes its steps. */
export interface TasksToPlanOptions {
  /** The file's name as the review shows it (and each step's origin names). */
  file: string;
  /** True when a model runs agent steps; else each task is a person's (`manual`) step. */
  model: boolean;
  /** ISO-8601 creation time, from the host's clock (default: the Unix epoch, for outputs that must not change: tests). */
  createdAt?: string;
  /** Each step's checkbox is ticked in `file` as the step completes (the origin says so; `tickSourceCheckbox` does it). */
  tick?: boolean;
  /**
   * Each step's origin also says the dependencies its task named and where the task stood among the lines kept in the
   * objective (`notePlaces`), for an export in the file's format to write them back so (`planToTasks`, `writeMarkdownTasks`).
   */
  layout?: boolean;
}

/**
 * A plan of a file's tasks (issue 31): one step a task, in the file's order. A task waits
 * for the task before it, or for every task of the parallel run (`[P]`) before it; a
 * heading ends a run. A task done in the file, or optional, is a side task: it waits like
 * the others but nothing waits for it, so it never holds back the work after it. A task
 * that names what it depends on waits for exactly that (also for what its place says when a name is no task of the
 * file, so it never runs earlier for a mistyped name). Done tasks are `skipped` steps,
 * optional ones not critical. The steps are agents' (the `coder`, its `writes` the files
 * the task names) with a model, else a person's; a task that is exactly "Run `<command>`" runs that command
 * (`run_command`, asking first as every command does). Each step's input ends with where it came
 * from (`originText`); the objective is the file's title and every line that is no task (a heading with tasks under it
 * too: each task's section).
 */
export function tasksToPlan(document: SourceDocument, options: TasksToPlanOptions): { plan: Plan; warnings: string[] } {
  const warnings: string[] = [];
  const ids = stepIds(document.tasks);
  // A task whose id an earlier task has too is renamed by its place: said, where it was silent (a trial's second T002).
  const seenKeys = new Set<string>();
  document.tasks.forEach((task, index) => {
    if (task.key === undefined) return;
    if (seenKeys.has(task.key) && ids[index] !== task.key) {
      warnings.push(`Line ${task.line}: ${oneLineText(task.key)} is the id of an earlier task too; this task is step ${ids[index]!}.`);
    }
    seenKeys.add(task.key);
  });
  const byKey = new Map<string, string>();
  document.tasks.forEach((task, index) => {
    if (task.key !== undefined && !byKey.has(task.key)) byKey.set(task.key, ids[index]!);
  });
  const known = new Set(ids);
  const dependencies = orderDependencies(document.tasks, ids, (task, key) => {
    // A key the file gives, else a step id an export wrote (a checklist's tasks have no key of their own).
    const id = byKey.get(key) ?? (known.has(key) ? key : undefined);
    if (id === undefined) {
      warnings.push(`Line ${task.line} depends on ${key}, which is no task of the file; it also waits for what comes before it in the file.`);
    }
    return id;
  });
  const notes = visibleControls(document.notes.map((note) => note.text).join('\n')).replace(/\n{3,}/g, '\n\n').trim();
  const title = visibleControls(document.title);
  const objective = notes === '' ? title : `${title}\n\n${notes}`;
  // Only a format whose export writes them back (`layout`) keeps them: a Cursor todo's `dependencies` are its step's own.
  const places = options.layout === true ? notePlaces(document, objective) : [];
  const steps = document.tasks.map((task, index) => {
    const { dependsOn, ...rest } = task;
    const place = places[index];
    const origin: SourceTask = {
      ...rest,
      ...(options.layout === true && dependsOn !== undefined ? { dependsOn } : {}),
      ...(place !== undefined ? { afterNote: place } : {}),
    };
    return stepOf(origin, ids[index]!, dependencies[index]!, options);
  });
  const plan: Plan = {
    id: `plan-${contentHash(`${options.file}\n${objective}\n${JSON.stringify(steps)}`)}`,
    version: 1,
    objective,
    createdAt: options.createdAt ?? new Date(0).toISOString(),
    agents: options.model && steps.length > 0 ? { coder: heuristicAgents['coder']! } : {},
    steps,
  };
  return { plan, warnings };
}

/**
 * The dependencies of each task by its place (see `tasksToPlan`), as step ids; `resolve`
 * turns a key a task names into its step id (or `undefined`, left out).
 */
export function orderDependencies(
  tasks: readonly SourceTask[],
  ids: readonly string[],
  resolve: (task: SourceTask, key: string) => string | undefined,
): string[][] {
  let frontier: string[] = [];
  let runBase: string[] | undefined;
  let run: string[] = [];
  let section: string | undefined;
  const closeRun = (): void => {
    if (runBase !== undefined && run.length > 0) frontier = run;
    runBase = undefined;
    run = [];
  };
  return tasks.map((task, index) => {
    const id = ids[index]!;
    const side = task.done || task.optional;
    const here = task.section.join('\n');
    if (here !== section) closeRun();
    section = here;
    const resolved = task.dependsOn?.map((key) => resolve(task, key));
    // A name that is no task keeps the task in its place as well: left out alone, "Final check (depends on T099)" ran first.
    const keepsPlace = resolved === undefined || resolved.includes(undefined);
    const named = resolved?.filter((found): found is string => found !== undefined && found !== id) ?? [];
    const withPlace = (place: readonly string[]): string[] => (keepsPlace ? [...new Set([...named, ...place])] : named);
    if (task.parallel) {
      runBase ??= frontier;
      if (!side) run.push(id);
      return withPlace(runBase);
    }
    closeRun();
    const after = withPlace(frontier);
    if (!side) frontier = [id];
    return after;
  });
}

/** A step id for each task: its key when that is a usable id not used before, else `S<n>` (its place). */
export function stepIds(tasks: readonly SourceTask[]): string[] {
  const taken = new Set<string>();
  const usable = (key: string | undefined): key is string =>
    key !== undefined && key.length <= maxStepIdLength && stepIdPattern.test(key) && !isReservedStepId(key) && !taken.has(key);
  const keyed = tasks.map((task) => {
    if (!usable(task.key)) return undefined;
    taken.add(task.key);
    return task.key;
  });
  return keyed.map((key, index) => {
    if (key !== undefined) return key;
    let n = index + 1;
    while (taken.has(`S${n}`)) n++;
    taken.add(`S${n}`);
    return `S${n}`;
  });
}

/**
 * A task's text as a step's title: one line (a Cursor todo's content may hold line breaks), every character that acts on
 * the text around it or shows nothing written as its visible escape (`visibleControls`: a title reversed by a direction
 * override, or words in tag characters, read otherwise in the Plan view than the file meant), and at most the
 * panel's `maxStepTitleLength` characters, so its step form can save it (a task line of 10 MB made a title of 10 MB).
 * The whole text is the first part of the step's input. A task's line is found again by it (`tickTaskLine`).
 */
export function stepTitleOf(text: string): string {
  return capText(visibleControls(oneLineText(text)).trim(), maxStepTitleLength);
}

/**
 * Whether `title`, made by `stepTitleOf`, may have been cut: it is as long as a title may be (one less when the cut kept a
 * surrogate pair whole). Such a title is the start of any number of tasks, so it alone never tells one from another.
 */
export function mayBeCutTitle(title: string): boolean {
  return title.length >= maxStepTitleLength - 1;
}

function stepOf(task: SourceTask, id: string, dependsOn: string[], options: TasksToPlanOptions): Step {
  // What a model or a person reads is what the review shows: no words in characters that show nothing.
  const details = task.details.map((detail) => `- ${visibleControls(detail)}`).join('\n');
  const shownTitle = visibleControls(task.title);
  const input = [shownTitle, details, originText(options.file, task, options.tick)].filter((part) => part !== '').join('\n\n');
  // A command hiding a character that shows nothing is not the command the file shows: it stays a task.
  const command = task.details.length === 0 && shownTitle === task.title ? exactCommand(task.title) : undefined;
  const step: Step = {
    id,
    title: stepTitleOf(task.title),
    kind: command !== undefined ? 'tool' : options.model ? 'agent' : 'manual',
    dependsOn,
    input,
    onFailure: 'stop',
    maxAttempts: 1,
    critical: !task.optional,
    onVerificationFailure: 'stop',
  };
  if (command !== undefined) {
    step.tool = 'run_command';
    step.args = command;
  } else {
    if (options.model) {
      step.agent = 'coder';
      const writes = pathsOfTask(task).filter((path) => path.length <= maxWritePatternLength).slice(0, maxWritePatterns);
      if (writes.length > 0) step.writes = writes;
    }
    // A task that says to create a file is done when the file is there, an agent's or yours: the run checks it, as a
    // model's plan would (a newcomer's Done without the file ticked the task, and `npm test` failed later).
    const created = createdChecks(createdPathsOfTask(task));
    if (created.length > 0) step.checks = created;
  }
  if (task.done) step.skipped = true;
  return step;
}

/** The `file_exists` checks an imported step gets for the files its task says to create (`createdPathsOfTask`). */
function createdChecks(paths: readonly string[]): Check[] {
  return paths.filter((path) => path.length <= maxWritePatternLength).slice(0, maxChecksPerStep).map((path) => ({ kind: 'file_exists', path }));
}

/**
 * Whether `check` of `step` is one its task, written to a task file and imported again, gets back: a `file_exists` of a
 * file its title or a line of its input says to create. An export loses every other check.
 */
export function checkReadBack(step: Step, check: Check): boolean {
  if (check.kind !== 'file_exists') return false;
  const lines = (step.input ?? '').split('\n').map((line) => line.replace(/^\s*-\s+/, ''));
  const task = Object.assign(emptyTask(0, step.title), { details: lines });
  return createdChecks(createdPathsOfTask(task)).some((made) => made.kind === 'file_exists' && made.path === check.path);
}

/**
 * The `run_command` arguments of a task that is exactly "Run `<command line>`" (one command, no `&&`, no pipe): such a
 * task says all there is to do, and a model (or the person) would only retype it. `undefined` for any other task.
 */
function exactCommand(title: string): Record<string, unknown> | undefined {
  if (!/^run\s+`[^`]+`[.!]?$/i.test(title.trim())) return undefined;
  const action = recognizeCommand(title.trim());
  return action?.calls.length === 1 ? action.calls[0]!.args : undefined;
}
