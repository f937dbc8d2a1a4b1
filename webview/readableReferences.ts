// A result's part as a reader names it: `{{results.S001.stdout}}` is what the step wrote when it runs (a newcomer read the placeholders as code).
const referenceParts: Readonly<Record<string, string>> = { stdout: 'output', stderr: 'error output', exitCode: 'exit code' };
const resultReference = /\{\{results\.([A-Za-z0-9_-]{1,64})\.(stdout|stderr|exitCode)\}\}/g;

/** `text` with each reference to a command's output, error output or exit code read as words ("[S001's output]"); the form edits the text as written. */
export function readableReferences(text: string): string {
  return text.replace(resultReference, (_whole, id: string, part: string) => `[${id}'s ${referenceParts[part] ?? part}]`);
}
