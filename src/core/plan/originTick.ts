/**
 * The name of the origin line (`SourceOrigin.tick`, read by `readOrigin`) that has a step tick its checkbox in its task
 * file once it completes. Only an import the user asked to tick writes it (`run --tick`, the editor's setting).
 */
export const tickOriginName = 'Tick in the source file when done';

/** The name of the origin line saying the task was ticked in its file when it was imported: its step is skipped as done there. */
export const doneOriginName = 'Done in the source file';

/**
 * The first line of a step's origin block, as `readOrigin` finds it: `From tasks.md, line 12:` before the block's
 * `- Name: value` lines, `From tasks.md, line 12.` when it has none.
 */
export const originHead = /^From (.+), line (\d+)[:.]$/;

/**
 * `input` without the tick line of its origin block (the `- Name: value` lines after the last `From …, line N:` at its
 * end, read as `readOrigin` reads them), and the file that line named; `input` itself when it has none. A plan file or
 * a model's plan is no import the user asked to tick: a step whose input forged that line ticked a checkbox in any file
 * of the workspace, outside the files it said it would change, without asking under `--allow-file-changes` (attack).
 */
export function withoutTickRequest(input: string): { input: string; file?: string } {
  const lines = input.split('\n');
  for (let index = lines.length - 1; index >= 0; index--) {
    const head = originHead.exec(lines[index]!);
    if (head) {
      const isTick = (line: string): boolean => line.slice(2, line.indexOf(': ')) === tickOriginName;
      const block = lines.slice(index + 1);
      if (!block.some(isTick)) return { input };
      return { input: [...lines.slice(0, index + 1), ...block.filter((line) => !isTick(line))].join('\n'), file: head[1]! };
    }
    if (!lines[index]!.startsWith('- ')) return { input };
  }
  return { input };
}

/**
 * The task file a step's `input` says it was imported from: the file its origin block names (the `- Name: value` lines after
 * the last `From …, line N:` at its end, as `readOrigin` reads them); `undefined` when it has none.
 */
export function importedFrom(input: string): string | undefined {
  const lines = input.split('\n');
  for (let index = lines.length - 1; index >= 0; index--) {
    const head = originHead.exec(lines[index]!);
    if (head) return head[1]!;
    if (!lines[index]!.startsWith('- ')) return undefined;
  }
  return undefined;
}

/**
 * Whether a step's `input` says its task was ticked in its task file when it was imported (its origin block's
 * `doneOriginName` line): the step is skipped as done there, not as a step skipped in the plan.
 */
export function doneInSourceFile(input: string): boolean {
  const lines = input.split('\n');
  for (let index = lines.length - 1; index >= 0; index--) {
    if (originHead.test(lines[index]!)) return lines.slice(index + 1).includes(`- ${doneOriginName}: yes`);
    if (!lines[index]!.startsWith('- ')) return false;
  }
  return false;
}
