import * as vscode from 'vscode';
import type { RunResult } from '../core/engine/runOptions';
import type { Critique } from '../core/plan/critiquePlan';
import type { Plan } from '../core/plan/planSchema';
import type { PlannedRequest } from '../core/planner/planRequest';
import { errorMessage } from '../shared/errorMessage';
import { shownUsd } from '../shared/shownUsd';
import { collectAttachments } from './attachments';
import { loadRuntime } from './loadRuntime';
import { showError, showInformation, showWarning } from './notifications';
import { planningFolder } from './planningFolder';
import { withPlanningProgress } from './planningProgress';
import { planRequest } from './planRequest';
import type { PlanTaskDeps } from './planTaskDeps';
import { requestFromEditor, type RequestEditors } from './requestEditor';
import { tellRunInProgress } from './runInProgress';
import { shownLine } from './shownText';

/** Longest request accepted from the input box, in characters. */
const maxRequestLength = 20_000;

/** Options of one "Plan task". */
export interface PlanTaskOptions {
  /** The request; asked in an input box when absent. */
  request?: string;
  /** Files chosen in the explorer ("Plan task with these files"). */
  files?: readonly vscode.Uri[];
  /** Plans with the heuristic planner whatever model is set up ("Plan without a model"). */
  withoutModel?: boolean;
  /** The workspace folder to plan and run in; chosen as `chooseFolder` says when absent. */
  folder?: vscode.WorkspaceFolder;
  /** Asks what to do after planning failed; default: the error notification's buttons (tests answer it themselves). */
  afterFailure?: (message: string) => Promise<PlanningFailureChoice | undefined>;
  /**
   * Asks whether to review the plan of `objective`, which came after a later "Plan task" started (whose plan it would
   * replace in the review); default: a notification with "Show it" (tests answer it themselves).
   */
  whenOvertaken?: (objective: string) => Promise<boolean>;
  /**
   * Started from a notification's button ("Connected" after Set up a model, Show plan's "Plan task"): the request box waits
   * for that notification to close before it shows, since the closing notification gives the focus back to the editor.
   */
  fromNotification?: boolean;
}

/**
 * How long the request box waits, when a notification's button started Plan task, for that notification to close. VS
 * Code closes it after its button's answer reached the extension and focuses the editor as it goes: the box shown
 * before that lost the focus, and a newcomer's typing went nowhere until a click into the field.
 */
export const notificationCloseMs = 300;

/**
 * "Plan task" plannings started in this window so far: a planning that ends after a later one started asks before its
 * plan takes the review (a newcomer's second request, answered first, was replaced without a word by the first one's).
 */
let planningsStarted = 0;

/**
 * The options a caller of the command `taskPlanner.planTask` may give (a walkthrough's or a Markdown command link): only
 * `{ "withoutModel": true }`, which plans without a model; anything else plans as the command does without one.
 */
export function planTaskArgument(arg: unknown): Pick<PlanTaskOptions, 'withoutModel' | 'fromNotification'> {
  if (typeof arg !== 'object' || arg === null) return {};
  const given = arg as { withoutModel?: unknown; fromNotification?: unknown };
  return { ...(given.withoutModel === true ? { withoutModel: true } : {}), ...(given.fromNotification === true ? { fromNotification: true } : {}) };
}

/** What a planning failure offers. */
export type PlanningFailureChoice = 'Retry' | 'Set up a model' | 'Plan without a model';

/** What "Plan task" did: the plan (absent when cancelled or failed), its critique, and the run when started. */
export interface PlanTaskOutcome {
  plan?: Plan;
  critique?: Critique;
  run?: Promise<RunResult>;
  /** Why planning failed, as the user was told. */
  error?: string;
  /** After a failure: what the user's choice (Retry, Set up a model, Plan without a model) led to; `{}` when none. */
  followUp?: Promise<PlanTaskOutcome>;
}

/**
 * "Plan task": asks for the request, plans it with the configured model (VS Code LM,
 * OpenAI-compatible, or the heuristic planner) behind a cancellable progress
 * notification, shows the plan and its critique, lets the user review it, then runs it.
 */
export async function planTask(deps: PlanTaskDeps, options: PlanTaskOptions = {}): Promise<PlanTaskOutcome> {
  const where = options.folder ? { folder: options.folder } : await planningFolder(deps, options.files ?? []);
  if ('outcome' in where) return where.outcome;
  const folder = where.folder;
  const text = options.request ?? (await askRequest(deps.requests, folder ?? vscode.workspace.workspaceFolders?.[0], options.fromNotification === true));
  if (text === undefined || text.trim() === '') return {};
  const attachments = collectAttachments(text, options.files ?? []);
  let failure: string | undefined;
  const planning = ++planningsStarted;
  const planned = await withPlanningProgress(vscode.l10n.t('Task Planner: planning'), (progress) =>
    planRequest(deps, text, attachments, { ...progress, withoutModel: options.withoutModel === true, folder }),
  ).catch((error: unknown) => {
    failure = errorMessage(error);
    deps.log.error(`Planning failed: ${failure}`);
    return undefined;
  });
  if (failure !== undefined) {
    return { error: failure, followUp: afterPlanningFailure(deps, { ...options, request: text, ...(folder ? { folder } : {}) }, failure) };
  }
  if (!planned) return {};
  const { plan, critique } = planned;
  if (planning !== planningsStarted && !(await (options.whenOvertaken ?? askToShowOvertaken)(plan.objective))) {
    deps.log.info(`The plan for "${plan.objective.slice(0, 200)}" came after a later Plan task started: not shown.`);
    return { plan, critique };
  }
  if (folder) {
    deps.runs.planFor(plan.id, folder);
    deps.runs.useFolder(folder);
  }
  deps.log.info(`Planned ${plan.steps.length} step(s) for: ${plan.objective}. Critic: ${critique.summary}`);
  const warnings = [...planned.warnings, ...modelCritiqueNotes(planned, deps.log)];
  for (const warning of warnings) deps.log.warn(warning);
  deps.tree.setPlan(plan);
  await vscode.commands.executeCommand('taskPlanner.plan.focus');
  const accepted = await deps.review()(plan, critique, warnings);
  if (!accepted) {
    deps.log.info('The plan was not started.');
    return { plan, critique };
  }
  deps.tree.setPlan(accepted);
  if (folder) deps.runs.planFor(accepted.id, folder);
  const run = deps.runs.start(accepted, { folder, planOrigin: planned.origin });
  run.catch((error: unknown) => {
    const message = errorMessage(error);
    deps.log.error(`Run failed to start: ${message}`);
    if (!tellRunInProgress(error)) void showError(vscode.l10n.t('Task Planner: {0}', message));
  });
  return { plan: accepted, critique, run };
}

/**
 * After a planning failure: the error with Retry, Set up a model (then plans again when a
 * model answered) and Plan without a model, all with the same request. Resolves to what
 * the choice led to (`{}` when dismissed).
 */
async function afterPlanningFailure(deps: PlanTaskDeps, options: PlanTaskOptions, message: string): Promise<PlanTaskOutcome> {
  const choice = await (options.afterFailure ?? askAfterPlanningFailure)(message);
  if (choice === 'Retry') return planTask(deps, options);
  if (choice === 'Plan without a model') return planTask(deps, { ...options, withoutModel: true });
  if (choice === 'Set up a model') {
    const setUp = await vscode.commands.executeCommand<{ ok: boolean } | undefined>('taskPlanner.setUpModel');
    if (setUp?.ok) return planTask(deps, options);
  }
  return {};
}

/** The notification for a plan that came after a later "Plan task" started: whether the user chose to review it. */
async function askToShowOvertaken(objective: string): Promise<boolean> {
  const show = vscode.l10n.t('Show it');
  const picked = await showInformation(
    vscode.l10n.t(
      'Task Planner: the plan for "{0}" is ready, but you asked for another plan since, so it is not shown in place of that one.',
      shownLine(objective, 120),
    ),
    show,
  );
  return picked === show;
}

/** The error notification after a planning failure, its buttons in the user's language; the choice, `undefined` when dismissed. */
async function askAfterPlanningFailure(text: string): Promise<PlanningFailureChoice | undefined> {
  const labels: Record<PlanningFailureChoice, string> = {
    Retry: vscode.l10n.t('Retry'),
    'Set up a model': vscode.l10n.t('Set up a model'),
    'Plan without a model': vscode.l10n.t('Plan without a model'),
  };
  const picked = await showError(vscode.l10n.t('Task Planner: planning failed: {0}', text), ...Object.values(labels));
  return (Object.keys(labels) as PlanningFailureChoice[]).find((choice) => labels[choice] === picked);
}

/** The request box's example: with the project's own test command when it has one, else none. */
function requestExample(testCommand: readonly string[] | undefined): string {
  return testCommand
    ? vscode.l10n.t('e.g. Read README.md, then add a usage example, then run `{0}`', testCommand.join(' '))
    : vscode.l10n.t('e.g. Read README.md, then add a usage example');
}

/**
 * Asks for the request in an input box. Its button moves what was typed into a request
 * editor for a longer, multi-line request (planned from that editor's title); then, as
 * when the box is dismissed, there is nothing to plan now (`undefined`).
 */
async function askRequest(requests: RequestEditors, folder: vscode.WorkspaceFolder | undefined, fromNotification: boolean): Promise<string | undefined> {
  if (fromNotification) await new Promise((resolve) => setTimeout(resolve, notificationCloseMs));
  const box = vscode.window.createInputBox();
  box.title = vscode.l10n.t('Task Planner: Plan task');
  box.prompt = vscode.l10n.t(
    'Describe what you want done. Separate steps with "then". URLs and the current selection are attached. For a longer request with lines and lists, use the button on the right.',
  );
  box.placeholder = requestExample(undefined);
  // The example names the project's own test command once it is read (a Python project's is not `npm test`).
  if (folder) {
    const runtime = loadRuntime();
    void runtime.projectTestCommand(runtime.createVscodeWorkspaceFs(folder.uri)).then(
      (argv) => (box.placeholder = requestExample(argv)),
      () => undefined,
    );
  }
  box.ignoreFocusOut = true;
  const toEditor: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('go-to-file'),
    tooltip: vscode.l10n.t('Write a longer, multi-line request in an editor'),
  };
  box.buttons = [toEditor];
  const problem = (value: string): string | undefined =>
    value.trim() === ''
      ? vscode.l10n.t('Describe the task to plan.')
      : value.length > maxRequestLength
        ? vscode.l10n.t(
            'The request has {0} characters; keep it under {1}. Save the long part as a file of the workspace, select it in the Explorer and plan a short request: the file is attached.',
            value.length,
            maxRequestLength,
          )
        : undefined;
  return new Promise<string | undefined>((resolve) => {
    let answer: string | undefined;
    let moveToEditor = false;
    box.onDidChangeValue((value) => {
      box.validationMessage = value === '' ? undefined : problem(value);
    });
    box.onDidAccept(() => {
      const why = problem(box.value);
      if (why) {
        box.validationMessage = why;
        return;
      }
      answer = box.value;
      box.hide();
    });
    box.onDidTriggerButton((button) => {
      if (button !== toEditor) return;
      moveToEditor = true;
      box.hide();
    });
    box.onDidHide(() => {
      const typed = box.value;
      box.dispose();
      if (moveToEditor) void requests.open(typed);
      resolve(answer);
    });
    box.show();
  });
}

/**
 * "Plan task from the editor": plans the active editor's selection, or its whole text (a
 * request editor's hint comment left out). A request editor stays open until its run
 * completes (a failed, cancelled or paused run leaves the request there to refine), then closes.
 */
export async function planTaskFromEditor(deps: PlanTaskDeps): Promise<PlanTaskOutcome> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void showWarning(
      vscode.l10n.t('Task Planner: open an editor with the request first (or run "Plan task" and use its button for a multi-line request).'),
    );
    return {};
  }
  const request = requestFromEditor(editor);
  if (request === undefined) {
    void showWarning(vscode.l10n.t('Task Planner: this editor holds no request: write what you want done, then plan it again.'));
    return {};
  }
  if (request.length > maxRequestLength) {
    void showWarning(
      vscode.l10n.t(
        'Task Planner: the request has {0} characters; keep it under {1}: select the part to plan, or save the long part as a file of the workspace, select it in the Explorer and plan a short request (the file is attached).',
        request.length,
        maxRequestLength,
      ),
    );
    return {};
  }
  const outcome = await planTask(deps, { request });
  const document = editor.document;
  if (outcome.run && deps.requests.isRequest(document)) {
    void outcome.run.then(
      (result) => (result.status === 'completed' && deps.requests.isRequest(document) ? deps.requests.discard(document) : undefined),
      () => undefined,
    );
  }
  return outcome;
}

/**
 * What the model critique (`taskPlanner.review.modelCritique`) adds to the review's
 * warnings: why its findings are missing, when they are. Its tokens and cost go to the log.
 */
function modelCritiqueNotes(planned: PlannedRequest, log: vscode.LogOutputChannel): string[] {
  const model = planned.modelCritique;
  if (!model) return [];
  const tokens = model.usage.promptTokens + model.usage.completionTokens;
  log.info(`Model critique: ${tokens} tokens${model.costUsd === undefined ? ' (cost unknown)' : `, ${shownUsd(model.costUsd)}`}.`);
  return model.error === undefined ? [] : [model.error];
}

/**
 * Regenerate in the plan panel: plans `plan`'s objective again with the user's feedback,
 * behind a cancellable progress notification. The result keeps the plan's id and objective
 * and is the next version; `undefined` when the user cancelled. Throws what failed.
 */
export async function regeneratePlan(deps: PlanTaskDeps, feedback: string, plan: Plan): Promise<Plan | undefined> {
  const planned = await withPlanningProgress(vscode.l10n.t('Task Planner: regenerating the plan'), (progress) =>
    planRequest(deps, plan.objective, [], { ...progress, feedback, folder: deps.runs.planFolder(plan.id) ?? deps.runs.folder() }),
  );
  if (!planned) return undefined;
  for (const warning of planned.warnings) deps.log.warn(warning);
  return { ...planned.plan, id: plan.id, version: plan.version + 1, objective: plan.objective };
}

