import { isBudgetExceededError } from '../llm/budget';
import { isLlmError, LlmError } from '../llm/llmError';
import type { LlmChatRequest, LlmChatResponse, LlmSpent } from '../llm/llmTypes';
import type { CheckpointStore } from '../runStorePorts';
import type { LlmClient } from '../servicePorts';
import { StepFailure } from '../tools/stepFailure';
import { PendingChanges } from './pendingChanges';
import type { RunEventBody } from './runEvents';
import type { ResolvedRunOptions } from './runOptions';

/**
 * The run options one step's attempt works with, its effects journaled: every change a
 * file tool makes (the step's own tool or its agent's tool calls) is a `file_changed`
 * event once it has landed (its checkpoint settled `applied`), never before, so a change
 * that failed, was refused or was cut off by a halt is not reported; every attempt of a model
 * call is a `model_requested` event stored (`flush`) before it is sent (one the store refused is
 * not sent: the step fails, not retried), and the call's end a `model_called` (with what its
 * failed attempts spent) or a `model_failed` event, so the spending of a call cut off by a crash
 * still counts in a resumed run's budget (as a request each). So the run's summary (changed
 * files, model use) folds from the journal, resumed runs included. Without a checkpoint store,
 * changes are journaled all the same (and kept nowhere else). Each change is counted in
 * `pending` from its record to its settlement, and each model call until its end is journaled,
 * so the run can wait for the changes and calls under way before it ends.
 */
export function journaledEffects(
  options: ResolvedRunOptions,
  stepId: string,
  emit: (body: RunEventBody) => void,
  pending: PendingChanges = new PendingChanges(),
  flush: () => Promise<boolean> = () => Promise.resolve(true),
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
  return { ...options, checkpoints, llm: options.llm ? countedLlm(options.llm, stepId, emit, flush, pending) : undefined };
}

function countedLlm(llm: LlmClient, stepId: string, emit: (body: RunEventBody) => void, flush: () => Promise<boolean>, pending: PendingChanges): LlmClient {
  return {
    // A getter: some clients name their model only once they have picked one.
    get model() {
      return llm.model;
    },
    async chat(request: LlmChatRequest): Promise<LlmChatResponse> {
      // A call made once its attempt or run has stopped (an agent's loop past its step's time limit) is neither sent nor
      // journaled: the run may have ended, and nothing is journaled after its end.
      if (request.signal.aborted) throw new LlmError('The model was not called: the step had stopped.', 'aborted', undefined, 0);
      let attempts = 0;
      /** What the call's failed attempts spent, as its client last said (`beforeRetry`). */
      let retried: LlmSpent | undefined;
      // Stored before the attempt is sent: a crash or a stop while it is out leaves it counted. Not stored (a full disk),
      // it is not sent: a resumed run could not count it against its budget.
      const sending = async (): Promise<void> => {
        attempts++;
        emit({ type: 'model_requested', stepId });
        if (!(await flush())) throw new StepFailure(notJournaled, false);
      };
      // Under way until its end is journaled: the run ends only after it, so nothing is journaled after the run's end.
      pending.begin();
      try {
        let response: LlmChatResponse;
        try {
          await sending();
          response = await llm.chat({
            ...request,
            beforeRetry: async (spent) => {
              retried = spent;
              await request.beforeRetry?.(spent);
              await sending();
            },
          });
        } catch (error: unknown) {
          // What the budget counted for it: its attempts that reached the server (none for a call refused before it was
          // sent); for an error that does not say, what its failed attempts had spent when it was last retried.
          const spent = isLlmError(error) || isBudgetExceededError(error) ? error.spent : retried;
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
      } finally {
        pending.end();
      }
    },
  };
}

const notJournaled =
  'The model was not called: the run journal could not be written (is the disk full?), so a resumed run could not count the request against its budget. Free some space, then resume the run.';

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
