import type { Check, Step } from '../plan/planSchema';
import type { ToolCall } from './recognizeToolAction';

// "fix the failures", "fix what it reports", "resolve any type errors", "make them pass": the work is what the command before reported.
const fixesReported =
  /^(?:(?:if|when)\s+(?:any|some|it|they|one|the\s+tests?)\s+(?:of\s+them\s+)?fails?,?\s+)?(?:please\s+)?(?:(?:fix|repair|resolve|address|correct|handle)\b.*\b(?:failures?|failing|fails|failed|errors?|warnings?|problems?|issues?|findings|reports?|complaints?|it|them|those|these|what|anything|everything|broken|red)\b|(?:make|get)\s+(?:them|it|those|these|(?:the\s+|all\s+(?:the\s+)?)?(?:unit\s+)?tests?)\s+(?:pass|to\s+pass|passing|green)\b)/i;
// "make the tests pass", "fix the failing tests": running them is part of the request.
const greenTests =
  /^(?:please\s+)?(?:(?:make|get)\s+(?:the\s+|all\s+(?:the\s+)?)?(?:unit\s+)?tests?\s+(?:pass|to\s+pass|passing|green)|fix\s+(?:the\s+|all\s+(?:the\s+)?|any\s+)?(?:failing|broken|red)\s+(?:unit\s+)?tests?)\b/i;
/** The text of the test run put before a request for green tests: a command with the project's test command. */
export const testRunText = 'Run the tests';

/** Whether `text` asks to fix what the command of the part before reported ("Fix the failures", "Fix what it reports"). */
export function fixesCommandOutput(text: string): boolean {
  return fixesReported.test(text.trim());
}

/**
 * The parts with a test run put before each that asks for green tests without running them
 * ("Make the tests pass" → "Run the tests", "Make the tests pass"), when the project's test
 * command is known and the part before does not run a command already (`runsCommand`).
 */
export function withTestRuns(
  parts: readonly string[],
  follows: readonly boolean[],
  testCommand: readonly string[] | undefined,
  runsCommand: (index: number) => boolean,
): { parts: string[]; follows: boolean[] } {
  const out = { parts: [] as string[], follows: [] as boolean[] };
  parts.forEach((part, index) => {
    if (testCommand !== undefined && greenTests.test(part.trim()) && !(index > 0 && runsCommand(index - 1))) {
      out.parts.push(testRunText);
      out.follows.push(follows[index]!, true);
    } else {
      out.follows.push(follows[index]!);
    }
    out.parts.push(part);
  });
  return out;
}

/** The command step a fix reads: its id and its call. */
export interface FixedCommand {
  id: string;
  call: ToolCall;
}

/**
 * `step` (a person's or an agent's work, made from `text`) as the fix of what `command`
 * reported (docs/architecture.md §5): it waits for the command, whose step returns its output
 * instead of failing (`allowFailure`, so a red suite does not skip the fix), reads that output
 * in its input (`{{results.<id>.stdout}}`), and runs the command again as its check, so it is
 * done only when the command passes. It runs only when the command failed (`when`): after a
 * pass it is skipped as not needed, the condition saying so, and the run still completes. A person's fix (`model` false) is asked once; an agent's
 * is tried up to three times, each with what the failed check printed.
 */
export function fixStep(step: Step, command: FixedCommand, model: boolean): Step {
  const argv = command.call.args['argv'] as string[];
  const cwd = command.call.args['cwd'];
  const check: Check = { kind: 'command', argv: [...argv], ...(typeof cwd === 'string' ? { cwd } : {}) };
  const { agent, ...rest } = step;
  return {
    ...rest,
    kind: model ? 'agent' : 'manual',
    ...(model ? { agent: agent === 'tester' ? 'tester' : 'coder' } : {}),
    dependsOn: [...new Set([...step.dependsOn, command.id])],
    input: `${step.input ?? step.title}\n\nWhat \`${argv.join(' ')}\` printed (exit code {{results.${command.id}.exitCode}}):\n{{results.${command.id}.stdout}}\n{{results.${command.id}.stderr}}`,
    when: fixNeeded(command.id, argv),
    onFailure: 'stop',
    maxAttempts: model ? 3 : 1,
    critical: true,
    onVerificationFailure: model ? 'retry' : 'stop',
    checks: [...(step.checks ?? []), check],
  };
}

/**
 * The `when` of a fix of what the command of step `id` reported: true when it exited other
 * than 0 (a time-out or a signal included), else the words saying why the fix is not needed.
 */
export function fixNeeded(id: string, argv: readonly string[]): string {
  const result = `depends[${JSON.stringify(id)}]`;
  return `${result}.exitCode !== 0 || ${result}.timedOut === true || ${JSON.stringify(`\`${argv.join(' ')}\` passed, nothing to fix`)}`;
}
