import * as vscode from 'vscode';
import type { RunResult } from '../core/engine/runOptions';
import type { Critique } from '../core/plan/critiquePlan';
import type { PlannedRequest } from '../core/planner/planRequest';
import type { PlannerStep } from '../core/planner/planStepStream';
import type { Attachment, Plan } from '../core/plan/planSchema';
import type { Tool } from '../core/tools/tool';
import { collectAttachments } from './attachments';
import { chooseFolder } from './folderChoice';
import { loadRuntime } from './loadRuntime';
import { displayedFolderName, pickWorkspaceFolder } from './workspaceFolders';
import type { ApiKeyStore } from './apiKeyStore';
import { resolveProvider, type ResolvedProvider } from './llmProvider';
import type { PlanReview } from './planReview';
import type { PlanTreeProvider } from './planTreeProvider';
import type { RunController } from './runController';
import { requestFromEditor, type RequestEditors } from './requestEditor';
import { readSettings } from './settings';
import { setUpModelHint } from './modelStatus';
import { askPlanningQuestion } from './planningQuestion';
import type { PlanningQuestion } from '../core/planner/investigateRequest';
import { errorMessage } from '../shared/errorMessage';
import { showError, showWarning, withProgress } from './notifications';
import { tellRunInProgress } from './runInProgress';
import type { WorkspaceFs } from '../core/workspacePorts';
import { shownUsd } from '../shared/shownUsd';

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
  /** Asks which workspace folder to plan in (a window of several); default: VS Code's folder pick. `undefined`: cancelled. */
  pickFolder?: (folders: readonly vscode.WorkspaceFolder[]) => Promise<vscode.WorkspaceFolder | undefined>;
  /**
   * Makes `tools` complete before planning (starts the MCP servers once) and holds them until the planning ends (the
   * hold disposed): a change of their configuration meanwhile stops none of them. Never rejects.
   */
  holdTools?: () => Promise<vscode.Disposable>;
}

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
  const text = options.request ?? (await askRequest(deps.requests, folder ?? vscode.workspace.workspaceFolders?.[0]));
  if (text === undefined || text.trim() === '') return {};
  const attachments = collectAttachments(text, options.files ?? []);
  let failure: string | undefined;
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
async function askRequest(requests: RequestEditors, folder: vscode.WorkspaceFolder | undefined): Promise<string | undefined> {
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

/** Options of `planRequest`. */
export interface PlanRequestHostOptions {
  signal: AbortSignal;
  report: (message: string) => void;
  /** The user's word on an earlier version (Regenerate). */
  feedback?: string;
  /** Plans with the heuristic planner whatever model is set up. */
  withoutModel?: boolean;
  /** The model to plan with instead of the one the settings choose (the chat's model). */
  provider?: Pick<ResolvedProvider, 'llm' | 'label'> & Partial<Pick<ResolvedProvider, 'models'>>;
  /** Each step as soon as the model has written it (again from index 0 after a retry). */
  onPartialStep?: (step: PlannerStep, index: number) => void;
  /** How many steps the model has written so far, each time one more is (the editor's notification counts them; the chat streams the steps instead). */
  stepsWritten?: (count: number) => void;
  /** The workspace folder to plan in; `undefined` when no folder is open. */
  folder: vscode.WorkspaceFolder | undefined;
  /** Aborted: stop investigating and plan with what was read. */
  planNow?: AbortSignal;
  /** Told when the model starts and stops investigating (what Cancel means changes). */
  investigating?: (active: boolean) => void;
  /** Asks the planner's questions; default: a QuickPick. */
  ask?: (question: PlanningQuestion, signal: AbortSignal) => Promise<string | undefined>;
}

/**
 * Plans `text` with the configured provider (the heuristic planner without a model, or
 * with `withoutModel`; `provider` when given) through the core's `planRequest`; `feedback`
 * is the user's word on an earlier version (Regenerate). Throws what failed.
 */
export async function planRequest(
  deps: PlanTaskDeps,
  text: string,
  attachments: readonly Attachment[],
  options: PlanRequestHostOptions,
): Promise<PlannedRequest> {
  const runtime = loadRuntime();
  const settings = readSettings();
  const provider = options.withoutModel
    ? { llm: undefined, label: vscode.l10n.t('heuristic planner (no model)') }
    : (options.provider ?? (await resolveProvider(settings, deps.keys)));
  options.report(vscode.l10n.t('with {0}…', provider.label));
  deps.log.info(`Planning with ${provider.label}: ${text.slice(0, 200)}${options.feedback ? ` (feedback: ${options.feedback.slice(0, 200)})` : ''}`);
  let streamed = 0;
  const held = await deps.holdTools?.();
  try {
    // Read again for every plan, so a skill added a moment ago is offered (and the review shows what each step uses).
    const capabilities = await deps.runs.capabilities(options.signal, options.folder);
    const investigate = provider.llm !== undefined && settings.investigation.maxToolCalls > 0;
    options.investigating?.(investigate);
    return await runtime.planRequest(text, {
      ...(investigate
        ? {
            investigate: {
              budget: settings.investigation,
              ...(options.planNow ? { stop: options.planNow } : {}),
              progress: (line: string) => {
                deps.log.info(`Planning: ${line}`);
                options.report(line);
              },
              ask: options.ask ?? askPlanningQuestion,
            },
          }
        : {}),
      skills: capabilities.skills,
      instructions: capabilities.instructions,
      trusted: vscode.workspace.isTrusted,
      llm: provider.llm,
      // Each role's model on the configured endpoint; a chat's picked model does every role.
      ...('models' in provider && provider.models ? { models: provider.models } : {}),
      tools: runtime.createToolRegistry([...deps.tools()]),
      signal: options.signal,
      clock: runtime.timerClock,
      strategy: settings.strategy,
      // Without a model too, when a folder is open: the heuristic planner reads the project's test command from it ("run the tests").
      ...(provider.llm || options.folder || vscode.workspace.workspaceFolders?.length === 1 ? { workspace: deps.runs.workspace(options.folder) } : {}),
      openFiles: vscode.window.visibleTextEditors
        .filter((editor) => editor.document.uri.scheme === 'file' && inFolder(editor.document.uri, options.folder))
        .map((editor) => vscode.workspace.asRelativePath(editor.document.uri, false)),
      attachments,
      attachmentForModel: (attachment) => imageAsDataUrl(attachment, options.folder && deps.runs.workspace(options.folder)),
      ...(options.feedback === undefined ? {} : { feedback: options.feedback }),
      noModelHint: setUpModelHint(),
      // Regenerate keeps the plan only (the panel critiques each version itself): no model critique to pay for.
      modelCritique: settings.modelCritique && options.feedback === undefined,
      onPartialStep: (step, index) => {
        if (index === 0) options.investigating?.(false);
        options.onPartialStep?.(step, index);
        if (index + 1 > streamed) options.stepsWritten?.((streamed = index + 1));
      },
    });
  } finally {
    held?.dispose();
  }
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

/** What `withPlanningProgress` gives the planning it shows. */
interface PlanningProgress {
  signal: AbortSignal;
  report: (message: string) => void;
  stepsWritten: (count: number) => void;
  planNow: AbortSignal;
  investigating: (active: boolean) => void;
}

/**
 * Runs `work` behind a cancellable progress notification titled `title`: resolves to
 * `undefined` when the user cancelled it, rejects with what else failed. While the model
 * investigates, Cancel means "plan now with what was read": `planNow` aborts and a second
 * notification ("writing the plan from what was read") takes over, whose Cancel cancels planning.
 */
async function withPlanningProgress<T>(title: string, work: (progress: PlanningProgress) => Promise<T>): Promise<T | undefined> {
  const abort = new AbortController();
  const planNow = new AbortController();
  let investigating = false;
  let report: (message: string) => void = () => undefined;
  const cancelled = (): void => abort.abort(new Error(vscode.l10n.t('{0}: cancelled.', title)));
  const planningNow = (): void => {
    planNow.abort();
    const writing = vscode.l10n.t('Task Planner: writing the plan from what was read');
    void withProgress({ location: vscode.ProgressLocation.Notification, title: writing, cancellable: true }, (progress, token) => {
      report = (message) => progress.report({ message });
      token.onCancellationRequested(cancelled);
      return Promise.resolve(finished).catch(() => undefined);
    });
  };
  const finished = withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    report = (message) => progress.report({ message });
    token.onCancellationRequested(() => (investigating && !planNow.signal.aborted ? planningNow() : cancelled()));
    try {
      return await work({
        signal: abort.signal,
        report: (message) => report(message),
        stepsWritten: (count) => report(vscode.l10n.t('step {0} written…', count)),
        planNow: planNow.signal,
        investigating: (active) => (investigating = active),
      });
    } catch (error) {
      if (abort.signal.aborted) return undefined;
      throw error;
    }
  });
  return finished;
}

/** Most bytes of an image sent to the model with the request (larger ones go by name). */
const maxInlinedImageBytes = 4 * 1024 * 1024;
const imageTypes: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', bmp: 'image/bmp' };

/**
 * An image file attachment becomes a `data:` URL, which the planning prompt sends as an image part, when the folder's
 * confined workspace reads it (inside the folder, no link out, at most `maxInlinedImageBytes`); others stay as they are.
 */
async function imageAsDataUrl(attachment: Attachment, workspace: WorkspaceFs | undefined): Promise<Attachment> {
  const type = imageTypes[attachment.ref.split('.').pop()?.toLowerCase() ?? ''];
  if (attachment.kind !== 'image' || !workspace?.readBytes || !type) return attachment;
  try {
    // Read through the folder's confinement: an "image" that is a link out of the workspace (to a key, say) is not sent.
    const bytes = await workspace.readBytes(attachment.ref, undefined, { maxBytes: maxInlinedImageBytes });
    if (bytes.byteLength > maxInlinedImageBytes) return attachment;
    return { ...attachment, ref: `data:${type};base64,${Buffer.from(bytes).toString('base64')}`, label: attachment.label ?? attachment.ref };
  } catch {
    return attachment;
  }
}

/** Whether `uri` lies in `folder` (any file does when no folder was chosen). */
function inFolder(uri: vscode.Uri, folder: vscode.WorkspaceFolder | undefined): boolean {
  return folder === undefined || vscode.workspace.getWorkspaceFolder(uri)?.uri.toString() === folder.uri.toString();
}

/**
 * The folder a planning works in (see `chooseFolder`): of the given `files`, else of the active editor,
 * else picked by the user. `outcome` ends "Plan task" there: the pick was cancelled (nothing happens)
 * or the files lie in several folders (an error says so). `folder` is `undefined` when no folder is open.
 */
export async function planningFolder(
  deps: PlanTaskDeps,
  files: readonly vscode.Uri[],
): Promise<{ folder: vscode.WorkspaceFolder | undefined } | { outcome: PlanTaskOutcome }> {
  const active = vscode.window.activeTextEditor?.document.uri;
  const choice = chooseFolder(vscode.workspace.workspaceFolders ?? [], {
    files: files.map((file) => vscode.workspace.getWorkspaceFolder(file)),
    editor: active && vscode.workspace.getWorkspaceFolder(active),
  });
  switch (choice.kind) {
    case 'none':
      return { folder: undefined };
    case 'folder':
      return { folder: choice.folder };
    case 'spread': {
      const error = vscode.l10n.t(
        'The files are in more than one workspace folder ({0}); a plan works in one folder. Choose files of one folder.',
        choice.names.map((name) => `"${displayedFolderName(name)}"`).join(', '),
      );
      void showError(vscode.l10n.t('Task Planner: {0}', error));
      return { outcome: { error } };
    }
    case 'ask': {
      const picked = await (deps.pickFolder ?? askFolder)(choice.folders);
      return picked ? { folder: picked } : { outcome: {} };
    }
  }
}

/** The workspace folder pick of "Plan task". */
function askFolder(folders: readonly vscode.WorkspaceFolder[]): Promise<vscode.WorkspaceFolder | undefined> {
  return pickWorkspaceFolder(vscode.l10n.t('Which workspace folder should the task be planned and run in?'), folders);
}
