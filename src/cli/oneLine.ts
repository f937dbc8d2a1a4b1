/**
 * Plan text (a step title, an objective) on one terminal line: every run of whitespace,
 * line breaks and the Unicode line separators included, becomes one space, so text from a
 * plan cannot print lines that look like the command line's own progress or questions.
 */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
