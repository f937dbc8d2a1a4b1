import { ToolValidationError } from './toolValidationError';

/** Status of the session plan; `completed` is derived (every step done), `abandoned` comes from clearing. */
export type SessionPlanStatus = 'active' | 'completed' | 'abandoned';
/** Status of one step. */
export type SessionStepStatus = 'pending' | 'in_progress' | 'blocked' | 'done';
export const sessionStepStatuses: readonly SessionStepStatus[] = ['pending', 'in_progress', 'blocked', 'done'];

/** One step of the session plan. `notes` are appended by `markStep`, oldest first. */
export interface SessionStep {
  readonly id: string;
  readonly title: string;
  readonly details?: string;
  readonly status: SessionStepStatus;
  readonly notes: readonly string[];
}

/** An immutable snapshot of the session plan; `version` increases by one per change, from 1. */
export interface SessionPlan {
  readonly objective: string;
  readonly status: SessionPlanStatus;
  readonly steps: readonly SessionStep[];
  readonly version: number;
}

/** A step as callers describe it. */
export interface StepDraft {
  title: string;
  details?: string;
}

/** Every reducer returns the new snapshot and a one-line message for the caller. */
export interface SessionPlanResult {
  plan: SessionPlan;
  message: string;
}

/** Text limits in characters (code points), after trimming. */
export const sessionTextLimits = { objective: 240, title: 160, details: 512, note: 512 } as const;

const noPlan = 'There is no session plan yet; call planning_setup_plan with an objective and steps first.';

/** A new plan (replacing any other), steps numbered from S001. */
export function setupPlan(input: { objective: string; initialSteps?: readonly StepDraft[] }): SessionPlanResult {
  const objective = checkText('objective', input.objective, 1, sessionTextLimits.objective);
  const drafts = input.initialSteps ?? [];
  if (!Array.isArray(drafts)) throw new ToolValidationError('initialSteps must be a list of steps, each with a title and optional details.');
  const steps = buildSteps(drafts, 'initialSteps', 1);
  const plan = freeze({ objective, status: 'active', steps, version: 1 });
  const ids = steps.length === 0 ? 'no steps yet' : `${stepCount(steps.length)} (${steps.length === 1 ? steps[0]?.id : `${steps[0]?.id}-${steps.at(-1)?.id}`})`;
  return { plan, message: `Plan set up with ${ids}: ${objective}` };
}

/** Appends steps to an active plan, with ids continuing after the highest existing one. */
export function addSteps(plan: SessionPlan | undefined, input: { steps: readonly StepDraft[] }): SessionPlanResult {
  const current = requireEditable(plan, 'added to');
  if (!Array.isArray(input.steps) || input.steps.length === 0) {
    throw new ToolValidationError('Give at least one step to add (each with a title); nothing was added.');
  }
  const added = buildSteps(input.steps, 'steps', nextNumber(current.steps));
  const next = freeze({ ...current, steps: [...current.steps, ...added], version: current.version + 1 });
  return { plan: next, message: `Added ${stepCount(added.length)}: ${added.map((step) => step.id).join(', ')}.` };
}

/** Changes a step's title and/or details; refuses a call that would change nothing. */
export function updateStep(plan: SessionPlan | undefined, input: { stepId: string; title?: string; details?: string }): SessionPlanResult {
  const current = requireEditable(plan, 'updated in');
  const index = findStep(current, input.stepId);
  const step = current.steps[index] as SessionStep;
  if (input.title === undefined && input.details === undefined) {
    throw new ToolValidationError(`Nothing to update for ${step.id}: give a new title or new details.`);
  }
  const title = input.title === undefined ? step.title : checkText('title', input.title, 1, sessionTextLimits.title);
  const details = input.details === undefined ? step.details : optionalText('details', input.details, sessionTextLimits.details);
  if (title === step.title && details === step.details) {
    throw new ToolValidationError(`Nothing to update for ${step.id}: the title and details given are the same as now.`);
  }
  const updated: SessionStep = { id: step.id, title, ...(details !== undefined ? { details } : {}), status: step.status, notes: step.notes };
  const steps = current.steps.map((existing, at) => (at === index ? updated : existing));
  return { plan: freeze({ ...current, steps, version: current.version + 1 }), message: `Updated ${step.id}.` };
}

/** Sets a step's status, appending the note if any; completes or re-opens the plan to match. */
export function markStep(plan: SessionPlan | undefined, input: { stepId: string; status: SessionStepStatus; note?: string }): SessionPlanResult {
  if (!plan) throw new ToolValidationError(noPlan);
  if (plan.status === 'abandoned') {
    throw new ToolValidationError('The plan was abandoned; steps can no longer be marked. Call planning_setup_plan to start a new plan.');
  }
  const index = findStep(plan, input.stepId);
  if (!sessionStepStatuses.includes(input.status)) {
    throw new ToolValidationError(`"${String(input.status)}" is not a step status; use one of ${sessionStepStatuses.join(', ')}.`);
  }
  const note = input.note === undefined ? undefined : checkText('note', input.note, 1, sessionTextLimits.note, 'leave the note out, or');
  const step = plan.steps[index] as SessionStep;
  const marked: SessionStep = { ...step, status: input.status, notes: note === undefined ? step.notes : [...step.notes, note] };
  const steps = plan.steps.map((existing, at) => (at === index ? marked : existing));
  const allDone = steps.every((candidate) => candidate.status === 'done');
  const status: SessionPlanStatus = allDone ? 'completed' : 'active';
  let message = `${step.id} marked ${input.status}.`;
  if (status === 'completed' && plan.status !== 'completed') message += ' Every step is done: the plan is completed.';
  if (status === 'active' && plan.status === 'completed') message += ' The plan is active again.';
  return { plan: freeze({ ...plan, status, steps, version: plan.version + 1 }), message };
}

/** Abandons the plan and drops its steps. */
export function clearPlan(plan: SessionPlan | undefined): SessionPlanResult {
  if (!plan) throw new ToolValidationError(noPlan);
  if (plan.status === 'abandoned') throw new ToolValidationError('The plan is already abandoned; call planning_setup_plan to start a new one.');
  return { plan: freeze({ ...plan, status: 'abandoned', steps: [], version: plan.version + 1 }), message: 'Plan cleared: it is abandoned and has no steps.' };
}

/** "no steps", "1 step", "2 steps". */
export function stepCount(count: number): string {
  return count === 0 ? 'no steps' : count === 1 ? '1 step' : `${count} steps`;
}

/** The next step number: the highest numeric suffix of an `S###` id plus one (1 for none). */
export function nextNumber(steps: readonly SessionStep[]): number {
  let highest = 0;
  for (const step of steps) {
    const match = /^S(\d+)$/.exec(step.id);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return highest + 1;
}

/** `S001` for 1; at least three digits. */
export function stepIdFor(number: number): string {
  return `S${String(number).padStart(3, '0')}`;
}

function requireEditable(plan: SessionPlan | undefined, verb: string): SessionPlan {
  if (!plan) throw new ToolValidationError(noPlan);
  if (plan.status !== 'active') {
    const hint =
      plan.status === 'completed'
        ? 'mark a step back to re-open it, or call planning_setup_plan for a new plan'
        : 'call planning_setup_plan to start a new plan';
    throw new ToolValidationError(`The plan is ${plan.status}; steps can only be ${verb} an active plan. To continue, ${hint}.`);
  }
  return plan;
}

function findStep(plan: SessionPlan, rawId: unknown): number {
  if (typeof rawId !== 'string' || rawId.trim() === '') throw new ToolValidationError('stepId is blank; give the id of a step, such as S001.');
  const id = rawId.trim().toUpperCase();
  const index = plan.steps.findIndex((step) => step.id === id);
  if (index === -1) {
    const known = plan.steps.map((step) => step.id).join(', ');
    throw new ToolValidationError(`There is no step "${rawId.trim()}". ${known ? `Existing steps: ${known}.` : 'The plan has no steps.'}`);
  }
  return index;
}

function buildSteps(drafts: readonly StepDraft[], field: string, firstNumber: number): SessionStep[] {
  return drafts.map((draft, index) => {
    if (typeof draft !== 'object' || draft === null) throw new ToolValidationError(`${field}[${index}] must be an object with a title and optional details.`);
    const title = checkText(`${field}[${index}].title`, draft.title, 1, sessionTextLimits.title);
    const details = draft.details === undefined ? undefined : optionalText(`${field}[${index}].details`, draft.details, sessionTextLimits.details);
    return { id: stepIdFor(firstNumber + index), title, ...(details !== undefined ? { details } : {}), status: 'pending', notes: [] };
  });
}

/**
 * Trimmed text between `min` and `max` characters, ASCII only; length is checked first.
 * Blank text where some is required is refused as empty; `emptyHint` says what else the caller may do.
 */
function checkText(field: string, raw: unknown, min: number, max: number, emptyHint = ''): string {
  if (typeof raw !== 'string') throw new ToolValidationError(`${field} must be text.`);
  const text = raw.trim();
  const length = [...text].length;
  if (length < min) throw new ToolValidationError(`${field} is empty; ${emptyHint ? `${emptyHint} ` : ''}give 1 to ${max} characters. Nothing was changed.`);
  if (length > max) throw new ToolValidationError(`${field} is ${length} characters long; the limit is ${max}. Shorten it.`);
  const offending = [...text].find((char) => char.charCodeAt(0) > 0x7f);
  if (offending !== undefined) {
    throw new ToolValidationError(
      `${field} must be plain ASCII; replace "${offending}" (U+${(offending.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}) with ASCII characters.`,
    );
  }
  return text;
}

/** Like `checkText` with no minimum; blank text becomes `undefined`. */
function optionalText(field: string, raw: unknown, max: number): string | undefined {
  if (typeof raw === 'string' && raw.trim() === '') return undefined;
  return checkText(field, raw, 0, max);
}

function freeze(plan: { objective: string; status: SessionPlanStatus; steps: readonly SessionStep[]; version: number }): SessionPlan {
  for (const step of plan.steps) {
    Object.freeze(step.notes);
    Object.freeze(step);
  }
  Object.freeze(plan.steps);
  return Object.freeze(plan);
}
