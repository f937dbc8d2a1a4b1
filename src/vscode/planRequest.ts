// Plans a request in the window: the settings' model (or the chat's, or none), the folder's capabilities, skills and open
// files, through the core's planRequest; images attached go to the model as data URLs when the folder's workspace reads them
// (`imageForModel`).
import * as vscode from 'vscode';
import type { PlannedRequest } from '../core/planner/planRequest';
import type { PlannerStep } from '../core/planner/planStepStream';
import type { PlanningQuestion } from '../core/planner/investigateRequest';
import type { Attachment } from '../core/plan/planSchema';
import { loadRuntime } from './loadRuntime';
import { resolveProvider, type ResolvedProvider } from './llmProvider';
import { setUpModelHint } from './modelStatus';
import { askPlanningQuestion } from './planningQuestion';
import type { PlanTaskDeps } from './planTaskDeps';
import { readSettings } from './settings';

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
    let told = false;
    const writingPlan = (): void => {
      if (told) return;
      told = true;
      options.investigating?.(false);
      options.report(vscode.l10n.t('writing the plan…'));
    };
    return await runtime.planRequest(text, {
      ...(investigate
        ? {
            investigate: {
              budget: settings.investigation,
              ...(options.planNow ? { stop: options.planNow } : {}),
              progress: (line: string) => {
                deps.log.info(`Planning: ${line}`);
                // What Cancel does now, where it is pressed: it plans with what was read (a newcomer expected it to stop).
                const planNow = options.planNow && !options.planNow.aborted;
                options.report(planNow ? vscode.l10n.t('{0} (Cancel: plan with what was read)', line) : line);
              },
              ask: options.ask ?? askPlanningQuestion,
              // The plan is being written now: Cancel cancels, it no longer means "plan now" (a newcomer needed two), and the
              // notification says so instead of the last file read (a newcomer's Cancel there threw a plan half written away).
              ended: writingPlan,
              writing: writingPlan,
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
      // Read through the folder's confinement and kept-file rules, and only real images: a "logo.png" linking to .env is not sent.
      attachmentForModel: (attachment) => runtime.imageForModel(attachment, options.folder && deps.runs.workspace(options.folder), options.signal),
      ...(options.feedback === undefined ? {} : { feedback: options.feedback }),
      noModelHint: setUpModelHint(),
      // Regenerate keeps the plan only (the panel critiques each version itself): no model critique to pay for.
      modelCritique: settings.modelCritique && options.feedback === undefined,
      onPartialStep: (step, index) => {
        // A plan written straight away, in the investigation's own reply, is being written too.
        if (index === 0) options.investigating?.(false);
        options.onPartialStep?.(step, index);
        if (index + 1 > streamed) options.stepsWritten?.((streamed = index + 1));
      },
    });
  } finally {
    held?.dispose();
  }
}

/** Whether `uri` lies in `folder` (any file does when no folder was chosen). */
function inFolder(uri: vscode.Uri, folder: vscode.WorkspaceFolder | undefined): boolean {
  return folder === undefined || vscode.workspace.getWorkspaceFolder(uri)?.uri.toString() === folder.uri.toString();
}
