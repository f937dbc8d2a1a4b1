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

/**
 * Count limits: most steps a plan holds, and most notes a step keeps (the latest; older ones are dropped). With the
 * text limits they bound what any caller of the tools can put in the Plan tree, the log and another agent's prompt.
 */
export const sessionCountLimits = { steps: 100, notes: 20 } as const;

const noPlan = 'There is no session plan yet; call planning_setup_plan with an objective and steps first.';

/** A new plan (replacing any other), steps numbered from S001. */
export function setupPlan(input: { objective: string; initialSteps?: readonly StepDraft[] }): SessionPlanResult {
  const objective = checkText('objective', input.objective, 1, sessionTextLimits.objective);
  const drafts = input.initialSteps ?? [];
  if (!Array.isArray(drafts)) throw new ToolValidationError('initialSteps must be a list of steps, each with a title and optional details.');
  if (drafts.length > sessionCountLimits.steps) {
    throw new ToolValidationError(
      `initialSteps has ${drafts.length} steps; a session plan holds at most ${sessionCountLimits.steps}. Group the work into fewer, larger steps. Nothing was changed.`,
    );
  }
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
  if (current.steps.length + input.steps.length > sessionCountLimits.steps) {
    throw new ToolValidationError(
      `The plan has ${current.steps.length} steps; ${input.steps.length} more would make ${current.steps.length + input.steps.length}, and a session plan holds at most ${sessionCountLimits.steps}. Group the work into fewer, larger steps. Nothing was added.`,
    );
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
    throw new ToolValidationError(`"${echoed(input.status)}" is not a step status; use one of ${sessionStepStatuses.join(', ')}.`);
  }
  const note = input.note === undefined ? undefined : checkText('note', input.note, 1, sessionTextLimits.note, 'leave the note out, or');
  const step = plan.steps[index] as SessionStep;
  const notes = note === undefined ? step.notes : [...step.notes, note].slice(-sessionCountLimits.notes);
  const dropped = note !== undefined && notes.length === step.notes.length;
  const marked: SessionStep = { ...step, status: input.status, notes };
  const steps = plan.steps.map((existing, at) => (at === index ? marked : existing));
  const allDone = steps.every((candidate) => candidate.status === 'done');
  const status: SessionPlanStatus = allDone ? 'completed' : 'active';
  let message = `${step.id} marked ${input.status}.`;
  if (status === 'completed' && plan.status !== 'completed') message += ' Every step is done: the plan is completed.';
  if (status === 'active' && plan.status === 'completed') message += ' The plan is active again.';
  if (dropped) message += ` Its oldest note was dropped: a step keeps its latest ${sessionCountLimits.notes} notes.`;
  return { plan: freeze({ ...plan, status, steps, version: plan.version + 1 }), message };
}

/** Abandons the plan and drops its steps. */
export function clearPlan(plan: SessionPlan | undefined): SessionPlanResult {
  if (!plan) throw new ToolValidationError(noPlan);
  if (plan.status === 'abandoned') throw new ToolValidationError('The plan is already abandoned; call planning_setup_plan to start a new one.');
  return { plan: freeze({ ...plan, status: 'abandoned', steps: [], version: plan.version + 1 }), message: 'Plan cleared: it is abandoned and has no steps.' };
}

/**
 * `saved` (a snapshot kept by a host, to resume from) checked as the reducers would have made it: its texts, counts,
 * statuses, ids and version within their rules. Returns a frozen copy; throws an `Error` naming the first problem.
 */
export function restorePlan(saved: SessionPlan): SessionPlan {
  try {
    const objective = checkText('objective', saved.objective, 1, sessionTextLimits.objective);
    if (!['active', 'completed', 'abandoned'].includes(saved.status)) {
      throw new ToolValidationError(`its status "${echoed(saved.status)}" is not a plan status.`);
    }
    if (!Number.isSafeInteger(saved.version) || saved.version < 1) throw new ToolValidationError('its version is not a whole number from 1.');
    const savedSteps: readonly SessionStep[] = saved.steps;
    if (!isList(savedSteps)) throw new ToolValidationError('its steps are not a list.');
    if (savedSteps.length > sessionCountLimits.steps) {
      throw new ToolValidationError(`it has ${savedSteps.length} steps; a session plan holds at most ${sessionCountLimits.steps}.`);
    }
    const steps = savedSteps.map((step, index): SessionStep => {
      if (typeof step.id !== 'string' || !/^S\d{3,6}$/.test(step.id)) {
        throw new ToolValidationError(`step ${index + 1} has the id "${echoed(step.id)}", not one such as S001.`);
      }
      if (!sessionStepStatuses.includes(step.status)) throw new ToolValidationError(`step ${step.id} has the status "${echoed(step.status)}".`);
      if (!isList(step.notes) || step.notes.length > sessionCountLimits.notes) {
        throw new ToolValidationError(`step ${step.id} has more than ${sessionCountLimits.notes} notes, or notes that are not a list.`);
      }
      const title = checkText(`${step.id}'s title`, step.title, 1, sessionTextLimits.title);
      const details = step.details === undefined ? undefined : optionalText(`${step.id}'s details`, step.details, sessionTextLimits.details);
      const notes = step.notes.map((note) => checkText(`a note of ${step.id}`, note, 1, sessionTextLimits.note));
      return { id: step.id, title, ...(details !== undefined ? { details } : {}), status: step.status, notes };
    });
    return freeze({ objective, status: saved.status, steps, version: saved.version });
  } catch (error) {
    throw new Error(`The saved session plan cannot be used: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
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
    throw new ToolValidationError(`There is no step "${echoed(rawId.trim())}". ${known ? `Existing steps: ${known}.` : 'The plan has no steps.'}`);
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
 * Trimmed text between `min` and `max` characters, printable ASCII only, on one line: every run of blanks holding a
 * tab or a line break becomes one space (so a note cannot forge a line of `renderSessionPlan`), and any other control
 * character (ESC, NUL, CR alone…, DEL) is refused. Length is checked first. Blank text where some is required is
 * refused as empty; `emptyHint` says what else the caller may do.
 */
function checkText(field: string, raw: unknown, min: number, max: number, emptyHint = ''): string {
  if (typeof raw !== 'string') throw new ToolValidationError(`${field} must be text.`);
  const lines = raw.trim().replace(/\r\n/g, '\n').split(/[\t\n]/);
  const text = lines.length === 1 ? (lines[0] ?? '') : lines.map((line) => line.trim()).filter((line) => line !== '').join(' ');
  const length = codePoints(text);
  if (length < min) throw new ToolValidationError(`${field} is empty; ${emptyHint ? `${emptyHint} ` : ''}give 1 to ${max} characters. Nothing was changed.`);
  if (length > max) throw new ToolValidationError(`${field} is ${length} characters long; the limit is ${max}. Shorten it.`);
  const offending = [...text].find((char) => char.charCodeAt(0) > 0x7f);
  if (offending !== undefined) {
    throw new ToolValidationError(`${field} must be plain ASCII; replace "${offending}" (${codePointName(offending)}) with ASCII characters.`);
  }
  const control = /[\u0000-\u001f\u007f]/.exec(text)?.[0];
  if (control !== undefined) {
    throw new ToolValidationError(`${field} contains a control character (${codePointName(control)}); write it as printable ASCII text on one line.`);
  }
  return text;
}

/** How many code points `text` has (a surrogate pair is one), counted without copying it. */
function codePoints(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0xdc00 || unit > 0xdfff) count++;
  }
  return count;
}

/** Whether `value` is an array (without narrowing a typed list to `any[]`). */
function isList(value: unknown): boolean {
  return Array.isArray(value);
}

/** `U+001B` for ESC. */
function codePointName(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A caller's value repeated in a refusal: at most 24 characters, anything but printable ASCII as `\uXXXX`. */
function echoed(value: unknown): string {
  const text = String(value);
  const shown = text.slice(0, 24).replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text.length > 24 ? `${shown}...` : shown;
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
