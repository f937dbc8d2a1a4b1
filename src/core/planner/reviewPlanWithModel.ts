import { z } from 'zod';
import { chatStructured, StructuredOutputError } from '../llm/chatStructured';
import type { LlmUsage } from '../llm/llmTypes';
import { criticPrompt, type CriticContext } from './prompts/criticPrompt';
import { checkName, mergeCritique, type Critique, type CritiqueIssue } from '../plan/critiquePlan';
import type { Plan } from '../plan/planSchema';
import type { Clock, LlmClient } from '../servicePorts';
import { capText } from '../text/capText';
import { oneLine } from '../text/oneLine';
import { errorMessage } from '../../shared/errorMessage';

const maxFindings = 8;
/** Longest finding or recommendation kept from the model, in characters: each is one line (views print it as one). */
const maxFindingChars = 600;

/** What the model returns: findings in the critic's own terms. */
export const modelReviewSchema = z.object({
  findings: z.array(
    z.object({
      severity: z.enum(['critical', 'warning', 'info']),
      stepId: z.string().optional(),
      message: z.string().min(1),
      recommendation: z.string().optional(),
    }),
  ),
});

/**
 * The optional LLM review (docs/architecture.md §3): asks the model for findings the static checks cannot
 * see and merges them into `critique` as check `llm_review` (score recomputed). Findings
 * naming unknown steps keep their message but lose the step id; at most 8 are kept. Throws
 * the client's error (e.g. on abort); callers that treat the review as optional catch it. Each finding's message and
 * recommendation is one line of at most 600 characters (a line break in one forged the CLI's review lines).
 * `context` gives the model the project's conventions and skills to judge the plan by.
 */
export async function reviewPlanWithModel(plan: Plan, critique: Critique, llm: LlmClient, signal: AbortSignal, context: CriticContext = {}): Promise<Critique> {
  const { value } = await chatStructured(llm, { messages: criticPrompt(plan, context), signal, schemaName: 'plan_review' }, modelReviewSchema);
  const ids = new Set(plan.steps.map((step) => step.id));
  const issues: CritiqueIssue[] = value.findings.slice(0, maxFindings).map((finding) => ({
    check: 'llm_review',
    name: checkName('llm_review'),
    severity: finding.severity,
    ...(finding.stepId !== undefined && ids.has(finding.stepId) ? { stepId: finding.stepId } : {}),
    message: oneLine(finding.message, maxFindingChars),
    ...(finding.recommendation?.trim() ? { recommendation: oneLine(finding.recommendation, maxFindingChars) } : {}),
  }));
  return mergeCritique(critique, issues);
}

/** Longest the optional model critique may take before the review shows the static findings alone, in ms. */
export const modelCritiqueTimeoutMs = 60_000;

/** What the optional model critique gave: the critique (the static one when it failed), what it cost, and why it failed. */
export interface ModelCritiqueOutcome {
  critique: Critique;
  /** Tokens of every call it made, the repair round included. */
  usage: LlmUsage;
  /** `undefined` when a call's price was unknown. */
  costUsd?: number;
  /** Why the model's findings are missing (a reply that could not be read, a time-out, a failed call), in the user's words. */
  error?: string;
}

/**
 * `reviewPlanWithModel` for a review that must appear whatever the model does: bounded by
 * `timeoutMs` on `clock` (the call is aborted, and not waited for if it ignores the abort),
 * and never throwing but for the caller's own cancellation. A reply that cannot be read,
 * a failed call or a time-out leaves `critique` as it was, with `error` saying why. Every
 * call's tokens and cost are counted, those of a reply that failed included.
 */
export async function critiqueWithModel(
  plan: Plan,
  critique: Critique,
  llm: LlmClient,
  options: { signal: AbortSignal; clock: Clock; timeoutMs?: number } & CriticContext,
): Promise<ModelCritiqueOutcome> {
  const usage: LlmUsage = { promptTokens: 0, completionTokens: 0 };
  let costUsd: number | undefined = 0;
  const counting: LlmClient = {
    model: llm.model,
    chat: async (request) => {
      const response = await llm.chat(request);
      usage.promptTokens += response.usage.promptTokens;
      usage.completionTokens += response.usage.completionTokens;
      costUsd = costUsd === undefined || response.costUsd === undefined ? undefined : costUsd + response.costUsd;
      return response;
    },
  };
  const limitMs = options.timeoutMs ?? modelCritiqueTimeoutMs;
  const stop = new AbortController();
  const timer = new AbortController();
  const forward = (): void => {
    stop.abort(options.signal.reason);
    timer.abort();
  };
  options.signal.addEventListener('abort', forward, { once: true });
  const timedOut = options.clock.sleep(limitMs, timer.signal).then(
    () => 'timeout' as const,
    () => 'stopped' as const,
  );
  const spent = (): Pick<ModelCritiqueOutcome, 'usage' | 'costUsd'> => ({ usage: { ...usage }, ...(costUsd === undefined ? {} : { costUsd }) });
  try {
    options.signal.throwIfAborted();
    const context = { ...(options.instructions ? { instructions: options.instructions } : {}), ...(options.skills ? { skills: options.skills } : {}) };
    const reviewed = reviewPlanWithModel(plan, critique, counting, stop.signal, context);
    const first = await Promise.race([reviewed, timedOut]);
    if (first === 'timeout') {
      stop.abort(new Error('The model critique took too long.'));
      reviewed.catch(() => undefined);
      const error = `The model did not finish its critique within ${Math.round(limitMs / 1000)} s; the review shows the static critic's findings.`;
      return { critique, ...spent(), error };
    }
    if (first === 'stopped') throw options.signal.reason;
    return { critique: first, ...spent() };
  } catch (error) {
    options.signal.throwIfAborted();
    const why = error instanceof StructuredOutputError ? 'its reply could not be read as findings' : capText(errorMessage(error), 500);
    return { critique, ...spent(), error: `The model critique failed (${why}); the review shows the static critic's findings.` };
  } finally {
    options.signal.removeEventListener('abort', forward);
    timer.abort();
  }
}
