import { agentResultText, isAgentResult } from './agentResult';

/**
 * A value as text, the template convention (docs/architecture.md §3): a string as it is, an
 * agent step's result (`{ answer, changes }`) as its answer followed by its changes,
 * anything else as compact JSON; what JSON cannot show (undefined, a function, a BigInt, a
 * cycle) as `String(value)`, and a value that cannot even be converted to a string as
 * `[unprintable <type>]`. Never throws.
 */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    if (isAgentResult(value)) return agentResultText(value);
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return `[unprintable ${typeof value}]`;
    }
  }
}
