import { realpathSync } from 'node:fs';
import { basename, isAbsolute, relative, resolve } from 'node:path';
import { exportTaskFile, importTaskFile, ranTasksOf, sniffTaskFormat, stepsDoneIn, type ImportedTaskFile } from '../core/interop/importTaskFile';
import { replayJournal } from '../core/engine/replayJournal';
import type { RunState } from '../core/engine/runEvents';
import { createFileRunStore } from '../node/fileRunStore';
import { interopFormatNames, interopFormats, isInteropFormat, type InteropFormat } from '../core/interop/interopFormats';
import type { Plan } from '../core/plan/planSchema';
import { planFileText } from '../core/plan/planFile';
import { readBoundedBytes } from '../node/readBoundedText';
import { isUtf8 } from '../core/tools/fileVersions';
import { timerClock } from '../node/timerClock';
import { cannotRead, type CliIo, loadListedJournal, loadPlanFile, maxPlanFileBytes, requireListedRun, runsDirectory, UsageError, warningLine } from './cliIo';
import { shortLine } from './shortLine';
import { writeOutputFile } from './outputFile';
import { terminalSafe } from './terminalSafe';
import { leadsOutside } from '../shared/leadsOutside';
import { readOrigin } from '../core/interop/sourceOrigin';
import { checkReadBack } from '../core/interop/tasksToPlan';
import { toolCallReadBack } from '../core/interop/planToTasks';
import { oneLine } from '../core/text/oneLine';

/** What `import` and `export` are told on the command line. */
export interface TaskFileOptions {
  /** `--format`: the task format, when not sniffed. */
  format: string | undefined;
  /** `--out`: the file written instead of standard output. */
  out: string | undefined;
  /** True when a model is configured: tasks become agent steps, else a person's. */
  model: boolean;
}

/** The `--format` value as a format; a `UsageError` naming the formats for anything else. */
export function parseTaskFormat(text: string | undefined): InteropFormat | undefined {
  if (text === undefined || isInteropFormat(text)) return text;
  throw new UsageError(`--format must be one of ${interopFormats.join(', ')}; got "${text}".`);
}

/**
 * Whether `run` reads `file` as another tool's task file rather than a plan file: not
 * `.json`, and its name or content in one of the formats.
 */
export function isTaskFile(file: string, text: string): boolean {
  return !/\.json$/i.test(file) && sniffTaskFormat(file, text) !== undefined;
}

/**
 * Reads the task file `file` as a plan (`importTaskFile`); a `UsageError` naming the file and each problem.
 * With `tickIn` (a workspace folder) each step is marked to tick its checkbox, and the steps name the file by
 * its path in that workspace, where the tools tick it, confined like any change; a file outside it is refused.
 */
export async function importTaskFileAt(
  file: string,
  format: InteropFormat | undefined,
  model: boolean,
  options: { text?: string; tickIn?: string } = {},
): Promise<ImportedTaskFile & { ok: true }> {
  const text = options.text ?? (await readTextFile(file));
  // The path as given decides the format (.kiro/specs/, .cursor/plans/); the steps name it as shown.
  const sniffed = format ?? sniffTaskFormat(file, text);
  const imported = importTaskFile(options.tickIn === undefined ? displayName(file) : workspacePath(file, options.tickIn), text, {
    model,
    ...(options.tickIn === undefined ? {} : { tick: true }),
    ...(sniffed !== undefined ? { format: sniffed } : {}),
    createdAt: new Date(timerClock.now()).toISOString(),
  });
  if (!imported.ok) throw new UsageError(imported.problems.join('\n'));
  return imported;
}

/** The task file whose checkboxes the steps of `plan` tick as they complete (`run --tick`), if they do. */
function tickedFile(plan: Plan): string | undefined {
  return plan.steps.map((step) => (step.input === undefined ? undefined : readOrigin(step.input).origin)).find((origin) => origin?.tick)?.file;
}

/** `options` with `allowTicks` (`CarriedOptions`): its `--allow-file-changes` carried on when the steps of `plan` tick checkboxes. */
export function withTickConsent<Options extends { allowFileChanges?: boolean | undefined }>(options: Options, plan: Plan): Options & { allowTicks: boolean } {
  return { ...options, allowTicks: options.allowFileChanges === true && tickedFile(plan) !== undefined };
}

/**
 * Refuses a run whose steps tick their checkboxes (`run --tick`, its resume and rerun) when nothing could approve the ticks: a
 * tick is a file change and asks first, and without a terminal, `--yes` or `--allow-file-changes` it was dropped, the run
 * "completed" with every box still empty (a newcomer's run, 2026-12-01). A `UsageError`; nothing is started.
 */
export function requireTickApprovals(plan: Plan, io: CliIo, options: { yes: boolean; allowFileChanges?: boolean | undefined }): void {
  if (io.interactive || options.yes || options.allowFileChanges === true) return;
  const file = tickedFile(plan);
  if (file === undefined) return;
  throw new UsageError(
    `Each step ticks its checkbox in ${file} when it is done, and a tick is a file change that asks first; without a terminal nothing can ask. ` +
      'Run it in a terminal, or add --allow-file-changes to make the ticks (and the steps\' own file changes) without asking. Nothing was started.',
  );
}

/**
 * `file` relative to the workspace `root`, with forward slashes; a `UsageError` when it lies outside, also through a link
 * (a tasks.md linked out of the workspace started, and every tick was then refused and lost: attack).
 */
function workspacePath(file: string, root: string): string {
  const inWorkspace = relative(resolve(root), resolve(file));
  if (inWorkspace === '' || leadsOutside(inWorkspace) || isAbsolute(inWorkspace)) {
    throw new UsageError(
      `--tick changes ${file}, which is outside the workspace ${root}; move it in, or pass --workspace with a folder that holds it. Nothing was started.`,
    );
  }
  const leads = relative(realOrSelf(root), realOrSelf(file));
  if (leadsOutside(leads) || isAbsolute(leads)) {
    throw new UsageError(`--tick changes ${file}, which leads outside the workspace ${root} through a link; tick a file of it. Nothing was started.`);
  }
  return inWorkspace.replace(/\\/g, '/');
}

/** Where `path` leads through links, or the path itself when it cannot be resolved (it is then judged as written). */
function realOrSelf(path: string): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    return resolve(path);
  }
}

/**
 * The plan `run FILE` executes: a task file (Spec Kit, Kiro, Cursor, Copilot, a checklist)
 * imported, with what came from where on the error stream; else the plan file. `tickIn`: see `importTaskFileAt`.
 */
export async function loadRunnablePlan(
  file: string,
  model: boolean,
  io: CliIo,
  options: { tickIn?: string } = {},
): Promise<{ plan: Plan; warnings: string[] }> {
  const text = /\.json$/i.test(file) ? undefined : await readTextFile(file);
  if (text === undefined || !isTaskFile(file, text)) {
    if (options.tickIn !== undefined) {
      throw new UsageError(`--tick ticks the checkboxes of a task file (Spec Kit, Kiro, a checklist…); ${file} is a plan file. Nothing was started.`);
    }
    return loadPlanFile(file);
  }
  const imported = await importTaskFileAt(file, undefined, model, { text, ...options });
  io.err(importReview(file, imported));
  return { plan: imported.plan, warnings: imported.warnings };
}

/** `import FILE [--format F] [--out plan.json]`: the plan of a task file, as JSON, with what came from where on the error stream. */
export async function importCommand(file: string, options: TaskFileOptions, io: CliIo): Promise<number> {
  const imported = await importTaskFileAt(file, parseTaskFormat(options.format), options.model);
  io.err(importReview(file, imported));
  await emit(planFileText(imported.plan), options.out, io);
  return 0;
}

/** The run whose completed steps an export ticks (`--run`), in the workspace whose journals hold it. */
export interface ExportRun {
  runId: string;
  workspace: string;
}

/**
 * `export PLAN --format F [--out FILE] [--run RUN]`: a plan file written as a task file of format F; with `--run`, the
 * steps that run of the plan completed ticked (as the editor's export ticks those of the run it shows). A run of
 * another plan is bad input: nothing is written.
 */
export async function exportCommand(file: string, options: TaskFileOptions, io: CliIo, run?: ExportRun): Promise<number> {
  const format = parseTaskFormat(options.format);
  if (format === undefined) throw new UsageError(`export needs --format, one of ${interopFormats.join(', ')}.`);
  // A task file is read as `run` reads it (a newcomer's `export tasks.md` read the Markdown as a plan file: its heading became a task).
  const { plan } = await loadRunnablePlan(file, options.model, io);
  const done = run === undefined ? new Set<string>() : stepsDoneIn(plan, await runOfPlan(plan, file, run), ranTasksOf);
  await emit(exportTaskFile(plan, format, done), options.out, io, run === undefined ? [] : [run.workspace]);
  if (run !== undefined) io.err(`Ticked ${done.size} of ${plan.steps.length} tasks: the steps run ${run.runId} completed.`);
  const lost = exportLosses(plan, format);
  // A newcomer's export, imported back, ran as tasks to do by hand, and nothing had said so.
  if (lost.length > 0) {
    io.err(
      `${interopFormatNames[format]} keeps each step's title, order, dependencies and ticks, not what runs it: left out ${lost.join(', ')}. ` +
        'Imported back, those steps are yours to do (an agent\'s with a model); keep the plan file to run them as they are.',
    );
  }
  return 0;
}

/** The state of run `run.runId`, which must be a run of `plan` (read from `file`). */
async function runOfPlan(plan: Plan, file: string, run: ExportRun): Promise<RunState> {
  const store = createFileRunStore(runsDirectory(run.workspace));
  await requireListedRun(store, run.runId, run.workspace);
  const state = replayJournal(run.runId, await loadListedJournal(store, run.runId));
  if (state.plan === undefined || !ranTasksOf(plan, state.plan)) {
    throw new UsageError(
      terminalSafe(
        `Run ${run.runId} ran another plan ("${shortLine(state.plan?.objective ?? '', 80)}"), not the one in ${displayName(file)}: nothing was written. ` +
          'Give a run of this plan (task-planner runs lists them), or export without --run.',
      ),
    );
  }
  return state;
}

/**
 * What of `plan` no task list of `format` holds, counted in words ("2 tool calls with their arguments", "1 check");
 * empty when nothing. A format with details says each tool call in a line of its task, as text.
 */
function exportLosses(plan: Plan, format: InteropFormat): string[] {
  const counted = (count: number, one: string, many: string): string[] => (count === 0 ? [] : [`${count} ${count === 1 ? one : many}`]);
  const steps = plan.steps;
  const said = format === 'cursor' ? '' : ' (said in a line of the task, as text)';
  return [
    // A task "Run `npm test`" comes back as the command it runs (a newcomer's export of one was said to be theirs to do).
    ...counted(
      steps.filter((step) => step.kind === 'tool' && !toolCallReadBack(step)).length,
      `tool call with its arguments${said}`,
      `tool calls with their arguments${said}`,
    ),
    // A file_exists check of a file the task says to create comes back with the task when it is imported again.
    ...counted(steps.reduce((sum, step) => sum + (step.checks ?? []).filter((check) => !checkReadBack(step, check)).length, 0), 'check', 'checks'),
    ...counted(steps.filter((step) => step.verification !== undefined).length, 'verification', 'verifications'),
    ...counted(steps.filter((step) => step.when !== undefined).length, 'condition (when)', 'conditions (when)'),
  ];
}

/** What the import made of `file`, step by step with the line it came from, and the lines kept as notes. */
export function importReview(file: string, imported: ImportedTaskFile & { ok: true }): string {
  const lines = [`${file}: ${interopFormatNames[imported.format]}, ${imported.plan.steps.length} step${imported.plan.steps.length === 1 ? '' : 's'}`];
  for (const step of imported.plan.steps) {
    const after = step.dependsOn.length > 0 ? ` after ${step.dependsOn.join(', ')}` : '';
    const mark = step.skipped === true ? ' (done in the source file: skipped)' : step.critical ? '' : ' (optional)';
    const runs = step.kind === 'tool' ? ` (tool ${step.tool ?? ''})` : '';
    // Bounded: a title of 2 million characters was printed whole, five times (58 MB of a job's log: attack).
    lines.push(`  line ${imported.origins[step.id]}: ${step.id} ${oneLine(step.title, 200)}${after}${mark}${runs}`);
  }
  if (imported.notes.length > 0) {
    lines.push(
      `  kept in the objective as written: ${imported.notes.length} other line${imported.notes.length === 1 ? '' : 's'} (${lineRanges(imported.notes.map((note) => note.line))})`,
    );
  }
  for (const warning of imported.warnings) lines.push(`  warning: ${warningLine(warning)}`);
  return lines.join('\n');
}

function lineRanges(numbers: readonly number[]): string {
  const ranges: string[] = [];
  let start = numbers[0];
  let last = start;
  for (const number of [...numbers.slice(1), undefined]) {
    if (number !== undefined && last !== undefined && number === last + 1) {
      last = number;
      continue;
    }
    if (start !== undefined) ranges.push(start === last ? `line ${start}` : `lines ${start}-${last}`);
    start = number;
    last = number;
  }
  return ranges.join(', ');
}

async function emit(text: string, out: string | undefined, io: CliIo, roots: readonly string[] = []): Promise<void> {
  if (out === undefined) {
    io.out(text.trimEnd());
    return;
  }
  // A file of that name is replaced, and said to be (a newcomer overwrote a file of their own and was told "Wrote").
  const { replaced } = await writeOutputFile('--out', out, text, roots);
  io.err(replaced ? `Replaced ${out}, which was there before (its earlier content is gone).` : `Wrote ${out}.`);
}

async function readTextFile(file: string): Promise<string> {
  let bytes: Buffer | undefined;
  try {
    bytes = await readBoundedBytes(file, maxPlanFileBytes);
  } catch (error) {
    throw new UsageError(cannotRead(file, file, error));
  }
  if (bytes === undefined) throw new UsageError(`${file} is larger than ${maxPlanFileBytes} bytes, the most read; is it the right file?`);
  // Read as UTF-8 they were tasks of U+FFFD characters ("Run `echo ��t��`", a command not the one written) and ticks that
  // each failed, or, in UTF-16, "no checkbox task" (a trial).
  const utf16 = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  if (utf16 || !isUtf8(bytes)) {
    throw new UsageError(
      `${file} is ${utf16 ? 'UTF-16' : 'not UTF-8'} text${utf16 ? '' : ' (Latin-1 or another encoding?)'}: its tasks would be read with other characters than ` +
        'written, and its checkboxes could not be ticked. Save it as UTF-8 and try again. Nothing was started.',
    );
  }
  return bytes.toString('utf8');
}

/** The file's path as steps name it: relative to the current folder when inside it, else its name. */
function displayName(file: string): string {
  const path = relative(process.cwd(), resolve(file));
  return leadsOutside(path) || path === '' ? basename(file) : path.replace(/\\/g, '/');
}
