import type { LlmChatRequest, LlmChatResponse } from '../llm/llmTypes';
import type { CheckpointStore } from '../runStorePorts';
import type { LlmClient } from '../servicePorts';
import { PendingChanges } from './pendingChanges';
import type { RunEventBody } from './runEvents';
import type { ResolvedRunOptions } from './runOptions';

/**
 * The run options one step's attempt works with, its effects journaled: every change a
 * file tool makes (the step's own tool or its agent's tool calls) is a `file_changed`
 * event once it has landed (its checkpoint settled `applied`), never before, so a change
 * that failed, was refused or was cut off by a halt is not reported; every model call is a
 * `model_called` event. So the run's summary (changed files, model use) folds from the
 * journal, resumed runs included. Without a checkpoint store, changes are journaled all
 * the same (and kept nowhere else). Each change is counted in `pending` from its record
 * to its settlement, so the run can wait for the changes under way before it ends.
 */
export function journaledEffects(
  options: ResolvedRunOptions,
  stepId: string,
  emit: (body: RunEventBody) => void,
  pending: PendingChanges = new PendingChanges(),
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
  return { ...options, checkpoints, llm: options.llm ? countedLlm(options.llm, stepId, emit) : undefined };
}

function countedLlm(llm: LlmClient, stepId: string, emit: (body: RunEventBody) => void): LlmClient {
  return {
    // A getter: some clients name their model only once they have picked one.
    get model() {
      return llm.model;
    },
    async chat(request: LlmChatRequest): Promise<LlmChatResponse> {
      const response = await llm.chat(request);
      emit({
        type: 'model_called',
        stepId,
        model: response.model,
        promptTokens: response.usage.promptTokens,
        completionTokens: response.usage.completionTokens,
        ...(response.usage.cachedPromptTokens ? { cachedTokens: response.usage.cachedPromptTokens } : {}),
        ...(response.costUsd === undefined ? {} : { costUsd: response.costUsd }),
        ...(response.savedUsd === undefined ? {} : { savedUsd: response.savedUsd }),
      });
      return response;
    },
  };
}
