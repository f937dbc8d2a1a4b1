import type * as vscode from 'vscode';

/** A planning that waits in a chat conversation for the answer to its question. */
export interface HeldPlanning {
  /** Continues the planning with `answer` (`undefined`: the model chooses), reporting to this request's stream. */
  resume(answer: string | undefined, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult>;
  /** Stops the planning: its question will not be answered. */
  cancel(reason: string): void;
}

/** What `ChatResult.metadata` carries when the response ends with a planning question. */
export interface QuestionMetadata {
  command: 'plan';
  /** The id `PendingQuestions` holds the planning under. */
  question: string;
  /** The answers offered, each a follow-up the user can click. */
  suggestions: string[];
}

/** How long a question waits for the conversation's next message, and how many wait at once (the oldest is dropped). */
export const pendingQuestionLimits = { expiresMs: 15 * 60_000, maxHeld: 4 } as const;

/** Timers, injectable so tests use none. */
export interface QuestionTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: QuestionTimers = { set: (callback, ms) => setTimeout(callback, ms), clear: (handle) => clearTimeout(handle as NodeJS.Timeout) };

/**
 * The plannings that wait in chat conversations for an answer. A conversation has at most one:
 * its id is in the last response's metadata (`questionIdOf`), and whatever the conversation
 * sends next takes it (answers it, or drops it). Bounded: a question expires after
 * `expiresMs` and at most `maxHeld` wait at once; an expired or dropped planning is cancelled.
 */
export class PendingQuestions {
  private readonly held = new Map<string, { planning: HeldPlanning; timer: unknown }>();
  private count = 0;

  constructor(
    private readonly limits: { expiresMs: number; maxHeld: number } = pendingQuestionLimits,
    private readonly timers: QuestionTimers = realTimers,
  ) {}

  /** Holds `planning` until its conversation's next message; returns the id to put in the response's metadata. */
  hold(planning: HeldPlanning): string {
    const id = `q${++this.count}-${Date.now().toString(36)}`;
    const timer = this.timers.set(() => this.drop(id, 'The question was not answered in time.'), this.limits.expiresMs);
    this.held.set(id, { planning, timer });
    for (const oldest of this.held.keys()) {
      if (this.held.size <= this.limits.maxHeld) break;
      this.drop(oldest, 'Too many questions were waiting; the oldest was dropped.');
    }
    return id;
  }

  /** The planning waiting under `id`, no longer held; `undefined` when it expired, was dropped or never was. */
  take(id: string): HeldPlanning | undefined {
    const entry = this.held.get(id);
    if (entry === undefined) return undefined;
    this.timers.clear(entry.timer);
    this.held.delete(id);
    return entry.planning;
  }

  /** Cancels the planning waiting under `id`, if any. */
  drop(id: string, reason: string): void {
    this.take(id)?.cancel(reason);
  }

  /** How many wait now. */
  get size(): number {
    return this.held.size;
  }
}

/** The question id the conversation's last response ended with, if it ended with one. */
export function questionIdOf(history: vscode.ChatContext['history']): string | undefined {
  const last = history[history.length - 1];
  const metadata = last !== undefined && 'result' in last ? (last.result.metadata as Partial<QuestionMetadata> | undefined) : undefined;
  return typeof metadata?.question === 'string' ? metadata.question : undefined;
}

/**
 * The suggestions of a response that ended with a question, as follow-ups: clicking one sends it as the answer.
 * Suggestions come from the model: one the chat would read as something else than an answer (a command such as
 * `/run`, another participant `@…`, a reference `#…`) is offered as no follow-up (it stays listed in the response).
 */
export function questionFollowups(result: vscode.ChatResult): vscode.ChatFollowup[] {
  const metadata = result.metadata as Partial<QuestionMetadata> | undefined;
  if (typeof metadata?.question !== 'string' || !Array.isArray(metadata.suggestions)) return [];
  return metadata.suggestions
    .filter((suggestion): suggestion is string => typeof suggestion === 'string' && isPlainAnswer(suggestion))
    .map((suggestion) => ({ prompt: suggestion, label: suggestion }));
}

/** Whether the chat sends `text` as it is: it starts with none of the chat's command, participant and reference signs (after blanks or invisibles). */
function isPlainAnswer(text: string): boolean {
  return !/^[\s\p{Cf}]*[/@#]/u.test(text) && text.trim() !== '';
}
