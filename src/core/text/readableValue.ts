import { isAgentResult } from './agentResult';
import { valueText } from './valueText';

/**
 * A value as a person reads it: a plain object other than an agent's result (a tool's result) as one `key: value`
 * line per field, string values raw (a file's content keeps its line breaks, its quotes unescaped) and others as
 * `valueText`; anything else as `valueText`. Never throws.
 */
export function readableValue(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || isAgentResult(value)) return valueText(value);
  try {
    return Object.entries(value)
      .map(([key, field]) => `${key}: ${valueText(field)}`)
      .join('\n');
  } catch {
    return valueText(value);
  }
}
