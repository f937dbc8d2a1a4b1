import { changesText, type AgentChanges } from './agentChanges';

/** An `agent` step's result without an output schema: the model's answer and what happened to the files. */
export interface AgentResult {
  answer: string;
  changes: AgentChanges;
}

/** True for a value shaped like an `AgentResult` (a journaled result included). */
export function isAgentResult(value: unknown): value is AgentResult {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const { answer, changes } = value as Partial<Record<keyof AgentResult, unknown>>;
  if (typeof answer !== 'string' || changes === null || typeof changes !== 'object') return false;
  const lists = changes as Partial<Record<keyof AgentChanges, unknown>>;
  return Array.isArray(lists.applied) && Array.isArray(lists.rejected) && Array.isArray(lists.failed);
}

/** An agent result as text: the answer, then the changes ("Changes:" and one line per outcome) when there were any. */
export function agentResultText(result: AgentResult): string {
  const changes = changesText(result.changes);
  return changes === '' ? result.answer : `${result.answer}\n\nChanges:\n${changes}`;
}
