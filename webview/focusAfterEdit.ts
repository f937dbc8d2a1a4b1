import type { PanelEdit } from '../src/shared/panelProtocol';

/** A focusable part of a step card: the card itself or one of its action buttons. */
export type StepControl = 'card' | 'edit' | 'up' | 'down' | 'skip' | 'remove';

/** Where focus goes: a step's card or button, or the Add step button (when no step is left). */
export type FocusTarget = { type: 'step'; stepId: string; control: StepControl } | { type: 'add' };

/** An edit sent from a step card, waiting for the plan version that shows it. */
export interface PendingFocus {
  edit: PanelEdit;
  /** The control the edit came from. */
  control: StepControl;
  /** The step's position when the edit was sent. */
  index: number;
  /** The plan version shown when the edit was sent; a newer one shows the edit. */
  planVersion: number;
}

/**
 * Where focus belongs once a newer plan version shows `pending`'s edit (`steps` in their
 * new order), or undefined when the element that had focus is still there (a skip, an
 * edit that did not apply). A removed step's focus goes to the step that took its place,
 * else the one before it, else Add step; a moved step keeps focus on the control it was
 * moved with, or on its card when that control is now disabled (moved to an end).
 */
export function focusAfterEdit(pending: PendingFocus, steps: readonly { id: string }[]): FocusTarget | undefined {
  const { edit } = pending;
  if (edit.type === 'removeStep') {
    if (steps.some((step) => step.id === edit.stepId)) return undefined;
    const next = steps[Math.min(pending.index, steps.length - 1)];
    return next ? { type: 'step', stepId: next.id, control: 'card' } : { type: 'add' };
  }
  if (edit.type === 'moveStep') {
    const index = steps.findIndex((step) => step.id === edit.stepId);
    if (index < 0) return undefined;
    const disabled = (pending.control === 'up' && index === 0) || (pending.control === 'down' && index === steps.length - 1);
    return { type: 'step', stepId: edit.stepId, control: disabled ? 'card' : pending.control };
  }
  return undefined;
}
