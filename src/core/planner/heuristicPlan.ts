import { contentHash } from '../plan/contentHash';
import type { Agent, Attachment, Plan, Step } from '../plan/planSchema';
import { classifyStepText, type StepClassification } from './classifyStepText';
import { toolCallChecks, workChecks } from './heuristicChecks';
import { pathsInText } from './pathsInText';
import type { ToolCall } from './recognizeToolAction';
import { splitRequest } from './splitRequest';

/** Values the heuristic planner cannot derive from the text itself. */
export interface HeuristicPlanOptions {
  /** ISO-8601 creation time (default: the Unix epoch, so the function stays pure). */
  createdAt?: string;
  id?: string;
  /**
   * True when a language model (or a step runner) will run agent steps. Default false:
   * every step that is not a tool call is `manual`, done by the user.
   */
  model?: boolean;
  /** What the request carries (a selection, files from the explorer): shown on every step that is not a tool call, never a step. */
  attachments?: readonly Attachment[];
}

const maxObjectiveLength = 240;
const maxTitleLength = 80;
const urlPattern = /\bhttps?:\/\/[^\s<>"'`)\]]+[^\s<>"'`)\].,;:!?]/gi;
const imageExtension = /\.(png|jpe?g|gif|webp|svg|bmp)(\?|#|$)/i;
// Words by which a step names what the step before it produced.
const refersBack = /\b(?:it|its|them|those|the results?|the output|the same file|that file|this file|the file|the changes|the findings|the matches)\b/i;

/** The built-in tools that change the file their `path` names. */
const changesFiles: ReadonlySet<string> = new Set(['write_file', 'edit_file', 'delete_file', 'create_directory']);

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
 * Plans without a model (docs/architecture.md §5): splits the request (`splitRequest`), makes a built-in
 * tool call of each part that is a plain tool action, and of the rest `manual` steps (or,
 * with `options.model`, agent steps and clarifications); attaches the URLs each part
 * mentions and the request's attachments, and the checks that obviously show a step did
 * its work (`toolCallChecks`, `workChecks`: a file written exists, a file deleted is gone), and the files
 * each step may change (`writes`: a file tool's path, the paths a writing agent's text names). Steps are chained only where the text orders
 * them (a sequencing word, a numbered list, "and" between two actions), where a step
 * refers to the one before ("it", "the results"), or where two steps name the same path;
 * other steps run in parallel. Pure and deterministic. Throws a `RangeError` when the
 * text holds no request.
 */
export function heuristicPlan(text: string, options: HeuristicPlanOptions = {}): Plan {
  const normalized = normalize(text);
  if (normalized === '') throw new RangeError('The request is empty. Describe the task you want planned, for example "Add a README, then run the tests".');
  const { preamble, parts, follows } = splitRequest(normalized);

  const steps: Step[] = [];
  let count = 0;
  const nextId = (): string => `S${String(++count).padStart(3, '0')}`;
  let group: string[] = [];
  let base: string[] = [];
  let previous: string[] = [];
  const lastByPath = new Map<string, string[]>();
  parts.forEach((part, index) => {
    const classified = classifyStepText(part);
    const paths = pathsInText(part);
    let dependsOn: string[];
    if (follows[index]) {
      dependsOn = group;
      base = group;
      group = [];
    } else if (index > 0 && refersBack.test(part)) {
      dependsOn = previous;
      group = group.filter((id) => !previous.includes(id));
    } else {
      dependsOn = base;
    }
    const sharing = paths.flatMap((path) => lastByPath.get(path) ?? []);
    dependsOn = [...new Set([...dependsOn, ...sharing])];

    const made = stepsOf(part, classified, dependsOn, nextId, options);
    steps.push(...made.steps);
    group = [...group, ...made.exits];
    previous = made.exits;
    for (const path of paths) lastByPath.set(path, made.exits);
  });

  const usedAgents = new Set(steps.map((step) => step.agent).filter((agent): agent is string => agent !== undefined));
  const agents = Object.fromEntries(Object.entries(heuristicAgents).filter(([name]) => usedAgents.has(name)));
  const objectiveSource = preamble ?? normalized;
  return {
    id: options.id ?? `plan-${contentHash(normalized)}`,
    version: 1,
    objective: objectiveSource.length <= maxObjectiveLength ? objectiveSource : `${objectiveSource.slice(0, maxObjectiveLength - 1)}…`,
    createdAt: options.createdAt ?? new Date(0).toISOString(),
    agents,
    steps,
  };
}

/** The steps of one part and the ids a later step that follows it waits for. */
function stepsOf(
  part: string,
  classified: StepClassification,
  dependsOn: string[],
  nextId: () => string,
  options: HeuristicPlanOptions,
): { steps: Step[]; exits: string[] } {
  // A person's step is never retried: they say it is done, or why it cannot be.
  const retried = classified.flaky && (classified.kind === 'tool' || options.model === true);
  const common = { onFailure: retried ? 'retry' : 'stop', maxAttempts: retried ? 3 : 1, critical: true, onVerificationFailure: 'stop', input: part } as const;
  if (classified.kind === 'tool') {
    const steps: Step[] = [];
    for (const call of classified.calls) {
      const id = nextId();
      const after = classified.inOrder && steps.length > 0 ? [steps[steps.length - 1]!.id] : dependsOn;
      const step: Step = {
        id,
        title: classified.calls.length === 1 ? titleOf(part) : titleOfCall(call),
        kind: 'tool',
        dependsOn: [...after],
        tool: call.tool,
        args: call.args,
        ...common,
      };
      const checks = toolCallChecks(call);
      if (checks.length > 0) step.checks = checks;
      const path = call.args['path'];
      if (changesFiles.has(call.tool) && typeof path === 'string') step.writes = [path];
      steps.push(step);
    }
    return { steps, exits: classified.inOrder ? [steps[steps.length - 1]!.id] : steps.map((step) => step.id) };
  }
  const attachments = mergeAttachments(urlsIn(part).map(toAttachment), options.attachments ?? []);
  const id = nextId();
  const step: Step = { id, title: titleOf(part), kind: 'manual', dependsOn: [...dependsOn], ...common };
  if (options.model) {
    step.kind = classified.kind === 'work' ? 'agent' : 'clarification';
    if (classified.kind === 'work') step.agent = classified.agent;
    // An agent that may write is scoped to the files its text names; naming none, it runs alone among the writers.
    const named = pathsInText(part);
    if (classified.kind === 'work' && classified.agent !== 'researcher' && named.length > 0) step.writes = named;
  }
  if (attachments.length > 0) step.attachments = attachments;
  const checks = classified.kind === 'work' ? workChecks(part) : [];
  if (checks.length > 0) step.checks = checks;
  return { steps: [step], exits: [id] };
}

/** The title of one of several calls a part made: "Run npm test", "Read src/a.ts", "Delete b.js". */
function titleOfCall(call: ToolCall): string {
  const what =
    call.tool === 'run_command'
      ? `Run ${(call.args['argv'] as string[]).join(' ')}`
      : `${call.tool === 'delete_file' ? 'Delete' : 'Read'} ${String(call.args['path'])}`;
  return what.length <= maxTitleLength ? what : `${what.slice(0, maxTitleLength - 1)}…`;
}

function mergeAttachments(...lists: (readonly Attachment[])[]): Attachment[] {
  const byRef = new Map<string, Attachment>();
  for (const attachment of lists.flat()) if (!byRef.has(attachment.ref)) byRef.set(attachment.ref, { ...attachment });
  return [...byRef.values()];
}

function normalize(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\u00A0/g, ' ')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function urlsIn(text: string): string[] {
  return [...new Set(text.match(urlPattern) ?? [])];
}

function toAttachment(url: string): Attachment {
  return { kind: imageExtension.test(url) ? 'image' : 'link', ref: url };
}

function titleOf(part: string): string {
  const firstLine = part.split('\n')[0]!.replace(/\s+/g, ' ').trim().replace(/[.;:]$/, '');
  return firstLine.length <= maxTitleLength ? firstLine : `${firstLine.slice(0, maxTitleLength - 1)}…`;
}
