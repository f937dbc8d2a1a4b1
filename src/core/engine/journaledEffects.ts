import { isBudgetExceededError } from '../llm/budget';
import { isLlmError } from '../llm/llmError';
import type { LlmChatRequest, LlmChatResponse, LlmSpent } from '../llm/llmTypes';
import type { CheckpointStore } from '../runStorePorts';
import type { LlmClient } from '../servicePorts';
import { PendingChanges } from './pendingChanges';
import type { RunEventBody } from './runEvents';
import type { ResolvedRunOptions } from './runOptions';

/**
 * The run options one step's attempt works with, its effects journaled: every change a
 * file tool makes (the step's own tool or its agent's tool calls) is a `file_changed`
 * event once it has landed (its checkpoint settled `applied`), never before, so a change
 * that failed, was refused or was cut off by a halt is not reported; every attempt of a model
 * call is a `model_requested` event stored (`flush`) before it is sent, and the call's end a
 * `model_called` (with what its failed attempts spent) or a `model_failed` event, so the spending
 * of a call cut off by a crash or a stop still counts in a resumed run's budget (as a request
 * each). So the run's summary (changed files, model use) folds from the
 * journal, resumed runs included. Without a checkpoint store, changes are journaled all
 * the same (and kept nowhere else). Each change is counted in `pending` from its record
 * to its settlement, so the run can wait for the changes under way before it ends.
 */
export function journaledEffects(
  options: ResolvedRunOptions,
  stepId: string,
  emit: (body: RunEventBody) => void,
  pending: PendingChanges = new PendingChanges(),
  flush: () => Promise<unknown> = () => Promise.resolve(),
): ResolvedRunOptions {
  const inner = options.checkpoints;
  const checkpoints: CheckpointStore = {
    async record(checkpoint) {
      const recorded = inner ? await inner.record(checkpoint) : { ...checkpoint, seq: 0, state: 'intended' as const };
      pending.begin();
      return recorded;
    },
    async settle(checkpoint, state) {
      try {
        if (inner) await inner.settle(checkpoint, state);
        // A recovered change was reported when the run resumed; its step claiming it is no second change.
        if (state === 'applied' && checkpoint.state === 'intended') {
          emit({ type: 'file_changed', stepId, path: checkpoint.path, operation: checkpoint.operation });
        }
      } finally {
        if (checkpoint.state === 'intended') pending.end();
      }
    },
    list: (runId) => (inner ? inner.list(runId) : Promise.resolve([])),
  };
  return { ...options, checkpoints, llm: options.llm ? countedLlm(options.llm, stepId, emit, flush) : undefined };
}

function countedLlm(llm: LlmClient, stepId: string, emit: (body: RunEventBody) => void, flush: () => Promise<unknown>): LlmClient {
  return {
    // A getter: some clients name their model only once they have picked one.
    get model() {
      return llm.model;
    },
    async chat(request: LlmChatRequest): Promise<LlmChatResponse> {
      let attempts = 0;
      // Stored before the attempt is sent: a crash or a stop while it is out leaves it counted.
      const sending = async (): Promise<void> => {
        attempts++;
        emit({ type: 'model_requested', stepId });
        await flush();
      };
      await sending();
      let response: LlmChatResponse;
      try {
        response = await llm.chat({
          ...request,
          beforeRetry: async (spent) => {
            await request.beforeRetry?.(spent);
            await sending();
          },
        });
      } catch (error: unknown) {
        // What the budget counted for it: its attempts that reached the server (none for a call refused before it was sent).
        const spent = isLlmError(error) || isBudgetExceededError(error) ? error.spent : undefined;
        emit({ type: 'model_failed', stepId, model: request.model ?? llm.model, attempts, ...spentFields(spent) });
        throw error;
      }
      emit({
        type: 'model_called',
        stepId,
        model: response.model,
        promptTokens: count(response.usage.promptTokens),
        completionTokens: count(response.usage.completionTokens),
        ...(count(response.usage.cachedPromptTokens ?? 0) > 0 ? { cachedTokens: count(response.usage.cachedPromptTokens ?? 0) } : {}),
        ...(response.costUsd === undefined || count(response.costUsd) !== response.costUsd ? {} : { costUsd: response.costUsd }),
        ...(response.savedUsd === undefined || count(response.savedUsd) !== response.savedUsd ? {} : { savedUsd: response.savedUsd }),
        attempts,
        ...(response.retriedSpent === undefined ? {} : { retried: spentFields(response.retriedSpent) }),
      });
      return response;
    },
  };
}

/** `value` when it is a count (finite, not negative), else 0: a client's word that is no count never reaches the journal. */
function count(value: number): number {
  return Number.isFinite(value) && value >= 0 ? value : 0;
}

/** `spent` as a journal event's fields; nothing spent when absent. */
function spentFields(spent: LlmSpent | undefined): { requests: number; promptTokens: number; completionTokens: number; costUsd?: number } {
  const costUsd = spent?.costUsd;
  return {
    requests: Math.ceil(count(spent?.requests ?? 0)),
    promptTokens: count(spent?.usage.promptTokens ?? 0),
    completionTokens: count(spent?.usage.completionTokens ?? 0),
    ...(costUsd === undefined || count(costUsd) !== costUsd ? {} : { costUsd }),
  };
}
