import { contentHash } from '../plan/contentHash';
import type { Agent, Attachment, Plan, Step } from '../plan/planSchema';
import { classifyStepText } from './classifyStepText';
import { splitRequest } from './splitRequest';

/** Values the heuristic planner cannot derive from the text itself. */
export interface HeuristicPlanOptions {
  /** ISO-8601 creation time (default: the Unix epoch, so the function stays pure). */
  createdAt?: string;
  id?: string;
}

const maxObjectiveLength = 240;
const maxTitleLength = 80;
const urlPattern = /\bhttps?:\/\/[^\s<>"'`)\]]+[^\s<>"'`)\].,;:!?]/gi;
const imageExtension = /\.(png|jpe?g|gif|webp|svg|bmp)(\?|#|$)/i;

/** The agents the heuristic planner routes work to, by the tools a step hints at. */
export const heuristicAgents: Record<string, Agent> = {
  coder: { prompt: 'You change code and files in the workspace. Read before you write; keep changes minimal and explain them.', tools: ['read_file', 'list_files', 'search_text', 'write_file', 'edit_file', 'create_directory'] },
  researcher: { prompt: 'You find and summarize information in the workspace and in the attachments you are given.', tools: ['read_file', 'list_files', 'search_text'] },
  tester: { prompt: 'You write and run tests and report what passed and failed.', tools: ['read_file', 'list_files', 'search_text', 'write_file', 'edit_file', 'run_command'] },
};

/**
 * Plans without a model (DESIGN §5): splits the request on list bullets, numbered lines and
 * sentence boundaries followed by "then", "next", "after that", "finally", "and then";
 * classifies each part (tool call, agent with a tool hint, or clarification); attaches the
 * URLs each part mentions; and chains the steps in order. Pure and deterministic.
 * Throws a `RangeError` when the text holds no request.
 */
export function heuristicPlan(text: string, options: HeuristicPlanOptions = {}): Plan {
  const normalized = normalize(text);
  if (normalized === '') throw new RangeError('The request is empty. Describe the task you want planned, for example "Add a README, then run the tests".');
  const { preamble, parts } = splitRequest(normalized);

  const steps: Step[] = parts.map((part, index) => {
    const id = `S${String(index + 1).padStart(3, '0')}`;
    const classified = classifyStepText(part);
    const attachments = urlsIn(part).map(toAttachment);
    const step: Step = {
      id,
      title: titleOf(part),
      kind: classified.kind,
      dependsOn: index === 0 ? [] : [`S${String(index).padStart(3, '0')}`],
      onFailure: classified.flaky ? 'retry' : 'stop',
      maxAttempts: classified.flaky ? 3 : 1,
      critical: true,
      onVerificationFailure: 'stop',
      input: part,
    };
    if (classified.kind === 'tool') {
      step.tool = classified.tool;
      step.args = classified.args;
    } else if (classified.kind === 'agent') {
      step.agent = classified.agent;
    }
    if (attachments.length > 0) step.attachments = attachments;
    return step;
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
