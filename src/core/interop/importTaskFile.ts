import type { RunState } from '../engine/runEvents';
import type { Plan } from '../plan/planSchema';
import { planFileName } from '../plan/planFile';
import { interopCodecs } from './interopCodecs';
import { interopFormatNames, tickableFormats, type InteropFormat } from './interopFormats';
import { hasOldMacLineEndings, oldMacLineEndingsProblem, type SourceNote } from './sourceTasks';
import { tasksToPlan } from './tasksToPlan';

/** What `importTaskFile` made of a file: the plan, the format, what came from where, and what it could not use as it stands; or why there is no plan. */
export type ImportedTaskFile =
  | {
      ok: true;
      format: InteropFormat;
      plan: Plan;
      /** The line each step came from, by step id. */
      origins: Record<string, number>;
      /** The lines that are no task, kept in the objective as written. */
      notes: SourceNote[];
      warnings: string[];
    }
  | { ok: false; problems: string[] };

/** Options of `importTaskFile`. */
export interface ImportTaskFileOptions {
  /** The format, when the caller knows it; else `sniffTaskFormat` decides. */
  format?: InteropFormat;
  /** True when a model runs agent steps; else the steps are a person's. */
  model: boolean;
  createdAt?: string;
  /** Each step's checkbox is to be ticked in the file as the step completes (see `TasksToPlanOptions.tick`). */
  tick?: boolean;
}

/**
 * Most tasks one file is imported with. Tasks in parallel runs wait for every task of the run
 * before them, so dependencies grow with the square of the tasks: a file of a hundred
 * thousand `[P]` tasks would make billions; at this many, a few million at most.
 */
export const maxImportedTasks = 5000;

// Indents never span lines (`[^\S\n\r\u2028\u2029]`, not `\s`): each line start scans its own line only.
const checkbox = /^[^\S\n\r\u2028\u2029]*(?:[-*+]|\d+[.)])\s+\[[ xX]\]/m;

/**
 * The format of the task file `path` holds `text`, by its name, then its content: a Cursor
 * plan (`*.plan.md`, or front matter with `todos:`), a Kiro spec (`.kiro/specs/`, or numbered
 * checkbox tasks with `_Requirements:`), a Copilot plan (`plan-*.prompt.md`, or `## Plan:`),
 * Spec Kit (`- [ ] T001`), a checklist (any checkbox); `undefined` when none fits.
 */
export function sniffTaskFormat(path: string, text: string): InteropFormat | undefined {
  const name = path.replace(/\\/g, '/');
  if (/\.plan\.md$/i.test(name) || name.includes('.cursor/plans/') || /^\uFEFF?---\r?\n(?:.*\r?\n)*?todos:/.test(text)) return 'cursor';
  if (name.includes('.kiro/specs/')) return 'kiro';
  if (/(?:^|\/)plan-[^/]*\.prompt\.md$/i.test(name) || /^#{1,3}\s+Plan:/m.test(text)) return 'copilot';
  if (/^[^\S\n\r\u2028\u2029]*[-*+]\s+\[[ xX]\]\s+(?:T\d{3,}|TXXX)\b/m.test(text)) return 'speckit';
  if (/^[^\S\n\r\u2028\u2029]*[-*+]\s+\[[ xX]\](?:\\?\*)?\s+\d+(?:\.\d+)*\.?\s/m.test(text) && /_Requirements?:/i.test(text)) return 'kiro';
  if (checkbox.test(text)) return 'checklist';
  return undefined;
}

/**
 * Imports the task file `path` (issue 31): reads it in its format (`options.format`, else
 * sniffed) and makes its plan (`tasksToPlan`). A file of old Mac line endings (`hasOldMacLineEndings`), in no known
 * format, with no task, or with more than `maxImportedTasks` is a problem that says so; reading costs time linear in
 * the text, and the plan is bounded by the cap.
 */
export function importTaskFile(path: string, text: string, options: ImportTaskFileOptions): ImportedTaskFile {
  // Read as one line, three tasks were one step holding the others, and the run completed with only the first ticked (attack).
  if (hasOldMacLineEndings(text)) return { ok: false, problems: [`${oldMacLineEndingsProblem(path)} and import it again.`] };
  const format = options.format ?? sniffTaskFormat(path, text);
  if (format === undefined) {
    return {
      ok: false,
      problems: [
        `${path} is in none of the task formats read (${Object.values(interopFormatNames).join(', ')}): it has no checkbox task, numbered plan step or todo.`,
      ],
    };
  }
  // A trial's --tick on a Cursor plan started, and each step then warned that the file had no checkbox for its task.
  if (options.tick === true && !tickableFormats[format]) {
    return {
      ok: false,
      problems: [
        `${path} is a ${interopFormatNames[format]}, which has no checkboxes to tick; run it without ticking, and mark its tasks done in ${format === 'cursor' ? 'Cursor' : 'Copilot'}.`,
      ],
    };
  }
  const document = interopCodecs[format].read(text, path);
  if (document.tasks.length === 0) {
    return {
      ok: false,
      problems: [`${path} holds no task of a ${interopFormatNames[format]}${document.problem !== undefined ? `: ${document.problem}` : ''}.`],
    };
  }
  if (document.tasks.length > maxImportedTasks) {
    return {
      ok: false,
      problems: [
        `${path} holds ${document.tasks.length.toLocaleString('en-US')} tasks, more than the ${maxImportedTasks.toLocaleString('en-US')} one plan is made of; split it into smaller task files and import each.`,
      ],
    };
  }
  const { plan, warnings } = tasksToPlan(document, {
    file: path,
    model: options.model,
    layout: interopCodecs[format].layout,
    ...(options.tick === true ? { tick: true } : {}),
    ...(options.createdAt !== undefined ? { createdAt: options.createdAt } : {}),
  });
  const origins: Record<string, number> = {};
  plan.steps.forEach((step, index) => {
    origins[step.id] = document.tasks[index]!.line;
  });
  return { ok: true, format, plan, origins, notes: document.notes.filter((note) => note.text.trim() !== '' && note.section !== true), warnings };
}

/**
 * The text of `plan` as a file of `format`. The steps in `done` (those a run of the plan completed) are ticked, as a
 * step skipped as done is, and nothing waits for them any more (as for a ticked task read back), so the file says
 * what is left to do. A Spec Kit, Kiro or checklist file imported and exported to its format unedited keeps its layout
 * (`writeMarkdownTasks`) and its tasks' own marks (`planToTasks`).
 */
export function exportTaskFile(plan: Plan, format: InteropFormat, done: ReadonlySet<string> = new Set()): string {
  const ticked =
    done.size === 0
      ? plan
      : {
          ...plan,
          steps: plan.steps.map((step) => ({
            ...step,
            dependsOn: step.dependsOn.filter((id) => !done.has(id)),
            ...(done.has(step.id) ? { skipped: true } : {}),
          })),
        };
  return interopCodecs[format].write(ticked);
}

/**
 * The steps of `plan` that `run` completed, to tick in an export (`exportTaskFile`); none when `run` is not a run of
 * that plan (`isRunOf`: by default that very plan, its id; `ranTasksOf` for a task file imported again): only such a
 * run says which of its steps are done.
 */
export function stepsDoneIn(
  plan: Plan,
  run: Pick<RunState, 'plan' | 'steps'> | undefined,
  isRunOf: (plan: Plan, ran: Plan) => boolean = (shown, ran) => ran.id === shown.id,
): Set<string> {
  if (run?.plan === undefined || !isRunOf(plan, run.plan)) return new Set();
  return new Set(plan.steps.filter((step) => run.steps[step.id]?.status === 'completed').map((step) => step.id));
}

/**
 * Whether `ran` (a run's plan) is `plan` as a task list: the very plan (its id), or the same tasks, each step's id and title
 * in the same order. A task file imported again has another id once a run ticked it (a ticked task is done in the file)
 * or was run with `--tick` (each input asks for its tick), and its run still says which of its tasks are done.
 */
export function ranTasksOf(plan: Plan, ran: Plan): boolean {
  if (ran.id === plan.id) return true;
  const same = (step: Plan['steps'][number], index: number): boolean => step.id === plan.steps[index]!.id && step.title === plan.steps[index]!.title;
  return ran.steps.length === plan.steps.length && ran.steps.every(same);
}

/**
 * The name the other tool gives a file of `format`, proposed when saving an export of `plan`: `tasks.md` (Spec Kit,
 * Kiro, and a checklist, which "Plan from this file" is offered on by that name), `<title>.plan.md` for Cursor,
 * `plan-<title>.prompt.md` for Copilot, the title in a few words as `planFileName` makes them.
 */
export function exportFileName(plan: Plan, format: InteropFormat): string {
  const title = planFileName(plan.objective).replace(/\.plan\.json$/, '');
  return format === 'cursor' ? `${title}.plan.md` : format === 'copilot' ? `plan-${title}.prompt.md` : 'tasks.md';
}
