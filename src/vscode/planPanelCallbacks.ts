import type { Plan } from '../core/plan/planSchema';

/**
 * What the plan panel asks of the planning and run flow that owns it (the panel itself
 * only shows the plan, edits it through `editPlan` and forwards the user's decisions).
 */
export interface PlanPanelCallbacks {
  /** The user started the reviewed plan (skipped steps stay in it, marked skipped). */
  onStart(plan: Plan): void | Promise<void>;
  /** The user cancelled: the running run, or the review. */
  onCancel(): void | Promise<void>;
  /** The user asked for a new version with feedback: the new plan, or `undefined` to keep the current one. */
  onRegenerate(feedback: string, plan: Plan): Promise<Plan | undefined>;
  /** The user wants to answer the pending approval, question or review of `stepId` in the editor. */
  onOpenApproval(stepId: string): void | Promise<void>;
  /** The user marked the step `stepId`, which is theirs to do, Done (`done`) or Failed. */
  onMarkManualStep(stepId: string, done: boolean): void | Promise<void>;
  /** The user asked to undo the finished run `runId`: a message saying what was restored or refused. */
  onUndoRun(runId: string): Promise<string>;
  /** Why Regenerate is not offered now (no model to take feedback), or `undefined`; read at each snapshot. */
  regenerateBlockedReason?(): string | undefined;
  /** The plan the panel shows changed: the user edited it, regenerated it or brought back a version (the Plan tree follows). */
  onPlanEdited?(plan: Plan): void;
}
