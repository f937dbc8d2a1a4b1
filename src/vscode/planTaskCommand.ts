import * as vscode from 'vscode';
import type { RunResult } from '../core/engine/runOptions';
import type { Critique } from '../core/plan/critiquePlan';
import type { PlannedRequest } from '../core/planner/planRequest';
import type { Attachment, Plan } from '../core/plan/planSchema';
import type { Tool } from '../core/tools/tool';
import { collectAttachments } from './attachments';
import { loadRuntime } from './loadRuntime';
import type { ApiKeyStore } from './apiKeyStore';
import { resolveProvider } from './llmProvider';
import type { PlanReview } from './planReview';
import type { PlanTreeProvider } from './planTreeProvider';
import type { RunController } from './runController';
import { requestFromEditor, type RequestEditors } from './requestEditor';
import { readSettings } from './settings';
import { setUpModelHint } from './modelStatus';
import { errorMessage } from '../shared/errorMessage';

/** Longest request accepted from the input box, in characters. */
const maxRequestLength = 20_000;

/** What "Plan task" works with (wired in `activate`). */
export interface PlanTaskDeps {
  tree: PlanTreeProvider;
  log: vscode.LogOutputChannel;
  keys: ApiKeyStore;
  tools: () => readonly Tool[];
  runs: RunController;
  /** The review before the run, as `taskPlanner.review.show` chooses: the plan panel or a QuickPick. */
  review: () => PlanReview;
  /** Multi-line requests written in an editor. */
  requests: RequestEditors;
  /** Makes `tools` complete before planning (starts the MCP servers once); never rejects. */
  prepareTools?: () => Promise<void>;
}

/** Options of one "Plan task". */
export interface PlanTaskOptions {
  /** The request; asked in an input box when absent. */
  request?: string;
  /** Files chosen in the explorer ("Plan task with these files"). */
  files?: readonly vscode.Uri[];
  /** Plans with the heuristic planner whatever model is set up ("Plan without a model"). */
  withoutModel?: boolean;
  /** Asks what to do after planning failed; default: the error notification's buttons (tests answer it themselves). */
  afterFailure?: (message: string) => Promise<PlanningFailureChoice | undefined>;
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
  const text = options.request ?? (await askRequest(deps.requests));
  if (text === undefined || text.trim() === '') return {};
  const attachments = collectAttachments(text, options.files ?? []);
  let failure: string | undefined;
  const planned = await withPlanningProgress('Task Planner: planning', (signal, report) =>
    planRequest(deps, text, attachments, { signal, report, withoutModel: options.withoutModel === true }),
  ).catch((error: unknown) => {
    failure = errorMessage(error);
    deps.log.error(`Planning failed: ${failure}`);
    return undefined;
  });
  if (failure !== undefined) return { error: failure, followUp: afterPlanningFailure(deps, { ...options, request: text }, failure) };
  if (!planned) return {};
  const { plan, critique } = planned;
  deps.log.info(`Planned ${plan.steps.length} step(s) for: ${plan.objective}. Critic ${critique.score}/10: ${critique.summary}`);
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
  const run = deps.runs.start(accepted);
  run.catch((error: unknown) => {
    const message = errorMessage(error);
    deps.log.error(`Run failed to start: ${message}`);
    void vscode.window.showErrorMessage(`Task Planner: ${message}`);
  });
  return { plan: accepted, critique, run };
}

/**
 * After a planning failure: the error with Retry, Set up a model (then plans again when a
 * model answered) and Plan without a model, all with the same request. Resolves to what
 * the choice led to (`{}` when dismissed).
 */
async function afterPlanningFailure(deps: PlanTaskDeps, options: PlanTaskOptions, message: string): Promise<PlanTaskOutcome> {
  const ask =
    options.afterFailure ??
    ((text: string) =>
      vscode.window.showErrorMessage<PlanningFailureChoice>(`Task Planner: planning failed: ${text}`, 'Retry', 'Set up a model', 'Plan without a model'));
  const choice = await ask(message);
  if (choice === 'Retry') return planTask(deps, options);
  if (choice === 'Plan without a model') return planTask(deps, { ...options, withoutModel: true });
  if (choice === 'Set up a model') {
    const setUp = await vscode.commands.executeCommand<{ ok: boolean } | undefined>('taskPlanner.setUpModel');
    if (setUp?.ok) return planTask(deps, options);
  }
  return {};
}

/**
 * Asks for the request in an input box. Its button moves what was typed into a request
 * editor for a longer, multi-line request (planned from that editor's title); then, as
 * when the box is dismissed, there is nothing to plan now (`undefined`).
 */
async function askRequest(requests: RequestEditors): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  box.title = 'Task Planner: Plan task';
  box.prompt =
    'Describe what you want done. Separate steps with "then". URLs and the current selection are attached. For a longer request with lines and lists, use the button on the right.';
  box.placeholder = 'e.g. Read src/app.ts, then add input validation, then run `npm test`';
  box.ignoreFocusOut = true;
  const toEditor: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('go-to-file'), tooltip: 'Write a longer, multi-line request in an editor' };
  box.buttons = [toEditor];
  const problem = (value: string): string | undefined =>
    value.trim() === '' ? 'Describe the task to plan.' : value.length > maxRequestLength ? `Keep the request under ${maxRequestLength} characters.` : undefined;
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
    void vscode.window.showWarningMessage(
      'Task Planner: open an editor with the request first (or run "Plan task" and use its button for a multi-line request).',
    );
    return {};
  }
  const request = requestFromEditor(editor);
  if (request === undefined) {
    void vscode.window.showWarningMessage('Task Planner: this editor holds no request: write what you want done, then plan it again.');
    return {};
  }
  if (request.length > maxRequestLength) {
    void vscode.window.showWarningMessage(
      `Task Planner: the request has ${request.length} characters; keep it under ${maxRequestLength} (select the part to plan).`,
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
 * Plans `text` with the configured provider (the heuristic planner without a model, or
 * with `withoutModel`) through the core's `planRequest`; `feedback` is the user's word on
 * an earlier version (Regenerate). Throws what failed.
 */
async function planRequest(
  deps: PlanTaskDeps,
  text: string,
  attachments: readonly Attachment[],
  options: { signal: AbortSignal; report: (message: string) => void; feedback?: string; withoutModel?: boolean },
): Promise<PlannedRequest> {
  const runtime = loadRuntime();
  const settings = readSettings();
  const provider = options.withoutModel ? { llm: undefined, label: 'heuristic planner (no model)' } : await resolveProvider(settings, deps.keys);
  options.report(`with the ${provider.label}…`);
  deps.log.info(`Planning with the ${provider.label}: ${text.slice(0, 200)}${options.feedback ? ` (feedback: ${options.feedback.slice(0, 200)})` : ''}`);
  let streamed = 0;
  await deps.prepareTools?.();
  return runtime.planRequest(text, {
    llm: provider.llm,
    tools: runtime.createToolRegistry([...deps.tools()]),
    signal: options.signal,
    clock: runtime.timerClock,
    strategy: settings.strategy,
    ...(provider.llm ? { workspace: deps.runs.workspace() } : {}),
    openFiles: vscode.window.visibleTextEditors
      .filter((editor) => editor.document.uri.scheme === 'file')
      .map((editor) => vscode.workspace.asRelativePath(editor.document.uri, false)),
    attachments,
    attachmentForModel: imageAsDataUrl,
    ...(options.feedback === undefined ? {} : { feedback: options.feedback }),
    noModelHint: setUpModelHint,
    // Regenerate keeps the plan only (the panel critiques each version itself): no model critique to pay for.
    modelCritique: settings.modelCritique && options.feedback === undefined,
    onPartialStep: (_step, index) => {
      if (index + 1 > streamed) options.report(`step ${(streamed = index + 1)} written…`);
    },
  });
}

/**
 * What the model critique (`taskPlanner.review.modelCritique`) adds to the review's
 * warnings: why its findings are missing, when they are. Its tokens and cost go to the log.
 */
function modelCritiqueNotes(planned: PlannedRequest, log: vscode.LogOutputChannel): string[] {
  const model = planned.modelCritique;
  if (!model) return [];
  const tokens = model.usage.promptTokens + model.usage.completionTokens;
  log.info(`Model critique: ${tokens} tokens${model.costUsd === undefined ? ' (cost unknown)' : `, $${model.costUsd.toFixed(4)}`}.`);
  return model.error === undefined ? [] : [model.error];
}

/**
 * Regenerate in the plan panel: plans `plan`'s objective again with the user's feedback,
 * behind a cancellable progress notification. The result keeps the plan's id and objective
 * and is the next version; `undefined` when the user cancelled. Throws what failed.
 */
export async function regeneratePlan(deps: PlanTaskDeps, feedback: string, plan: Plan): Promise<Plan | undefined> {
  const planned = await withPlanningProgress('Task Planner: regenerating the plan', (signal, report) =>
    planRequest(deps, plan.objective, [], { signal, feedback, report }),
  );
  if (!planned) return undefined;
  for (const warning of planned.warnings) deps.log.warn(warning);
  return { ...planned.plan, id: plan.id, version: plan.version + 1, objective: plan.objective };
}

/**
 * Runs `work` behind a cancellable progress notification titled `title`: resolves to
 * `undefined` when the user cancelled it, rejects with what else failed.
 */
async function withPlanningProgress<T>(title: string, work: (signal: AbortSignal, report: (message: string) => void) => Promise<T>): Promise<T | undefined> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const abort = new AbortController();
    token.onCancellationRequested(() => abort.abort(new Error(`${title}: cancelled.`)));
    try {
      return await work(abort.signal, (message) => progress.report({ message }));
    } catch (error) {
      if (abort.signal.aborted) return undefined;
      throw error;
    }
  });
}

const imageTypes: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', bmp: 'image/bmp' };

/** An image file attachment becomes a `data:` URL, which the planning prompt sends as an image part; others stay as they are. */
async function imageAsDataUrl(attachment: Attachment): Promise<Attachment> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const type = imageTypes[attachment.ref.split('.').pop()?.toLowerCase() ?? ''];
  if (attachment.kind !== 'image' || !folder || !type) return attachment;
  try {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, attachment.ref));
    if (bytes.byteLength > 4 * 1024 * 1024) return attachment;
    return { ...attachment, ref: `data:${type};base64,${Buffer.from(bytes).toString('base64')}`, label: attachment.label ?? attachment.ref };
  } catch {
    return attachment;
  }
}
