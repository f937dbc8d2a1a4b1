import type { Plan } from '../plan/planSchema';
import type { ApprovalRequest } from '../interactionPorts';
import { oneLine } from '../text/oneLine';
import { visibleControls } from '../../shared/visibleCharacters';
import type { ToolRegistry } from '../tools/tool';
import { inWriteScope } from '../workspace/writeScope';
import { stepWriteScope } from './stepWriteScope';
import { fingerprintRequest } from './requestFingerprint';

/** How far an "Approve the rest" choice reaches: the rest of one step, or of the whole run. */
export type GrantReach = 'step' | 'run';

/** A file approval waiting when the choice is made, by its request id (the fingerprint of the bytes it would write). */
export interface WaitingFileApproval {
  requestId: string;
  request: Extract<ApprovalRequest, { kind: 'file' }>;
}

/**
 * What an "Approve the rest of this step / run" choice covers, decided when the user makes
 * it and listed to them before (`lines`, see `describeGrant`): the file approvals waiting then, each
 * bound to its request id (what it would write, byte for byte), and, for each step of
 * the reach that has not ended, the later file changes to the files it declared (its
 * `writes`, or the path a file tool step names). Only what its list shows whole: a path or
 * pattern the list would cut, and the steps past its last line, are not covered (they ask).
 * Never a command, a tool call, a new folder, a change outside a step's declared files, a
 * step it does not name (a repair step, another run's), nor a file it does not name.
 */
export interface ApprovalGrant {
  runId: string;
  reach: GrantReach;
  requestIds: ReadonlySet<string>;
  /**
   * The full fingerprint of each waiting change it covers, by its request id: an id holds 12 hex digits of it (48 bits), which
   * a birthday search collides in about 2^24 tries, so a later proposal of other bytes under the same id is not covered.
   */
  fingerprints: ReadonlyMap<string, string>;
  /** Each step it covers later changes of, with the files (patterns) it covers them for. */
  later: ReadonlyMap<string, readonly string[]>;
  /** Steps of the reach whose later changes it does not cover: they declared no files. */
  uncovered: readonly string[];
  /** Steps of the reach with changes it does not cover, all or some, because its list could not show them whole. */
  unlisted: readonly string[];
  /** The list shown before the choice, one line per step covered (at most `grantListLines`, each at most `grantLineChars`). */
  lines: readonly string[];
}

/** Most lines of a grant's list; the rest are counted. */
export const grantListLines = 12;
/** Longest line of a grant's list, in characters: a dialog shows it whole. */
export const grantLineChars = 200;
/** Longest step title in a line, in characters (cut: a title is not what is covered). */
const titleChars = 60;
/** Longest file or pattern a line lists, in characters: a longer one is not listed, so not covered. */
const pathChars = 120;

/**
 * The grant the user would give by choosing "Approve the rest" of `reach` from the request
 * of step `stepId` in run `runId` of `plan`: `waiting` are the file approvals of that run
 * waiting now, `ended` the steps that will ask nothing more (completed, failed, skipped).
 * What it covers is made from the list it shows, so it covers nothing the list leaves out
 * or cuts (an outside attack: a pattern of 90 characters shown cut covered `package.json`).
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
  const uncovered: string[] = [];
  const unlisted = new Set<string>();
  const items: ListedStep[] = [];
  const fingerprintOf = new Map(input.waiting.map((item) => [item.requestId, fingerprintRequest({ kind: 'approval', request: item.request })]));
  for (const step of steps) {
    const scope = stepWriteScope(step, plan, input.tools);
    if (scope.kind === 'everything') uncovered.push(step.id);
    const waiting = input.waiting.filter((item) => item.request.stepId === step.id);
    const item = listedStep(`${step.id} ${oneLine(step.title, titleChars)}: `, waiting, scope.kind === 'patterns' ? scope.patterns : []);
    if (item.unlisted) unlisted.add(step.id);
    if (item.requestIds.length > 0 || item.patterns.length > 0) items.push({ ...item, stepId: step.id });
  }
  // The changes waiting now first: they are what the user was looking at.
  items.sort((a, b) => Number(b.requestIds.length > 0) - Number(a.requestIds.length > 0));
  const room = items.length > grantListLines ? grantListLines - 1 : grantListLines;
  for (const item of items.slice(room)) unlisted.add(item.stepId);
  const listed = items.slice(0, room);
  return {
    runId: input.runId,
    reach,
    requestIds: new Set(listed.flatMap((item) => item.requestIds)),
    fingerprints: new Map(listed.flatMap((item) => item.requestIds.map((id) => [id, fingerprintOf.get(id) ?? ''] as const))),
    later: new Map(listed.filter((item) => item.patterns.length > 0).map((item) => [item.stepId, item.patterns])),
    uncovered,
    unlisted: [...unlisted],
    lines: [...listed.map((item) => item.line), ...(items.length > room ? [`… and ${items.length - room} more (they still ask)`] : [])],
  };
}

/** One step's line of a grant's list and what it covers: only the changes and patterns it shows whole. */
interface ListedStep {
  stepId: string;
  line: string;
  requestIds: string[];
  patterns: string[];
  /** Some of the step's changes or patterns did not fit the line. */
  unlisted: boolean;
}

/** The line of a step (after `head`: its id and title) listing its `waiting` changes and later `patterns` while they fit. */
function listedStep(head: string, waiting: readonly WaitingFileApproval[], patterns: readonly string[]): Omit<ListedStep, 'stepId'> {
  const requestIds: string[] = [];
  const now: string[] = [];
  const later: string[] = [];
  let unlisted = false;
  const text = (): string => {
    const parts = [...(now.length > 0 ? [`${now.join(', ')} now, as proposed`] : []), ...(later.length > 0 ? [`later changes to ${later.join(', ')}`] : [])];
    return `${head}${parts.join('; ')}`;
  };
  const fits = (add: () => void, undo: () => void, path: string): boolean => {
    if (!shownWhole(path)) return false;
    add();
    if (text().length <= grantLineChars) return true;
    undo();
    return false;
  };
  // In order, up to the first that does not fit: the line is a prefix of what the step asks, read as such.
  for (const item of waiting) {
    const shown = `${item.request.operation} ${item.request.proposal.path}`;
    if (unlisted || !fits(() => now.push(shown), () => now.pop(), item.request.proposal.path)) unlisted = true;
    else requestIds.push(item.requestId);
  }
  for (const pattern of patterns) {
    if (unlisted || !fits(() => later.push(pattern), () => later.pop(), pattern)) unlisted = true;
  }
  return { line: text(), requestIds, patterns: later, unlisted };
}

/** Whether `path` is listed as it is: on one line, no longer than `pathChars`, nothing in it a list would escape. */
function shownWhole(path: string): boolean {
  return path.length <= pathChars && oneLine(path) === path && visibleControls(path) === path;
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
  // By its id and its whole fingerprint: the same bytes over the same file as when it was listed.
  if (requestId !== undefined && grant.requestIds.has(requestId) && grant.fingerprints.get(requestId) === fingerprintRequest({ kind: 'approval', request })) {
    return true;
  }
  const patterns = grant.later.get(request.stepId);
  if (patterns === undefined) return false;
  // Through a link the change lands elsewhere than it says: only what was listed by that name is covered.
  if (request.proposal.resolvedPath !== undefined) return false;
  return inWriteScope(request.proposal.path, patterns);
}

/**
 * What a grant covers, in the user's words: its list (`lines`: a step and its title, then its waiting changes, operation
 * and file, "now, as proposed", and the files its later changes may touch; then how many more steps still ask), then what
 * still asks.
 */
export function describeGrant(grant: ApprovalGrant): string[] {
  const still = [
    ...(grant.uncovered.length === 0 ? [] : [`later changes of ${grant.uncovered.join(', ')} (no files declared)`]),
    ...(grant.unlisted.length === 0 ? [] : [`changes of ${grant.unlisted.join(', ')} the list above does not show`]),
  ];
  return [...grant.lines, ...(still.length === 0 ? [] : [`Still asks: ${still.join('; ')}`])];
}

/** What no grant covers, whatever its reach: said once beside the lists of `describeGrant`. */
export const grantNeverCovers =
  "Never covered, always asked: commands, other tools' actions (MCP servers, extensions), new folders, files a step did not name, steps a repair adds, a change a crash may already have made";
