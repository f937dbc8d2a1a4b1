/**
 * How much one investigation before a plan may take; when one bound is reached the plan is written from what
 * was read. Its own module, free of the planner's imports, so the editor's activation code (settings) can read
 * the defaults without loading the tokenizer and the tools.
 */
export interface InvestigationBudget {
  /** Tool calls run (questions included); 0 investigates nothing. */
  maxToolCalls: number;
  /** Prompt and completion tokens of the investigation's requests. */
  maxTokens: number;
  /** Wall time, in seconds, measured with the `Clock`. */
  maxSeconds: number;
}

/** The budget hosts use unless the user set theirs (settings, CLI flags). */
export const defaultInvestigationBudget: InvestigationBudget = { maxToolCalls: 20, maxTokens: 60_000, maxSeconds: 90 };
