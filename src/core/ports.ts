/**
 * The ports through which the core reaches the outside world. Each has an in-memory
 * fake in `test/fakes`, a VS Code implementation in `src/vscode` and a Node one in
 * `src/cli` or next to the core code that needs it. Nothing in `src/core` may reach the
 * outside world any other way.
 */

/** Time and waiting. `now()` is in milliseconds since the epoch. */
export interface Clock {
  now(): number;
  /** Resolves after `ms` milliseconds; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Structured trace output. Implementations must never log secrets. */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** Metadata of one workspace entry; `size` in bytes, `mtimeMs` in milliseconds. */
export interface FileStat {
  type: 'file' | 'directory';
  size: number;
  mtimeMs: number;
}

/**
 * The open workspace's files. Every path is workspace-relative with `/` separators;
 * implementations refuse any path that resolves outside the root (see `resolveInRoot`).
 */
export interface WorkspaceFs {
  /** A display name of the root (a folder path or URI). */
  readonly rootLabel: string;
  /**
   * The file's text (UTF-8). With `options.maxBytes`, a larger file is refused with a
   * `WorkspaceError` of code `too_large` before it is read.
   */
  readText(path: string, signal?: AbortSignal, options?: { maxBytes?: number }): Promise<string>;
  /** Writes atomically: a temporary file in the same directory, then a rename. */
  writeText(path: string, text: string, signal?: AbortSignal): Promise<void>;
  delete(path: string, signal?: AbortSignal): Promise<void>;
  createDirectory(path: string, signal?: AbortSignal): Promise<void>;
  /** Workspace-relative file paths matching `glob` (all files without one), sorted. */
  list(glob?: string, signal?: AbortSignal): Promise<string[]>;
  /** `undefined` when nothing exists at `path`. */
  stat(path: string, signal?: AbortSignal): Promise<FileStat | undefined>;
  /**
   * Where `path` leads once symbolic links are followed, workspace-relative (for a path
   * that does not exist yet: its existing part resolved, plus the rest). Refuses what the
   * other methods refuse. Optional: a workspace without links does not need it.
   */
  locate?(path: string, signal?: AbortSignal): Promise<string>;
}

/** A change to one file, shown to the user before it is applied. */
export interface FileProposal {
  path: string;
  /** `undefined` when the file does not exist yet. */
  currentText: string | undefined;
  /** `undefined` for a deletion. */
  proposedText: string | undefined;
  /** Unified diff of current → proposed. */
  diff: string;
  /** Where `path` really leads through symbolic links, when that differs from `path`. */
  resolvedPath?: string;
}

/**
 * Set by the engine on every request it passes on: the id of the pending request (see
 * `PendingRequest.id`). A UI that keeps a prompt around (a diff tab, a dialog) answers
 * with it, so an answer reaches only the request that was shown.
 */
interface RequestIdentity {
  requestId?: string;
}

/** What a step asks the user to allow: a file change, a command, or a new directory. */
export type ApprovalRequest = RequestIdentity &
  (
    | { kind: 'file'; stepId: string; title: string; operation: 'write' | 'edit' | 'delete'; proposal: FileProposal }
    | { kind: 'command'; stepId: string; title: string; argv: string[]; cwd: string; shell: boolean }
    | { kind: 'directory'; stepId: string; title: string; path: string }
  );

/** The user's answer to an approval request. */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
}

/** A question a step asks; `suggestions` are offered as quick answers. */
export interface ClarificationRequest extends RequestIdentity {
  stepId: string;
  title: string;
  question: string;
  suggestions?: string[];
}

/** A `human_review` step's request: approve or reject what was produced so far. */
export interface ReviewRequest extends RequestIdentity {
  stepId: string;
  title: string;
  prompt: string;
}

/** The user's review decision; `notes` become part of the step result. */
export interface ReviewDecision {
  approved: boolean;
  notes?: string;
}

/**
 * A `manual` step's request: a person does the work. `instructions` is the step's input
 * with its templates resolved (else its title); `attachments` name the request's files
 * and selections; `depends` holds each direct dependency's result as text, by step id,
 * each at most `manualResultPreviewLength` characters.
 */
export interface ManualStepRequest extends RequestIdentity {
  stepId: string;
  title: string;
  instructions: string;
  attachments: Attachment[];
  depends: Record<string, string>;
}

/** What the person says about a manual step: done (the note becomes the result), or not done and why. */
export type ManualStepOutcome = { done: true; note?: string } | { done: false; reason: string };

/**
 * The user. Every method may resolve to `'defer'` when nobody can answer now
 * (a non-interactive run); the engine then suspends that step and the run ends `waiting`.
 */
export interface Interaction {
  requestApproval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision | 'defer'>;
  askClarification(request: ClarificationRequest, signal: AbortSignal): Promise<string | 'defer'>;
  requestReview(request: ReviewRequest, signal: AbortSignal): Promise<ReviewDecision | 'defer'>;
  /** Waits until the person marked the step done or failed; may take as long as the work does. */
  requestManualStep(request: ManualStepRequest, signal: AbortSignal): Promise<ManualStepOutcome | 'defer'>;
}

/**
 * One journal line: a run event as plain JSON. `seq` starts at 1 and increases by one
 * per event of a run; `time` is milliseconds since the epoch (from `Clock`).
 */
export interface JournalEntry {
  type: string;
  runId: string;
  seq: number;
  time: number;
  [field: string]: unknown;
}

/** A folded run state saved so replay can start after `seq` instead of at the beginning. */
export interface JournalSnapshot {
  seq: number;
  time: number;
  state: unknown;
}

/** What `RunStore.load` found: every readable entry in order, the newest snapshot, and damage. */
export interface LoadedJournal {
  entries: JournalEntry[];
  snapshot?: JournalSnapshot;
  /** A last line cut short by a crash: skipped, reported here, and never fatal. */
  tornLine?: { lineNumber: number; text: string };
  /** The 1-based line of each entry in a line-based store, for messages naming a bad entry. */
  lines?: number[];
}

/** A stored run as listed by `RunStore.list`; `updatedAt` in milliseconds since the epoch. */
export interface RunListing {
  runId: string;
  updatedAt: number;
}

/**
 * Where runs are journaled (docs/architecture.md §4): an append-only list of events per run plus
 * periodic snapshots. Appends of one run are issued in order, one batch at a time.
 */
export interface RunStore {
  append(runId: string, entries: readonly JournalEntry[]): Promise<void>;
  /** Replaces the run's snapshot. The store must not keep a reference it later mutates. */
  writeSnapshot(runId: string, snapshot: JournalSnapshot): Promise<void>;
  /** `undefined` when the store has no run with this id. */
  load(runId: string): Promise<LoadedJournal | undefined>;
  /** Every stored run, most recently updated first. */
  list(): Promise<RunListing[]>;
}

import type { LlmChatRequest, LlmChatResponse } from './llm/llmTypes';
import type { Attachment } from './plan/planSchema';

/**
 * A language model (docs/architecture.md §5): OpenAI-compatible, VS Code LM, or a test fake. `chat`
 * honours `request.signal`, retries transient faults itself (through `Clock`), streams
 * through `request.onDelta` when `request.stream` is set, and rejects with an error whose
 * message is fit for the user and never contains an API key.
 */
export interface LlmClient {
  /** The configured model name (the response's `model` may name a snapshot of it). */
  readonly model: string;
  chat(request: LlmChatRequest): Promise<LlmChatResponse>;
}
