import * as vscode from 'vscode';
import type { RunState } from '../core/engine/runEvents';
import type { RunResult } from '../core/engine/runOptions';
import { critiquePlan } from '../core/plan/critiquePlan';
import { planFileName, planFileProblemsMessage, planFileText, readPlanFile, withoutAddedExtension } from '../core/plan/planFile';
import type { Plan } from '../core/plan/planSchema';
import type { Tool } from '../core/tools/tool';
import { planMarkdown } from '../core/view/planMarkdown';
import type { PlanReview } from './planReview';
import { errorMessage } from '../shared/errorMessage';
import { tellRunInProgress } from './runInProgress';

/** The editor's dialogs, files and notifications that the plan-file commands use (tests give their own). */
export interface PlanFileUi {
  /** Asks where to save, proposing the file `fileName` in `folder` (else the first workspace folder); `undefined` when cancelled. */
  saveLocation(fileName: string, folder?: vscode.Uri): Promise<vscode.Uri | undefined>;
  writeFile(uri: vscode.Uri, text: string): Promise<void>;
  /** Opens the file `uri` in an editor. */
  openFile(uri: vscode.Uri): Promise<void>;
  /** Opens a new, unsaved Markdown document holding `text`. */
  openMarkdown(text: string): Promise<void>;
  info(message: string): void;
  error(message: string): void;
}

/** What the plan-file commands work with (wired in `activate`). */
export interface PlanFileDeps {
  /** The plan a command saves or exports: the plan panel's when it is in front, else the Plan view's. */
  plan: () => Plan | undefined;
  /** The run shown with `plan` (the panel's or the Plan view's): its statuses go into the checklist when it runs `plan`. */
  run: () => RunState | undefined | Promise<RunState | undefined>;
  tools: () => readonly Tool[];
  /** Whether the workspace is trusted now: the review's critique flags the steps Restricted Mode refuses. */
  trusted: () => boolean;
  /** Shows `plan` in the Plan view (before it runs). */
  showPlan: (plan: Plan) => void;
  /** Runs `plan`; resolves when the run ends, rejects when it cannot start. */
  start: (plan: Plan) => Promise<RunResult>;
  /** The review before a run, as `taskPlanner.review.show` chooses: the plan panel or a QuickPick. */
  review: () => PlanReview;
  /** The workspace folder `plan` is for, where Save proposes the file; `undefined`: the first folder. */
  folderOf?: (plan: Plan) => vscode.Uri | undefined;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error'>;
  ui: PlanFileUi;
}

const noPlan = (): string => vscode.l10n.t('Task Planner: there is no plan to save or export yet. Plan a task first, or open a *.plan.json file.');

/**
 * "Save plan as file": asks where (proposing `<workspace>/<objective-as-words>.plan.json`),
 * writes the current plan version as indented JSON, then opens the file. Resolves to where
 * it was saved, `undefined` when there was no plan or the user cancelled.
 */
export async function savePlanAsFile(deps: PlanFileDeps): Promise<vscode.Uri | undefined> {
  const plan = deps.plan();
  if (!plan) {
    deps.ui.info(noPlan());
    return undefined;
  }
  const chosen = await deps.ui.saveLocation(planFileName(plan.objective), deps.folderOf?.(plan));
  if (!chosen) return undefined;
  const path = withoutAddedExtension(chosen.path);
  const target = path === chosen.path ? chosen : chosen.with({ path });
  try {
    await deps.ui.writeFile(target, planFileText(plan));
  } catch (error) {
    deps.ui.error(vscode.l10n.t('Task Planner: could not save the plan to {0}: {1}', target.fsPath, errorMessage(error)));
    return undefined;
  }
  deps.log.info(`Saved plan ${plan.id} version ${plan.version} to ${target.fsPath}`);
  if (!/\.plan\.json$/i.test(target.path)) {
    deps.ui.info(
      vscode.l10n.t('Task Planner: saved. Name a plan file *.plan.json to get completion and checks while editing it, and "Run plan file" in its title bar.'),
    );
  }
  await deps.ui.openFile(target);
  return target;
}

/**
 * "Export as Markdown checklist": the current plan as a checklist (statuses from the run
 * when the editor's run is of this plan) in a new, unsaved Markdown document. Resolves to
 * the text, `undefined` when there was no plan.
 */
export async function exportPlanMarkdown(deps: PlanFileDeps): Promise<string | undefined> {
  const plan = deps.plan();
  if (!plan) {
    deps.ui.info(noPlan());
    return undefined;
  }
  const run = await deps.run();
  const ofPlan = run?.plan?.id === plan.id ? run : undefined;
  const text = planMarkdown(ofPlan?.plan ?? plan, ofPlan);
  await deps.ui.openMarkdown(text);
  return text;
}

/** A `*.plan.json` document as the commands read it: its name for messages and its current text (unsaved edits included). */
export interface PlanFileDocument {
  name: string;
  text: string;
}

/**
 * Reads `document` as a plan that can run (its warnings logged), or says every problem
 * (parse errors, else validation errors) in one error message and the log; `undefined` then.
 */
function readingOf(document: PlanFileDocument, deps: PlanFileDeps): { plan: Plan; warnings: string[] } | undefined {
  const reading = readPlanFile(document.text, { tools: deps.tools().map((tool) => tool.name) });
  if (!reading.ok) {
    for (const problem of reading.problems) deps.log.warn(`${document.name}: ${problem}`);
    deps.ui.error(vscode.l10n.t('Task Planner: {0}', planFileProblemsMessage(document.name, reading.problems)));
    return undefined;
  }
  for (const warning of reading.warnings) deps.log.warn(`${document.name}: ${warning}`);
  return reading;
}

/** Starts `plan` and reports a run that cannot start; the run's promise (settled either way). */
function startRun(plan: Plan, deps: PlanFileDeps): Promise<RunResult | undefined> {
  deps.showPlan(plan);
  return deps.start(plan).catch((error: unknown) => {
    const message = errorMessage(error);
    deps.log.error(`Run failed to start: ${message}`);
    if (!tellRunInProgress(error)) deps.ui.error(vscode.l10n.t('Task Planner: {0}', message));
    return undefined;
  });
}

/**
 * "Run plan file": runs the plan in `document` as it is now (unsaved edits included) with
 * the usual approvals, after the same checks as `task-planner run`. When reading it ignored
 * something (a dropped check, a misspelt field), it goes to the review with what was
 * ignored instead, and runs only if started there. Resolves to the run's promise,
 * `undefined` when the file is not a plan that can run.
 */
export function runPlanFile(document: PlanFileDocument, deps: PlanFileDeps): { run: Promise<RunResult | undefined> } | undefined {
  const reading = readingOf(document, deps);
  if (!reading) return undefined;
  if (reading.warnings.length > 0) {
    deps.log.info(`${document.name}: reading it ignored ${reading.warnings.length} thing(s), so it opens in the review before it runs.`);
    return { run: reviewReading(document, reading, deps).then((reviewed) => reviewed.run) };
  }
  const { plan } = reading;
  deps.log.info(`Running ${plan.steps.length} step(s) from ${document.name}: ${plan.objective}`);
  return { run: startRun(plan, deps) };
}

/**
 * "Review plan file": the plan in `document` (unsaved edits included) goes to the review
 * "Plan task" uses, with its critique and what reading it ignored; the plan the user starts
 * there (maybe edited) runs.
 * Resolves to the run, or `{}` when the file is not a plan or the review was cancelled.
 */
export async function reviewPlanFile(document: PlanFileDocument, deps: PlanFileDeps): Promise<{ plan?: Plan; run?: Promise<RunResult | undefined> }> {
  const reading = readingOf(document, deps);
  return reading ? reviewReading(document, reading, deps) : {};
}

async function reviewReading(
  document: PlanFileDocument,
  { plan, warnings }: { plan: Plan; warnings: string[] },
  deps: PlanFileDeps,
): Promise<{ plan?: Plan; run?: Promise<RunResult | undefined> }> {
  deps.showPlan(plan);
  const critique = critiquePlan(plan, { tools: deps.tools().map((tool) => tool.name), trusted: deps.trusted() });
  const accepted = await deps.review()(plan, critique, warnings);
  if (!accepted) {
    deps.log.info(`The plan from ${document.name} was not started.`);
    return {};
  }
  return { plan: accepted, run: startRun(accepted, deps) };
}
