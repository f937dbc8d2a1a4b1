/**
 * Limits of the LLM work in a run (docs/architecture.md §4): how long a step agent may go on, and the
 * token budget of the rolling context summary its prompt carries. Times in milliseconds.
 */
export interface AgentLimits {
  /** Model calls one agent attempt may make, tool-call rounds included; at least 1. */
  maxTurns: number;
  /**
   * Wall time of one agent attempt or gate call (from the run's `Clock`), on top of any step
   * `timeoutMs`; `Infinity` sets no limit.
   */
  timeoutMs: number;
  /** Most tokens of the rolling summary of completed steps put into each step prompt. */
  summaryBudgetTokens: number;
  /** Most tokens of one tool result given back to the model (longer results are cut). */
  toolResultTokens: number;
  /** Tool calls run per model turn; the turn's further calls are answered "not run" without running. */
  maxToolCallsPerTurn: number;
  /**
   * Most UTF-8 bytes of tool results one request carries: the results of every turn of the
   * attempt so far, since each request sends them all again. A call once they are spent is
   * answered "not run"; a result that would go past them is replaced by a note saying so.
   */
  maxToolResultBytes: number;
}

/**
 * Defaults: 12 turns, 5 minutes, a 1 000-token summary, 4 000 tokens per tool result,
 * 16 tool calls per turn, 256 KiB of tool results per request.
 */
export const defaultAgentLimits: Readonly<AgentLimits> = {
  maxTurns: 12,
  timeoutMs: 300_000,
  summaryBudgetTokens: 1_000,
  toolResultTokens: 4_000,
  maxToolCallsPerTurn: 16,
  maxToolResultBytes: 256 * 1024,
};

/** `partial` over the defaults; throws a `RangeError` unless every limit is positive and all but `timeoutMs` finite. */
export function resolveAgentLimits(partial: Partial<AgentLimits> | undefined): AgentLimits {
  const limits = { ...defaultAgentLimits, ...partial };
  for (const [name, value] of Object.entries(limits)) {
    if (!(value > 0) || (name !== 'timeoutMs' && !Number.isFinite(value))) {
      throw new RangeError(`agentLimits.${name} must be a positive number, got ${String(value)}.`);
    }
  }
  return { ...limits, maxTurns: Math.max(1, Math.floor(limits.maxTurns)), maxToolCallsPerTurn: Math.max(1, Math.floor(limits.maxToolCallsPerTurn)) };
}
