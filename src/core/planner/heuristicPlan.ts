import { contentHash } from '../plan/contentHash';
import type { Agent, Attachment, Plan, Step } from '../plan/planSchema';
import { classifyStepText, type StepClassification } from './classifyStepText';
import { stepsOf } from './heuristicSteps';
import { orderParts, type PartTraits } from './orderParts';
import { pathsInText } from '../text/pathsInText';
import type { CommandContext } from './recognizeCommand';
import type { ToolCall } from './recognizeToolAction';
import { alternation, isCjk, parallelWords } from './requestWords';
import { splitRequest } from './splitRequest';
import { fixesCommandOutput, fixStep, withTestRuns } from './testAndFix';

/** Values the heuristic planner cannot derive from the text itself. */
export interface HeuristicPlanOptions {
  /** ISO-8601 creation time (default: the Unix epoch, so the function stays pure). */
  createdAt?: string;
  id?: string;
  /**
   * True when a language model (or a step runner) will run agent steps. Default false:
   * every step that is neither a tool call nor a question is `manual`, done by the user.
   */
  model?: boolean;
  /** What the request carries (a selection, files from the explorer): shown on every step that is not a tool call, never a step. */
  attachments?: readonly Attachment[];
  /** The project's test command (`projectTestCommand`): what "run the tests" runs. Without it, such a step is a person's or an agent's. */
  testCommand?: readonly string[] | undefined;
}

const maxObjectiveLength = 240;
// Words by which a step names what the step before it produced.
const refersBack = /\b(?:it|its|them|those|the results?|the output|the same file|that file|this file|the file|the changes|the findings|the matches)\b/i;
const parallel = new RegExp(
  String.raw`(?:^|[^\p{L}])(?:${alternation(parallelWords.filter((word) => !isCjk(word)))})(?![\p{L}])|${alternation(parallelWords.filter(isCjk))}`,
  'iu',
);
// A part that only says how to run the others ("Do these in parallel.") is not a step.
const directiveOnly = /^(?:(?:please\s+)?(?:do|run)\s+(?:these|them|both|all(?:\s+of\s+them)?|the\s+(?:steps|tasks|items))\s+)?(?:in\s+parallel|independently|at\s+the\s+same\s+time|simultaneously|concurrently)[.!]?$/i;
const checkWords = /^(?:run|execute|make sure|ensure|verify|check that|confirm|test that)\b/i;
const readTools: ReadonlySet<string> = new Set(['read_file', 'list_files', 'search_text']);

/** The agents the heuristic planner routes work to, by the tools a step hints at. */
export const heuristicAgents: Record<string, Agent> = {
  coder: {
    prompt: 'You change code and files in the workspace. Read before you write; keep changes minimal and explain them.',
    tools: ['read_file', 'list_files', 'search_text', 'write_file', 'edit_file', 'create_directory'],
  },
  researcher: {
    prompt: 'You find and summarize information in the workspace and in the attachments you are given.',
    tools: ['read_file', 'list_files', 'search_text'],
  },
  tester: {
    prompt: 'You write and run tests and report what passed and failed.',
    tools: ['read_file', 'list_files', 'search_text', 'write_file', 'edit_file', 'run_command'],
  },
};

/**
 * Plans without a model (docs/architecture.md §5): splits the request (`splitRequest`), makes
 * built-in tool calls of each part that is a plain tool action (a command only from backticks
 * or a known program with real arguments, `recognizeCommand`), clarifications of the questions
 * (`clarification`, asked first), and of the rest `manual` steps (or, with `options.model`,
 * agent steps); attaches the URLs each part mentions and the request's attachments, and the
 * checks that obviously show a step did its work (`toolCallChecks`, `workChecks`), and the
 * files each step may change (`writes`). The parts run in their order unless they are clearly
 * independent (`orderParts`). A command followed by a fix of what it reports ("Run the tests
 * and fix the failures") returns its output instead of failing, and the fix reads it and runs
 * the command again as its check (`fixStep`); "make the tests pass" runs `options.testCommand`
 * first. Pure and deterministic. Throws a `RangeError` when the text holds no request.
 */
export function heuristicPlan(text: string, options: HeuristicPlanOptions = {}): Plan {
  const normalized = normalize(text);
  if (normalized === '') throw new RangeError('The request is empty. Describe the task you want planned, for example "Add a README, then run the tests".');
  const split = splitRequest(normalized);
  const kept = split.parts.map((part, index) => ({ part, follows: split.follows[index]! })).filter(({ part }) => !directiveOnly.test(part));
  const listed = kept.length > 0 ? kept : split.parts.map((part, index) => ({ part, follows: split.follows[index]! }));
  const context = (parts: readonly string[], index: number): CommandContext => ({
    ...(options.testCommand ? { testCommand: options.testCommand } : {}),
    ...(index > 0 && refersBack.test(parts[index]!) ? { referentPaths: pathsInText(parts[index - 1]!) } : {}),
  });
  const classify = (parts: readonly string[]): StepClassification[] => parts.map((part, index) => classifyStepText(part, context(parts, index)));
  const firstParts = listed.map(({ part }) => part);
  const first = classify(firstParts);
  const { parts, follows } = withTestRuns(
    firstParts,
    listed.map(({ follows: ordered }) => ordered),
    options.testCommand,
    (index) => lastCommand(first[index]!) !== undefined,
  );
  const classified = parts.length === firstParts.length ? first : classify(parts);
  const fixes = parts.map(
    (part, index) => index > 0 && classified[index]!.kind === 'work' && fixesCommandOutput(part) && lastCommand(classified[index - 1]!) !== undefined,
  );
  const traits = parts.map((part, index): PartTraits => ({
    follows: follows[index]!,
    question: classified[index]!.kind === 'clarification',
    refersBack: index > 0 && refersBack.test(part),
    readOnly: isReadOnly(classified[index]!),
    checks: lastCommand(classified[index]!) !== undefined || checkWords.test(part),
    paths: pathsInText(part),
  }));
  const { order, dependsOn } = orderParts(traits, parallel.test(normalized));

  const steps: Step[] = [];
  let count = 0;
  const nextId = (): string => `S${String(++count).padStart(3, '0')}`;
  const exits: string[][] = parts.map(() => []);
  for (const index of order) {
    const after = [...new Set(dependsOn[index]!.flatMap((part) => exits[part]!))].sort();
    const making = { model: options.model === true, attachments: options.attachments ?? [], reported: fixes[index + 1] === true };
    const made = stepsOf(parts[index]!, classified[index]!, after, nextId, making);
    const command = fixes[index] ? lastCommand(classified[index - 1]!) : undefined;
    if (command) made.steps = [fixStep(made.steps[0]!, { id: exits[index - 1]!.at(-1)!, call: command }, making.model)];
    steps.push(...made.steps);
    exits[index] = made.exits;
  }

  const usedAgents = new Set(steps.map((step) => step.agent).filter((agent): agent is string => agent !== undefined));
  const agents = Object.fromEntries(Object.entries(heuristicAgents).filter(([name]) => usedAgents.has(name)));
  const objectiveSource = split.preamble ?? normalized;
  return {
    id: options.id ?? `plan-${contentHash(normalized)}`,
    version: 1,
    objective: objectiveSource.length <= maxObjectiveLength ? objectiveSource : `${objectiveSource.slice(0, maxObjectiveLength - 1)}…`,
    createdAt: options.createdAt ?? new Date(0).toISOString(),
    agents,
    steps,
  };
}

/** The last command a part runs, when it is a tool step of commands. */
function lastCommand(classified: StepClassification): ToolCall | undefined {
  const call = classified.kind === 'tool' ? classified.calls.at(-1) : undefined;
  return call?.tool === 'run_command' ? call : undefined;
}

function isReadOnly(classified: StepClassification): boolean {
  return classified.kind === 'tool' && classified.calls.every((call) => readTools.has(call.tool));
}

function normalize(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\u00A0/g, ' ')
    .split('\n')
    .map((line) => line.replace(/(?<![ \t])[ \t]+$/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
