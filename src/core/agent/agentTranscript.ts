import type { LlmToolCall, LlmUsage } from '../llm/llmTypes';

/** Most characters of one journaled agent turn (its text, and its calls' ids, names and arguments); a longer turn is journaled `cut`. */
export const maxJournaledTurnChars = 256 * 1024;

/** Most tool calls one journaled agent turn lists; a turn asking for more is journaled `cut`. */
export const maxJournaledTurnCalls = 256;

/** Most characters of one journaled tool result; a longer one is journaled `cut`, without its content. */
export const maxJournaledResultChars = 256 * 1024;

/** Most file versions one journaled tool result says its call saw; a call that saw more is journaled `cut`. */
export const maxJournaledSeenFiles = 16;

/** How a change tool's call ended, as the agent's `ChangeLog` records it. */
export interface AgentCallChange {
  outcome: 'applied' | 'rejected' | 'failed';
  reason?: string;
  /** A rejection that came with the user's feedback (`reason` is the feedback). */
  feedback?: true;
}

/** One model reply of an agent attempt: its text and the tool calls it asked for (none: the answer), and what it cost. */
export interface AgentTurnRecord {
  /** 1-based, in the attempt. */
  turn: number;
  text: string;
  toolCalls: LlmToolCall[];
  usage: LlmUsage;
  /** Absent when the call's cost was unknown. */
  costUsd?: number;
}

/** What one tool call of turn `turn` gave back to the model. */
export interface AgentResultRecord {
  turn: number;
  callId: string;
  /** The `tool` message content, as the model was given it. */
  content: string;
  /** The call ran (it counts as a tool call and for the loop guard); false for a call answered "not run" by a limit. */
  ran: boolean;
  /** Present for a change tool's call that changed something, or was rejected or failed. */
  change?: AgentCallChange;
  /**
   * The versions of files the call saw (`ToolContext.seenVersions`: path → sha256, `null` once forgotten), given back
   * with the result, so a whole-file write after a resume still refuses to drop a change made since the step read the file.
   */
  seen?: Record<string, string | null>;
}

/** A journaled turn of an interrupted attempt, with the results of its calls that were journaled, by call id. */
export interface RestoredTurn extends AgentTurnRecord {
  results: ReadonlyMap<string, AgentResultRecord>;
}

/**
 * The conversation of an agent attempt that a stop (a crash, a reload, a wait) interrupted, from its journal: its turns
 * in order, each whole (a turn journaled `cut` ends it), the last one perhaps with calls whose results were never journaled.
 */
export interface AgentTranscript {
  turns: readonly RestoredTurn[];
}

/**
 * Where an agent attempt journals its conversation as it goes, so a resumed run continues it instead of asking its model
 * again (docs/architecture.md §4): each reply before its calls run, each call's result once it ran.
 */
export interface AgentJournal {
  /** The conversation of the interrupted attempt this attempt continues; absent: it starts afresh. */
  readonly restored?: AgentTranscript;
  /** Journals the model's reply and stores it (before any of its calls run); `false` when the store refused it. */
  turn(record: AgentTurnRecord): Promise<boolean>;
  /** Journals what a call gave back. */
  result(record: AgentResultRecord): void;
}
