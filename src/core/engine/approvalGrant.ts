import type { Plan } from '../plan/planSchema';
import type { ApprovalRequest } from '../interactionPorts';
import { oneLine } from '../text/oneLine';
import type { ToolRegistry } from '../tools/tool';
import { inWriteScope } from '../workspace/writeScope';
import { stepWriteScope } from './stepWriteScope';

/** How far an "Approve the rest" choice reaches: the rest of one step, or of the whole run. */
export type GrantReach = 'step' | 'run';

/** A file approval waiting when the choice is made, by its request id (the fingerprint of the bytes it would write). */
export interface WaitingFileApproval {
  requestId: string;
  request: Extract<ApprovalRequest, { kind: 'file' }>;
}

/**
 * What an "Approve the rest of this step / run" choice covers, decided when the user makes
 * it and listed to them before (`describeGrant`): the file approvals waiting then, each
 * bound to its request id (what it would write, byte for byte), and, for each step of
 * the reach that has not ended, the later file changes to the files it declared (its
 * `writes`, or the path a file tool step names). Never a command, a tool call, a new
 * folder, a change outside a step's declared files, a step it does not name (a repair
 * step, another run's), nor a file it does not name.
 */
export interface ApprovalGrant {
  runId: string;
  reach: GrantReach;
  requestIds: ReadonlySet<string>;
  /** Each step it covers later changes of, with the files (patterns) it covers them for. */
  later: ReadonlyMap<string, readonly string[]>;
  /** Steps of the reach whose later changes it does not cover: they declared no files. */
  uncovered: readonly string[];
}

/**
 * The grant the user would give by choosing "Approve the rest" of `reach` from the request
 * of step `stepId` in run `runId` of `plan`: `waiting` are the file approvals of that run
 * waiting now, `ended` the steps that will ask nothing more (completed, failed, skipped).
 * Pure.
 */
export function makeGrant(input: {
  runId: string;
  reach: GrantReach;
  stepId: string;
  plan: Plan;
  tools: ToolRegistry;
  waiting: readonly WaitingFileApproval[];
  ended: ReadonlySet<string>;
}): ApprovalGrant {
  const { plan, reach, stepId } = input;
  const steps = plan.steps.filter((step) => (reach === 'step' ? step.id === stepId : !input.ended.has(step.id) || step.id === stepId));
  const named = new Set(steps.map((step) => step.id));
  const later = new Map<string, readonly string[]>();
  const uncovered: string[] = [];
  for (const step of steps) {
    const scope = stepWriteScope(step, plan, input.tools);
    if (scope.kind === 'patterns') later.set(step.id, scope.patterns);
    else if (scope.kind === 'everything') uncovered.push(step.id);
  }
  const requestIds = new Set(input.waiting.filter((item) => named.has(item.request.stepId)).map((item) => item.requestId));
  return { runId: input.runId, reach, requestIds, later, uncovered };
}

/**
 * Whether `grant` answers the approval `request` of run `runId` (with its id `requestId`)
 * without asking: a file change of the same run that was waiting when the grant was made,
 * the very same bytes; or a later file change of a step the grant names, inside the step's
 * declared files and its write scope. Everything else asks, a change the run was making when it was interrupted
 * (`interrupted`) too.
 */
export function grantCovers(grant: ApprovalGrant, runId: string | undefined, requestId: string | undefined, request: ApprovalRequest): boolean {
  if (runId !== grant.runId || request.kind !== 'file' || request.outsideScope || request.interrupted) return false;
  if (requestId !== undefined && grant.requestIds.has(requestId)) return true;
  const patterns = grant.later.get(request.stepId);
  if (patterns === undefined) return false;
  // Through a link the change lands elsewhere than it says: only what was listed by that name is covered.
  if (request.proposal.resolvedPath !== undefined) return false;
  return inWriteScope(request.proposal.path, patterns);
}

/** Most lines of a grant's list; the rest are counted. */
export const grantListLines = 12;

/**
 * What a grant covers, one line per step in the user's words: the step and its title, then its waiting changes (operation
 * and file, "now, as proposed") and the files its later changes may touch. At most `grantListLines` lines of steps, then
 * how many more; then what still asks. Step titles and paths on one line, bounded.
 */
export function describeGrant(grant: ApprovalGrant, waiting: readonly WaitingFileApproval[], plan: Plan): string[] {
  const title = (stepId: string): string => oneLine(plan.steps.find((step) => step.id === stepId)?.title ?? '', 60);
  const now = new Map<string, string[]>();
  for (const item of waiting) {
    if (!grant.requestIds.has(item.requestId)) continue;
    const stepId = item.request.stepId;
    now.set(stepId, [...(now.get(stepId) ?? []), `${item.request.operation} ${oneLine(item.request.proposal.path, 120)}`]);
  }
  const steps = [...new Set([...now.keys(), ...grant.later.keys()])];
  const items = steps.map((stepId) => {
    const patterns = grant.later.get(stepId);
    const parts = [
      ...(now.has(stepId) ? [`${now.get(stepId)!.join(', ')} now, as proposed`] : []),
      ...(patterns === undefined ? [] : [`later changes to ${patterns.map((pattern) => oneLine(pattern, 80)).join(', ')}`]),
    ];
    return `${stepId} ${title(stepId)}: ${parts.join('; ')}`;
  });
  const shown = items.length > grantListLines ? [...items.slice(0, grantListLines - 1), `… and ${items.length - grantListLines + 1} more`] : items;
  const still =
    grant.uncovered.length === 0
      ? []
      : [`Still asks: later changes of ${grant.uncovered.join(', ')} (no files declared)`];
  return [...shown, ...still];
}

/** What no grant covers, whatever its reach: said once beside the lists of `describeGrant`. */
export const grantNeverCovers =
  "Never covered, always asked: commands, other tools' actions (MCP servers, extensions), new folders, files a step did not name, steps a repair adds, a change a crash may already have made";
