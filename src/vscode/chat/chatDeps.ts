import * as vscode from 'vscode';
import type { PlanningQuestion } from '../../core/planner/investigateRequest';
import type { ModelRoles } from '../../core/llm/modelRoles';
import type { RunEvent, RunState } from '../../core/engine/runEvents';
import type { RunResult } from '../../core/engine/runOptions';
import type { Attachment, Plan } from '../../core/plan/planSchema';
import type { PlannedRequest } from '../../core/planner/planRequest';
import type { PlannerStep } from '../../core/planner/planStepStream';
import type { Interaction } from '../../core/interactionPorts';
import type { LlmClient } from '../../core/servicePorts';
import type { WorkspaceFs } from '../../core/workspacePorts';
import type { Tool } from '../../core/tools/tool';
import type { PendingQuestions } from './pendingQuestions';
import { planReference } from './planReference';

/** The model a chat request works with, and its name for people; `llm` is absent for the heuristic planner. */
export interface ChatModel {
  llm: LlmClient | undefined;
  label: string;
  /** Each role's model on `llm`'s endpoint (the configured OpenAI-compatible one only; a picked chat model does every role). */
  models?: ModelRoles;
}

/**
 * What the `@planner` chat participant works with: the same planner path, Plan tree and
 * `RunController` as "Plan task" (wired in `registerChatParticipant`), as narrow views so
 * the handler, which lives in the runtime, imports none of the activation code.
 */
export interface ChatDeps {
  /** The Plan tree's current plan. */
  tree: { currentPlan(): Plan | undefined; setPlan(plan: Plan): void };
  runs: {
    isRunning(): boolean;
    current(): RunState | undefined;
    /** Starts `plan` with `options.llm`, else the configured model. */
    start(plan: Plan, options?: { llm?: LlmClient }): Promise<RunResult>;
    /** Cancels the run `runId` of any folder (its execution, repair runs included). */
    cancel(runId: string): boolean;
    /** The run `runId` as this window knows it: its folder, and its snapshot while it is the latest of its folder. */
    runInfo(runId: string): { state?: RunState; folder?: vscode.WorkspaceFolder } | undefined;
    workspace(): WorkspaceFs;
    /** Every folder's execution events, with the ids of the execution each belongs to (the same set for its whole execution). */
    readonly onDidExecutionEvent: vscode.Event<{ event: RunEvent; state: RunState; execution: ReadonlySet<string> }>;
  };
  tools: () => readonly Tool[];
  log: vscode.LogOutputChannel;
  /** The editor's prompts; the follow-up's plan tools ask none, but a tool context needs them. */
  interaction: Interaction;
  /** Plannings waiting in conversations for the answer to their question (one per conversation, bounded). */
  questions: PendingQuestions;
  /** The model a request plans and runs with: the chat's (`request.model`) under `auto`, else the configured one. */
  model(picked: vscode.LanguageModelChat | undefined): Promise<ChatModel>;
  /** Plans `text` through "Plan task"'s path with `model`, each step as the model writes it to `onPartialStep`. */
  plan(
    text: string,
    attachments: readonly Attachment[],
    options: {
      signal: AbortSignal;
      model: ChatModel;
      onPartialStep: (step: PlannerStep, index: number) => void;
      /** One line per thing the model reads before it plans. */
      progress?: (line: string) => void;
      /** Asks the planner's question before the plan (resolves with the answer; `undefined`: none, the model chooses). */
      ask?: (question: PlanningQuestion, signal: AbortSignal) => Promise<string | undefined>;
    },
  ): Promise<PlannedRequest>;
}

/** An `AbortSignal` that aborts when the chat request is cancelled (the chat's Stop button, or the chat closed). */
export function abortOn(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const abort = new AbortController();
  const subscription = token.onCancellationRequested(() => abort.abort(new Error(vscode.l10n.t('Stopped in the chat.'))));
  if (token.isCancellationRequested) abort.abort(new Error(vscode.l10n.t('Stopped in the chat.')));
  return {
    signal: abort.signal,
    dispose: () => {
      subscription.dispose();
    },
  };
}

/**
 * The chat's two buttons after `plan` was shown: open it in the plan panel, and start it (which asks `@planner /run`,
 * so the run reports in the chat). Start names `plan` as it is now (`planReference`): `/run` starts nothing when the
 * current plan is no longer that one (another plan, or this one edited since), so an old button cannot start a plan
 * the user did not see.
 */
export function planButtons(stream: vscode.ChatResponseStream, plan: Plan): void {
  stream.button({ command: 'taskPlanner.showPlan', title: vscode.l10n.t('Review in panel') });
  stream.button({ command: 'workbench.action.chat.open', arguments: [{ query: `@planner /run ${planReference(plan)}` }], title: vscode.l10n.t('Start') });
}
