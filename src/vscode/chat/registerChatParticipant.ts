import * as vscode from 'vscode';
import type { Interaction } from '../../core/interactionPorts';
import { loadRuntime } from '../loadRuntime';
import { resolveProvider } from '../llmProvider';
import { planningFolder } from '../planningFolder';
import { planRequest } from '../planRequest';
import type { PlanTaskDeps } from '../planTaskDeps';
import { readSettings } from '../settings';
import { createVscodeLmClient, ownChatModelVendor } from '../vscodeLmClient';
import type { ChatDeps, ChatModel } from './chatDeps';
import { PendingQuestions, questionFollowups } from './pendingQuestions';

/** The participant's id, as contributed in the manifest (`chatParticipants`). */
export const chatParticipantId = 'taskPlanner.planner';

/**
 * Registers `@planner` (when the editor has the chat API) with the extension's icon over
 * "Plan task"'s parts; its handler lives in the runtime, loaded on the first chat request.
 * Returns the handler too, so the test build can call it directly.
 */
export function registerChatParticipant(
  extensionUri: vscode.Uri,
  planTask: PlanTaskDeps,
  interaction: Interaction,
): { handler: vscode.ChatRequestHandler; registration: vscode.Disposable } {
  const deps: ChatDeps = {
    tree: planTask.tree,
    runs: planTask.runs,
    tools: planTask.tools,
    log: planTask.log,
    interaction,
    questions: new PendingQuestions(),
    model: (picked) => chatModel(planTask, picked),
    plan: async (text, attachments, { signal, model, onPartialStep, progress, ask }) => {
      // The same folder as "Plan task" would take: the active editor's, else the one picked.
      const where = await planningFolder(planTask, []);
      if ('outcome' in where) throw new Error(where.outcome.error ?? vscode.l10n.t('No workspace folder was chosen, so nothing was planned.'));
      const planned = await planRequest(planTask, text, attachments, {
        signal,
        report: (line) => progress?.(line),
        provider: model,
        onPartialStep,
        folder: where.folder,
        ...(ask ? { ask } : {}),
      });
      if (where.folder) {
        planTask.runs.planFor(planned.plan.id, where.folder);
        planTask.runs.useFolder(where.folder);
      }
      return planned;
    },
  };
  const handler: vscode.ChatRequestHandler = (request, context, stream, token) => loadRuntime().handleChatRequest(deps, request, context, stream, token);
  // An editor without the chat API (an older host) simply has no participant.
  if (typeof vscode.chat?.createChatParticipant !== 'function') return { handler, registration: { dispose: () => undefined } };
  const participant = vscode.chat.createChatParticipant(chatParticipantId, handler);
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
  // A response ending with a planning question offers its suggestions as follow-ups: a click sends one as the answer.
  participant.followupProvider = { provideFollowups: (result) => questionFollowups(result) };
  return { handler, registration: participant };
}

/**
 * The model a chat request works with: the one picked in the chat when
 * `taskPlanner.llm.provider` is `auto` (but Task Planner's own), else the configured provider as everywhere (the
 * heuristic planner without a model). Throws what `resolveProvider` throws.
 */
async function chatModel(deps: PlanTaskDeps, picked: vscode.LanguageModelChat | undefined): Promise<ChatModel> {
  const settings = readSettings();
  // Our own chat model is the configured endpoint: called directly, as everywhere (with its structured output).
  if (settings.provider === 'auto' && picked && picked.vendor !== ownChatModelVendor) {
    return { llm: createVscodeLmClient({ model: picked, timeoutMs: settings.requestTimeoutMs }), label: vscode.l10n.t('chat model {0}', picked.name) };
  }
  return resolveProvider(settings, deps.keys);
}
