import { feedbackMaxChars } from '../tools/approvalFeedback';
import { z } from 'zod';
import { checkKinds, skipCauses } from '../../shared/vocabulary';
import { planSchema } from '../plan/planSchema';
import type { RunEventType } from './runEvents';
import { maxJournaledResultChars, maxJournaledSeenFiles, maxJournaledTurnCalls, maxJournaledTurnChars } from '../agent/agentTranscript';
import { textCaps } from '../text/capText';

const stepId = z.string().min(1);
// `id` and `fingerprint` are optional: journals written before requests had them stay readable.
const pendingRequest = z.object({
  id: z.string().optional(),
  fingerprint: z.string().optional(),
  stepId,
  kind: z.string(),
  prompt: z.string(),
  request: z.unknown().optional(),
});
const bound = { stepId, fingerprint: z.string(), seal: z.string().optional() };
const suppliedAnswer = z.discriminatedUnion('kind', [
  z.object({ ...bound, kind: z.literal('approval'), decision: z.object({ approved: z.boolean(), reason: z.string().optional() }) }),
  z.object({ ...bound, kind: z.literal('clarification'), answer: z.string() }),
  z.object({ ...bound, kind: z.literal('review'), decision: z.object({ approved: z.boolean(), notes: z.string().optional() }) }),
  z.object({
    ...bound,
    kind: z.literal('manual'),
    outcome: z.union([z.object({ done: z.literal(true), note: z.string().optional() }), z.object({ done: z.literal(false), reason: z.string() })]),
  }),
]);
/** Answers bound to requests, by request id; or the older answers by step id, which replay ignores. */
const supplied = z.union([
  z.record(z.string(), suppliedAnswer),
  z.object({
    approvals: z.record(z.string(), z.boolean()),
    answers: z.record(z.string(), z.string()),
    reviews: z.record(z.string(), z.object({ approved: z.boolean(), notes: z.string().optional() })),
  }),
]);
const attempt = z.int().min(1);
/** What model attempts spent (`JournaledSpending`): counts, never negative, so no line lowers a resumed run's budget. */
const spending = z.object({
  requests: z.int().min(0),
  promptTokens: z.number().min(0),
  completionTokens: z.number().min(0),
  costUsd: z.number().min(0).optional(),
});

/**
 * The fields each run event needs to be replayed, by type (exhaustive: a new event type
 * does not compile without its entry). Fields not named here are allowed and kept, so an
 * event that gained a field stays readable.
 */
const bodies: Record<RunEventType, z.ZodObject> = {
  run_started: z.object({ plan: planSchema, replanHistory: z.array(z.unknown()).optional() }),
  plan_generated: z.object({
    planner: z.enum(['model', 'heuristic']),
    model: z.string().optional(),
    steps: z.number().int().min(0),
    critiqueScore: z.number(),
    findings: z.number().int().min(0),
  }),
  run_resumed: z.object({ supplied, journalWarning: z.string().optional(), warnings: z.array(z.string()).optional() }),
  step_ready: z.object({ stepId }),
  step_started: z.object({ stepId, attempt, input: z.unknown().optional(), continues: z.literal(true).optional() }),
  step_progress: z.object({ stepId, message: z.string(), percent: z.number().int().min(0).max(100).optional() }),
  step_output: z.object({ stepId, text: z.string() }),
  step_warning: z.object({ stepId, message: z.string() }),
  approval_requested: z.object({ stepId, request: pendingRequest }),
  clarification_requested: z.object({ stepId, request: pendingRequest }),
  review_requested: z.object({ stepId, request: pendingRequest }),
  manual_requested: z.object({ stepId, request: pendingRequest }),
  budget_exhausted: z.object({ stepId, request: pendingRequest, usage: z.record(z.string(), z.number()) }),
  request_answered: z.object({
    stepId,
    kind: z.string(),
    requestId: z.string().optional(),
    given: z.boolean().optional(),
    feedback: z.string().max(feedbackMaxChars).optional(),
  }),
  agent_turn: z.object({
    stepId,
    turn: z.int().min(1),
    text: z.string().max(maxJournaledTurnChars),
    toolCalls: z
      .array(
        z.object({ id: z.string().max(maxJournaledTurnChars), name: z.string().max(maxJournaledTurnChars), arguments: z.string().max(maxJournaledTurnChars) }),
      )
      .max(maxJournaledTurnCalls),
    promptTokens: z.number().min(0),
    completionTokens: z.number().min(0),
    cachedTokens: z.number().min(0).optional(),
    costUsd: z.number().min(0).optional(),
    cut: z.literal(true).optional(),
  }),
  agent_tool_result: z.object({
    stepId,
    turn: z.int().min(1),
    callId: z.string().max(maxJournaledTurnChars),
    content: z.string().max(maxJournaledResultChars),
    ran: z.literal(true).optional(),
    change: z
      .object({ outcome: z.enum(['applied', 'rejected', 'failed']), reason: z.string().max(textCaps.message).optional(), feedback: z.literal(true).optional() })
      .optional(),
    seen: z
      .record(z.string().max(maxJournaledTurnChars), z.string().max(64).nullable())
      .refine((seen) => Object.keys(seen).length <= maxJournaledSeenFiles, { message: `more than ${maxJournaledSeenFiles} files` })
      .optional(),
    cut: z.literal(true).optional(),
  }),
  step_deferred: z.object({ stepId }),
  step_completed: z.object({ stepId, result: z.unknown(), restored: z.boolean().optional(), keptChanges: z.array(z.string().min(1)).optional() }),
  step_failed: z.object({
    stepId,
    attempt,
    error: z.string(),
    disposition: z.enum(['retry', 'skip', 'fail']),
    retryInMs: z.number().optional(),
    replan: z.boolean().optional(),
  }),
  verification_failed: z.object({ stepId, attempt, diagnosis: z.string(), result: z.unknown().optional() }),
  checks_evaluated: z.object({ stepId, attempt, checks: z.array(z.object({ kind: z.enum(checkKinds), passed: z.boolean(), detail: z.string() })) }),
  step_skipped: z.object({ stepId, reason: z.string(), cause: z.enum(skipCauses).optional() }),
  replan_started: z.object({ stepId, reason: z.string() }),
  replan_completed: z.object({ plan: planSchema }),
  replan_failed: z.object({ stepId, reason: z.string() }),
  context_compacted: z.object({
    stepId,
    summary: z.string(),
    beforeTokens: z.number(),
    afterTokens: z.number(),
    method: z.enum(['append', 'llm', 'fallback']),
    fallbackReason: z.string().max(2_000).optional(),
  }),
  file_changed: z.object({ stepId, path: z.string().min(1), operation: z.enum(['write', 'edit', 'delete', 'createDirectory']) }),
  command_started: z.object({ stepId, argv: z.array(z.string()).min(1), cwd: z.string() }),
  file_withheld: z.object({ stepId, path: z.string().min(1) }),
  model_requested: z.object({ stepId }),
  // Counts, never negative: a line lowering what the run spent is damage, not a count (the engine journals none).
  model_called: z.object({
    stepId,
    model: z.string(),
    promptTokens: z.number().min(0),
    completionTokens: z.number().min(0),
    cachedTokens: z.number().min(0).optional(),
    costUsd: z.number().min(0).optional(),
    savedUsd: z.number().min(0).optional(),
    attempts: z.int().min(0).optional(),
    retried: spending.optional(),
  }),
  model_failed: spending.extend({ stepId, model: z.string(), attempts: z.int().min(0) }),
  run_waiting: z.object({ pending: z.array(pendingRequest) }),
  run_cancelled: z.object({ reason: z.string(), interrupted: z.literal(true).optional() }),
  run_completed: z.object({}),
  run_failed: z.object({ reason: z.string() }),
};

const base = z.object({ type: z.string(), runId: z.string(), seq: z.int().min(1), time: z.number() });

/**
 * Why `entry` is not a run event (the first problem, in words), or `undefined` when it has
 * the shape of one: an object with `type`, `runId`, a whole `seq` from 1 and `time`, and
 * the fields its type needs.
 */
export function runEventProblem(entry: unknown): string | undefined {
  const head = base.safeParse(entry);
  if (!head.success) return describe(head.error);
  const body = Object.hasOwn(bodies, head.data.type) ? bodies[head.data.type as RunEventType] : undefined;
  if (!body) return `"${head.data.type}" is not a type of run event`;
  const parsed = body.safeParse(entry);
  return parsed.success ? undefined : `${head.data.type}: ${describe(parsed.error)}`;
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}
