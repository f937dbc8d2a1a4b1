import { oneLine } from './oneLine';

/** Most characters of one argument's value in a tool call line. */
const maxValueChars = 60;
/** Most characters of a whole tool call line. */
const maxLineChars = 240;

/**
 * A tool call as a person reads it in a step's output, on one line of at most 240 characters: the tool's name and
 * each argument as `key: value` (a string quoted, anything else as compact JSON), a value longer than 60 characters
 * or of several lines cut and followed by its size (`content: "# Notes…" (12 lines, 340 characters)`), so a written
 * file's content never runs sideways. Arguments that are not a JSON object are shown as they are, cut. Never throws.
 */
export function toolCallLine(name: string, argumentsJson: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsJson);
  } catch {
    return oneLine(`${name} ${argumentsJson}`, maxLineChars);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return oneLine(`${name} ${argumentsJson}`, maxLineChars);
  const fields = Object.entries(parsed).map(([key, value]) => `${key}: ${argumentText(value)}`);
  return oneLine(fields.length === 0 ? name : `${name} ${fields.join(', ')}`, maxLineChars);
}

function argumentText(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const lines = text.split('\n').length;
  const quote = (shown: string): string => (typeof value === 'string' ? JSON.stringify(shown) : shown);
  if (text.length <= maxValueChars && lines === 1) return quote(text);
  return `${quote(oneLine(text, maxValueChars))} (${lines > 1 ? `${lines} lines, ` : ''}${text.length} characters)`;
}
