import * as vscode from 'vscode';
import type { RunState } from '../core/engine/runEvents';
import type { RunResult } from '../core/engine/runOptions';
import { exportFileName, exportTaskFile, importTaskFile, sniffTaskFormat, stepsDoneIn } from '../core/interop/importTaskFile';
import { readOrigin } from '../core/interop/sourceOrigin';
import { interopFormatNames, interopFormats, tickableFormats, type InteropFormat } from '../core/interop/interopFormats';
import { critiquePlan } from '../core/plan/critiquePlan';
import type { Plan } from '../core/plan/planSchema';
import type { Tool } from '../core/tools/tool';
import { errorMessage } from '../shared/errorMessage';
import type { PlanReview } from './planReview';
import { shownLine, withoutLinks } from './shownText';
import { showError, showInformation, showWarning } from './notifications';
import { tellRunInProgress } from './runInProgress';

/** A text from the file (its name, a task's title) as a notification shows it: one bounded line, no control acting, no link. */
const shown = (text: string): string => withoutLinks(shownLine(text, 1_000));

/** Largest task file read, in characters (a file past it is surely not a task list). */
export const maxTaskFileChars = 10_000_000;

/** A task file as "Plan from file" reads it: where it is, its text now (unsaved edits included), and its place in the workspace. */
export interface TaskFileSource {
  /** The name the review and each step's origin show: workspace-relative, else the file's name. */
  name: string;
  text: string;
  /** True when the file is inside the workspace folder the plan runs in (only then can its checkboxes be ticked). */
  inWorkspace: boolean;
}

/** What "Plan from file" and "Export plan for another tool" work with (wired in `activate`; tests give their own). */
export interface TaskFileDeps {
  review: () => PlanReview;
  tools: () => readonly Tool[];
  trusted: () => boolean;
  /** True when a model runs agent steps; else each task becomes a step the user does. */
  model: () => boolean;
  /** `taskPlanner.taskFiles.tickCheckboxes`: tick each step's checkbox in the file as it completes. */
  tick: () => boolean;
  showPlan: (plan: Plan) => void;
  start: (plan: Plan) => Promise<RunResult>;
  /** The run shown with the plan an export writes (the panel's or the Plan view's), if any: the steps it completed are ticked. */
  run: () => RunState | undefined | Promise<RunState | undefined>;
  /** The time now, in ms since the epoch: when an imported plan was made (its `createdAt`). */
  now: () => number;
  /** The workspace folder a plan is for, where an export is proposed; `undefined`: the first folder. */
  folderOf?: (plan: Plan) => vscode.Uri | undefined;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error'>;
  ui: {
    info(message: string): void;
    warn(message: string): void;
    error(message: string): void;
    /** Asks which format to export to; `undefined` when cancelled. */
    pickFormat(): Promise<InteropFormat | undefined>;
    /** Asks where to save the export, proposing the file `fileName` in `folder` (else the first workspace folder); `undefined` when cancelled. */
    saveLocation(fileName: string, folder?: vscode.Uri): Promise<vscode.Uri | undefined>;
    writeFile(uri: vscode.Uri, text: string): Promise<void>;
    openFile(uri: vscode.Uri): Promise<void>;
  };
}

/**
 * "Plan from file": reads `source` as a task file of another tool (Spec Kit, Kiro, Cursor,
 * Copilot, a checklist), shows its plan in the review with what came from where (each
 * step's input ends with the file and line it came from; the lines that are no task are
 * kept in the objective, and the review's note counts them), and runs the plan the user
 * starts there. When the user turned ticking on and the file is in the workspace, each step
 * is marked to tick its checkbox as it completes (asked like any file change). Resolves to
 * the run, or `{}` when the file holds no tasks or the review was cancelled.
 */
export async function planFromTaskFile(source: TaskFileSource, deps: TaskFileDeps): Promise<{ plan?: Plan; run?: Promise<RunResult | undefined> }> {
  if (source.text.length > maxTaskFileChars) {
    deps.ui.error(
      vscode.l10n.t(
        'Task Planner: {0} is too large to be a task list ({1} characters; at most {2}).',
        shown(source.name),
        source.text.length,
        maxTaskFileChars,
      ),
    );
    return {};
  }
  // Ticking is the user's setting for every task file; a Cursor or Copilot plan has no checkbox to tick.
  const sniffed = sniffTaskFormat(source.name, source.text);
  const tick = deps.tick() && source.inWorkspace && sniffed !== undefined && tickableFormats[sniffed];
  const imported = importTaskFile(source.name, source.text, { model: deps.model(), tick, createdAt: new Date(deps.now()).toISOString() });
  if (!imported.ok) {
    for (const problem of imported.problems) deps.log.warn(problem);
    deps.ui.error(vscode.l10n.t('Task Planner: {0}', shown(imported.problems.join(' '))));
    return {};
  }
  const { plan, format, notes, warnings } = imported;
  const steps = plan.steps.length;
  const lines = source.text.replace(/(?:\r\n|\r|\n)$/, '').split(/\r\n|\r|\n/).length;
  // Said as it was read: a newcomer's checklist of headings and blank lines was told "Every line of the file is a task."
  const sections = plan.steps.some((step) => (readOrigin(step.input ?? '').origin?.section.length ?? 0) > 0);
  const told = [
    [
      vscode.l10n.t(
        'From {0} ({1}): {2} from {3}; each step ends with the file and line it came from.',
        source.name,
        interopFormatNames[format],
        steps === 1 ? vscode.l10n.t('1 task') : vscode.l10n.t('{0} tasks', steps),
        lines === 1 ? vscode.l10n.t('1 line') : vscode.l10n.t('{0} lines', lines),
      ),
      sections ? vscode.l10n.t('Headings became sections.') : undefined,
      notes.length === 0
        ? undefined
        : notes.length === 1
          ? vscode.l10n.t('1 other line of the file is kept in the objective as written.')
          : vscode.l10n.t('{0} other lines of the file are kept in the objective as written.', notes.length),
    ]
      .filter((part): part is string => part !== undefined)
      .join(' '),
    tick
      ? vscode.l10n.t('As each step completes, its checkbox in {0} is ticked: a file change you approve like any other.', source.name)
      : deps.tick()
        ? vscode.l10n.t('The checkboxes of {0} are not ticked: the file is outside the workspace.', source.name)
        : undefined,
    ...warnings,
  ].filter((line): line is string => line !== undefined);
  deps.log.info(`Imported ${steps} step(s) from ${source.name} (${format})`);
  for (const warning of warnings) deps.log.warn(`${source.name}: ${warning}`);
  deps.showPlan(plan);
  const critique = critiquePlan(plan, { tools: deps.tools().map((tool) => tool.name), trusted: deps.trusted() });
  const accepted = await deps.review()(plan, critique, told);
  if (!accepted) {
    deps.log.info(`The plan from ${source.name} was not started.`);
    return {};
  }
  deps.showPlan(accepted);
  const run = deps.start(accepted).then(
    (result) => {
      // A tick that could not be made is the step's warning, never its failure: said here, where the user looks.
      const unticked = result.metadata.warnings.filter((warning) => warning.includes(source.name));
      if (tick && unticked.length > 0) {
        deps.ui.warn(vscode.l10n.t('Task Planner: not every checkbox of {0} was ticked. {1}', shown(source.name), shown(unticked.join(' '))));
      }
      return result;
    },
    (error: unknown) => {
      const message = errorMessage(error);
      deps.log.error(`Run failed to start: ${message}`);
      if (!tellRunInProgress(error)) deps.ui.error(vscode.l10n.t('Task Planner: {0}', message));
      return undefined;
    },
  );
  return { plan: accepted, run };
}

/** Whether "Plan from this file" is offered on the file `path` holding `text`: it is in a task format other than a bare checklist, which any note may be. */
export function offersPlanFromFile(path: string, text: string): boolean {
  const format = sniffTaskFormat(path, text.slice(0, maxTaskFileChars));
  return format !== undefined && (format !== 'checklist' || /(?:^|\/)tasks\.md$/i.test(path));
}

/**
 * "Export plan for another tool": `plan` written in the format the user picks (Spec Kit, Kiro,
 * Cursor, Copilot, a checklist), the steps the run shown with it completed ticked, saved where
 * the user chooses (proposing the format's usual name: `tasks.md`…) and opened. Resolves to the
 * text, `undefined` when there was no plan or the user cancelled.
 */
export async function exportPlanAsTaskFile(plan: Plan | undefined, deps: Pick<TaskFileDeps, 'ui' | 'run' | 'log' | 'folderOf'>): Promise<string | undefined> {
  if (!plan) {
    deps.ui.info(vscode.l10n.t('Task Planner: there is no plan to export yet. Plan a task first, or open a plan file.'));
    return undefined;
  }
  const format = await deps.ui.pickFormat();
  if (format === undefined) return undefined;
  const text = exportTaskFile(plan, format, stepsDoneIn(plan, await deps.run()));
  // Saved under the name the other tool looks for: an unsaved document was offered as "# Make `notes search`.md".
  const target = await deps.ui.saveLocation(exportFileName(plan, format), deps.folderOf?.(plan));
  if (!target) return undefined;
  try {
    await deps.ui.writeFile(target, text);
  } catch (error) {
    deps.ui.error(vscode.l10n.t('Task Planner: could not save the plan to {0}: {1}', target.fsPath, errorMessage(error)));
    return undefined;
  }
  deps.log.info(`Exported plan ${plan.id} as ${format} to ${target.fsPath}`);
  await deps.ui.openFile(target);
  return text;
}

/** The editor's own dialogs for the task-file commands. */
export const vscodeTaskFileUi: TaskFileDeps['ui'] = {
  info: (message) => void showInformation(message),
  warn: (message) => void showWarning(message),
  error: (message) => void showError(message),
  pickFormat: async () =>
    (
      await vscode.window.showQuickPick(
        interopFormats.map((format) => ({ label: interopFormatNames[format], format })),
        { title: vscode.l10n.t('Export the plan as'), placeHolder: vscode.l10n.t('The format of the task file') },
      )
    )?.format,
  saveLocation: async (fileName, planFolder) => {
    const folder = planFolder ?? vscode.workspace.workspaceFolders?.[0]?.uri;
    return await vscode.window.showSaveDialog({
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, fileName) } : {}),
      filters: { Markdown: ['md'] },
      title: vscode.l10n.t('Export plan for another tool'),
      saveLabel: vscode.l10n.t('Export'),
    });
  },
  writeFile: async (uri, text) => {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  },
  openFile: async (uri) => {
    await vscode.window.showTextDocument(uri);
  },
};
