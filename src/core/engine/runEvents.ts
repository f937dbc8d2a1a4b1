import type { RunPause } from './runPauses';
import type {
  ApprovalDecision,
  ApprovalRequest,
  ClarificationRequest,
  ManualStepOutcome,
  ManualStepRequest,
  ReviewDecision,
  ReviewRequest,
} from '../interactionPorts';
import type { CheckKind, Plan, Step } from '../plan/planSchema';
import type { BudgetUsage } from '../llm/budget';
import type { ReplanRecord } from './replanRecord';
import { runStatuses, stepStatuses, type RequestKind, type RunStatus, type SkipCause, type StepStatus } from '../../shared/vocabulary';
import type { AskedKind } from '../tools/deferral';
import type { AgentChanges } from '../text/agentChanges';
import type { AgentCallChange } from '../agent/agentTranscript';
import type { LlmToolCall } from '../llm/llmTypes';
import type { ProgressPercent } from '../../shared/progressPercent';

export type { RunStatus, SkipCause, StepStatus } from '../../shared/vocabulary';

// Whether a step ever leaves each status within a run (docs/architecture.md §4).
const endsTheStep: Readonly<Record<StepStatus, boolean>> = {
  pending: false,
  blocked: false,
  ready: false,
  running: false,
  awaiting_approval: false,
  awaiting_clarification: false,
  awaiting_review: false,
  awaiting_user: false,
  awaiting_budget: false,
  completed: true,
  failed: true,
  skipped: true,
};

/** Statuses a step never leaves within a run. */
export const terminalStepStatuses: ReadonlySet<StepStatus> = new Set(stepStatuses.filter((status) => endsTheStep[status]));

// Where a run with each status stands: going on, ended for good, or stopped and resumable.
const runStatusEnds: Readonly<Record<RunStatus, 'live' | 'final' | 'resumable'>> = {
  running: 'live',
  waiting: 'resumable',
  completed: 'final',
  partial: 'final',
  failed: 'final',
  cancelled: 'resumable',
  interrupted: 'resumable',
};

/** Statuses of a run that ended for good: nothing follows in its journal, and resuming it returns its result. */
export const finalRunStatuses: ReadonlySet<RunStatus> = new Set(runStatuses.filter((status) => runStatusEnds[status] === 'final'));

/** Statuses of a run that stopped and may be resumed (only a `run_resumed` follows in its journal). */
export const resumableRunStatuses: ReadonlySet<RunStatus> = new Set(runStatuses.filter((status) => runStatusEnds[status] === 'resumable'));

/** The status of a step while it waits on a request of each kind (a budget pause waits like an approval). */
export const awaitingStatusOf: Record<RequestKind, StepStatus> = {
  approval: 'awaiting_approval',
  clarification: 'awaiting_clarification',
  review: 'awaiting_review',
  budget: 'awaiting_budget',
  manual: 'awaiting_user',
};

/** Statuses of a step that started an attempt and has not finished it. */
export const startedStepStatuses: ReadonlySet<StepStatus> = new Set(['running', ...Object.values(awaitingStatusOf)]);

/** A question the run waits on; `prompt` is what to show the user. */
export interface PendingRequest {
  /** `<stepId>@<12 hex digits of the fingerprint>` (see `requestIdOf`): what `resumeRun` answers may be keyed by. */
  id: string;
  /** sha256 of what the request shows the user (see `fingerprintRequest`); answers apply only to this exact request. */
  fingerprint: string;
  stepId: string;
  kind: RequestKind;
  prompt: string;
  /** The full request as the step made it (diff, argv, suggestions…). */
  request?: ApprovalRequest | ClarificationRequest | ReviewRequest | ManualStepRequest;
}

/** An answer to a manual step given to `resumeRun`: done (with a note) or not done (with a reason). */
export interface ManualAnswer {
  done: boolean;
  note?: string;
  reason?: string;
}

/**
 * An answer given to `resumeRun`, bound to the pending request it was given for: it
 * answers a request of step `stepId` only when that request has the same `fingerprint`.
 */
export type SuppliedAnswer = {
  stepId: string;
  fingerprint: string;
  /** The user's seal of this answer (`sealAnswers`), once journaled; a resume takes back only answers whose seal holds. */
  seal?: string;
} & (
  | { kind: 'approval'; decision: ApprovalDecision }
  | { kind: 'clarification'; answer: string }
  | { kind: 'review'; decision: ReviewDecision }
  | { kind: 'manual'; outcome: ManualStepOutcome }
);

/** Answers given to `resumeRun` and not yet used up by a finished step, by request id. */
export type SuppliedAnswers = Record<string, SuppliedAnswer>;

/** One step's state in a run. Times in milliseconds since the epoch. Never mutated: replaced. */
export interface StepState {
  id: string;
  status: StepStatus;
  /** Attempts started so far (1-based count). */
  attempts: number;
  /** When its first attempt started (its bar in the timeline starts there, earlier attempts included); absent before it. */
  firstStartedAt?: number;
  /** When its latest attempt started. */
  startedAt?: number;
  endedAt?: number;
  /** From the last `step_started` to the terminal event, in milliseconds. */
  durationMs?: number;
  result?: unknown;
  /** The last error message (execution, verification or policy). */
  error?: string;
  /** The last verification diagnosis. */
  diagnosis?: string;
  /** The feedback of the user's last rejection with feedback (Reject with feedback…) until the step completes. */
  feedback?: string;
  /** Why the step was skipped. */
  reason?: string;
  /** What made a skipped step skipped (its own failure, a rejection, a dependency…); see `skipCauses`. */
  skipCause?: SkipCause;
  /** The request this step waits on, while `awaiting_*`. */
  pending?: PendingRequest;
  /** True once the request was deferred (the run will end `waiting` on it). */
  deferred?: boolean;
  /** Set when the step failed under `onFailure`/`onVerificationFailure` `replan`. */
  replanRequested?: boolean;
  /** Where a started attempt stands ("turn 3 of 12: write_file"), from its last `step_progress`; gone once the step ends or starts again. */
  progress?: string;
  /** How far that attempt's work says it is, 0–100, from the same `step_progress`; absent: not known (indeterminate). */
  percent?: ProgressPercent;
  /** What the step's checks found after its last attempt that ran them, in the step's order. */
  checks?: CheckResult[];
  /** An agent step's file changes by outcome (also in its result unless it has an output schema). */
  changes?: AgentChanges;
  /** The files the step changed (changes that landed), in first-change order. */
  filesChanged?: string[];
  /** The files a step kept from an earlier run (`RunInputs.keptChanges`) changed there: changed by it for this run's guards, not by this run. */
  keptChanges?: string[];
  /** The commands (`commandKey`) the step's current attempt started. */
  commandsStarted?: string[];
  /** The commands (`commandKey`) an attempt of the step started before the run was interrupted: they may have run. */
  commandsInterrupted?: string[];
}

/** How a started command is named in a step's state: its working directory and argv. */
export function commandKey(argv: readonly string[], cwd: string): string {
  return JSON.stringify([cwd, ...argv]);
}

/** How one of a step's checks ended (the `checks` binding of predicates): `detail` says what was found. */
export interface CheckResult {
  kind: CheckKind;
  passed: boolean;
  detail: string;
}

/** A step of a plan a repair replaced, as it ended in that plan (`planVersion`). */
export interface ReplacedStep {
  planVersion: number;
  step: Step;
  state: StepState;
}

/** A snapshot of a run: what UIs render. Produced only by folding `RunEvent`s. */
export interface RunState {
  runId: string;
  status: RunStatus;
  plan: Plan | undefined;
  steps: Record<string, StepState>;
  /** Results of completed steps, by id. */
  results: Record<string, unknown>;
  /** Answers given at resume and not yet used up by a finished step. */
  supplied: SuppliedAnswers;
  startedAt?: number;
  endedAt?: number;
  /** Seq of the last event folded in (0 before any). */
  lastSeq: number;
  /** Why the run failed or was cancelled. */
  reason?: string;
  warnings: string[];
  /** How many times the run was resumed. */
  resumeCount: number;
  /** When the last event folded in happened (ms since the epoch): where a run a crash stopped stood still from. */
  lastEventAt?: number;
  /** The stretches between a stop and a resume, oldest first (`activeTime` leaves them out of durations and timelines). */
  pauses?: RunPause[];
  /** The rolling context summary agents are given (docs/architecture.md §5), as last compacted. */
  contextSummary?: string;
  /** LLM usage recorded when the budget ran out (restored into the tracker on resume). */
  budgetUsage?: BudgetUsage;
  /** Workspace-relative paths the run changed (any step, any attempt, resumed or not), in first-change order. */
  changedFiles?: string[];
  /** Workspace-relative files tools kept from the model (`file_withheld`: any step, resumed or not), each once, in first-kept order. */
  withheldFiles?: string[];
  /** Every model call of the run's steps, summed (from `model_called` events). */
  modelUsage?: BudgetUsage;
  /**
   * The steps a repair plan replaced (the failed ones, and those it dropped or rewrote), each
   * with its outcome before the repair, oldest first: the views keep showing them. Only in the
   * state `executeWithReplanning`'s events fold to, not in a journal's.
   */
  replacedSteps?: ReplacedStep[];
  /** In a repair run, the repairs that led to it (made by `executeWithReplanning`), from its `run_started`. */
  replanHistory?: ReplanRecord[];
  /** A failed run's `replan_failed` was folded in: no repair plan will come for it (see `awaitsRepair`). */
  repairGivenUp?: boolean;
}

/** What model attempts spent, as a journal event gives it; `costUsd` absent when the model's price is unknown. */
export interface JournaledSpending {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  costUsd?: number;
}

interface EventBase {
  runId: string;
  /** 1-based, increasing by one per event within a run. */
  seq: number;
  /** Milliseconds since the epoch, from the run's `Clock`. */
  time: number;
}

/**
 * How a plan was made from a request (its objective): by a model (named) or by the heuristic
 * planner without one, how many steps it had, and the critic's score (0-10) with its findings.
 */
export interface PlanOrigin {
  planner: 'model' | 'heuristic';
  model?: string;
  steps: number;
  critiqueScore: number;
  findings: number;
}

/** What `step_failed` decided: another attempt, a skip, or a terminal failure. */
export type FailureDisposition = 'retry' | 'skip' | 'fail';

/** How the rolling summary took a step's result (`CompactionResult.method`). */
type Compaction = 'append' | 'llm' | 'fallback';

/** Every event of a run (docs/architecture.md §4), journaled one per line. */
export type RunEvent = EventBase &
  (
    /** `replanHistory`: in a repair run started by `executeWithReplanning`, the repairs that led to it (journaled so a resumed run reports them). */
    | { type: 'run_started'; plan: Plan; replanHistory?: ReplanRecord[] }
    /** `warnings`: answers given to `resumeRun` that matched no pending request and were not used. */
    | { type: 'run_resumed'; supplied: SuppliedAnswers; journalWarning?: string; warnings?: string[] }
    /** How the run's plan was made (`PlanOrigin`), right after `run_started` when the host planned it from a request. */
    | ({ type: 'plan_generated' } & PlanOrigin)
    | { type: 'step_ready'; stepId: string }
    /** `continues`: the attempt continues the conversation of the agent attempt a stop interrupted (its `agent_turn` events). */
    | { type: 'step_started'; stepId: string; attempt: number; input?: unknown; continues?: true }
    /**
     * Where a running attempt stands, one short line (an agent's turn and tool call, a command started); the latest replaces the one before.
     * `percent`: how far the work says it is, 0–100 (`ProgressPercent`); absent: not known. Throttled by `progressThrottle`.
     */
    | { type: 'step_progress'; stepId: string; message: string; percent?: ProgressPercent }
    | { type: 'step_output'; stepId: string; text: string }
    | { type: 'step_warning'; stepId: string; message: string }
    | { type: 'approval_requested'; stepId: string; request: PendingRequest }
    | { type: 'clarification_requested'; stepId: string; request: PendingRequest }
    | { type: 'review_requested'; stepId: string; request: PendingRequest }
    /** A `manual` step waits for the person to do its work and mark it done or failed. */
    | { type: 'manual_requested'; stepId: string; request: PendingRequest }
    /** An LLM step was refused a call because a limit of `RunOptions.budget` is reached; `usage` is what the run had used. */
    | { type: 'budget_exhausted'; stepId: string; request: PendingRequest; usage: BudgetUsage }
    /**
     * `requestId` of the request answered; `given`: true when an answer given to `resumeRun` answered it;
     * `feedback`: a rejection's feedback (bounded), kept so a resumed run still gives it to the step.
     */
    | { type: 'request_answered'; stepId: string; kind: PendingRequest['kind']; requestId?: string; given?: boolean; feedback?: string }
    /** A step (a tool, or an agent's tool call) changed `path`: the change landed (its checkpoint settled `applied`). */
    | { type: 'file_changed'; stepId: string; path: string; operation: 'write' | 'edit' | 'delete' | 'createDirectory' }
    /** A tool of a step kept `path` (workspace-relative, where a link led) from the model: a credentials file, or inside `.git` (`withheldReason`). */
    | { type: 'file_withheld'; stepId: string; path: string }
    /** A step is about to start the program `argv` in `cwd` (workspace-relative); journaled durably before it starts. */
    | { type: 'command_started'; stepId: string; argv: string[]; cwd: string }
    /**
     * An attempt of a step's model call is about to be sent: stored before it is, so one a crash or a stop cut off
     * still counts as a request (each call's `model_called` or `model_failed` then says what its attempts spent).
     */
    | { type: 'model_requested'; stepId: string }
    /**
     * A step called the model once; `costUsd` absent when the model's price is unknown;
     * `cachedTokens` (of `promptTokens`, read from the provider's cache) and `savedUsd` absent when none.
     * `attempts`: the call's `model_requested` events (absent in journals written before them); `retried`: what its
     * failed attempts spent before the reply.
     */
    | {
        type: 'model_called';
        stepId: string;
        model: string;
        promptTokens: number;
        completionTokens: number;
        cachedTokens?: number;
        costUsd?: number;
        savedUsd?: number;
        attempts?: number;
        retried?: JournaledSpending;
      }
    /**
     * A step's model call ended without a reply (failed, cancelled, or refused by the budget) after its `attempts`
     * `model_requested` events; the rest is what its attempts spent (`requests` that reached the server).
     */
    | ({ type: 'model_failed'; stepId: string; model: string; attempts: number } & JournaledSpending)
    /**
     * An agent's model replied in turn `turn` of its attempt (1-based): its text and the tool calls it asked for (none:
     * its answer), and what the call spent. Stored before any of the calls runs. `cut`: too long to journal
     * (`maxJournaledTurnChars`): text and arguments left out, and a resumed run asks the model again from there.
     */
    | {
        type: 'agent_turn';
        stepId: string;
        turn: number;
        text: string;
        toolCalls: LlmToolCall[];
        promptTokens: number;
        completionTokens: number;
        cachedTokens?: number;
        costUsd?: number;
        cut?: true;
      }
    /**
     * What tool call `callId` of an agent's turn `turn` gave back to the model (`content`), whether it ran, and, for a
     * change tool's call, how the change ended. `cut`: too long to journal (`maxJournaledResultChars`): a resumed run runs it again.
     */
    | {
        type: 'agent_tool_result';
        stepId: string;
        turn: number;
        callId: string;
        content: string;
        ran?: true;
        change?: AgentCallChange;
        /** The file versions the call saw (`AgentResultRecord.seen`). */
        seen?: Record<string, string | null>;
        cut?: true;
      }
    | { type: 'step_deferred'; stepId: string }
    /** `changes`: the file changes an agent step's tool calls asked for, by outcome. */
    | { type: 'step_completed'; stepId: string; result: unknown; restored?: boolean; changes?: AgentChanges; keptChanges?: string[] }
    | { type: 'step_failed'; stepId: string; attempt: number; error: string; disposition: FailureDisposition; retryInMs?: number; replan?: boolean }
    /** `result`: what the attempt returned (capped; absent when nothing was), which the replanner is shown. */
    | { type: 'verification_failed'; stepId: string; attempt: number; diagnosis: string; result?: unknown }
    /** The step's checks ran after attempt `attempt`'s work; a failed one is then a `verification_failed`. */
    | { type: 'checks_evaluated'; stepId: string; attempt: number; checks: CheckResult[] }
    /** `cause`: absent in journals written before it was recorded (then read from `reason`, see `skipCauseOf`). */
    | { type: 'step_skipped'; stepId: string; reason: string; cause?: SkipCause }
    | { type: 'replan_started'; stepId: string; reason: string }
    | { type: 'replan_completed'; plan: Plan }
    /** No repair plan came (a limit was reached, no model, the replanner failed): `reason` says which and why. */
    | { type: 'replan_failed'; stepId: string; reason: string }
    /** The rolling summary folded in step `stepId`'s result: tokens before and after, and why a model summary was dropped. */
    | { type: 'context_compacted'; stepId: string; summary: string; beforeTokens: number; afterTokens: number; method: Compaction; fallbackReason?: string }
    | { type: 'run_waiting'; pending: PendingRequest[] }
    /** `interrupted`: stopped because the host went away (see `runInterruption`), not by the user. */
    | { type: 'run_cancelled'; reason: string; interrupted?: true }
    | { type: 'run_completed' }
    | { type: 'run_failed'; reason: string }
  );

/** The event types, for exhaustive handling and journal validation. */
export type RunEventType = RunEvent['type'];

/** The event that journals a request of each kind a step asks itself (a budget pause has `budget_exhausted`). */
export const requestedEventOf = {
  approval: 'approval_requested',
  clarification: 'clarification_requested',
  review: 'review_requested',
  manual: 'manual_requested',
} as const satisfies Record<AskedKind, RunEventType>;

/** A `RunEvent` before the engine stamps it with `runId`, `seq` and `time`. */
export type RunEventBody = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, keyof EventBase> : never) : never;

/** Stamps `body` in place with its run, `seq` and `time`, making it a `RunEvent`; `body` must be a fresh object the caller gives up. */
export function stampEvent(body: RunEventBody, runId: string, seq: number, time: number): RunEvent {
  return Object.assign(body, { runId, seq, time });
}
