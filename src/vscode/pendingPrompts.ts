import * as vscode from 'vscode';
import type {
  ApprovalDecision,
  ApprovalRequest,
  ClarificationRequest,
  ManualStepOutcome,
  ManualStepRequest,
  ReviewDecision,
  ReviewRequest,
} from '../core/ports';

/** A question a running step waits on, with how to show it again. */
export type PendingPrompt =
  | { kind: 'approval'; stepId: string; request: ApprovalRequest; settle(decision: ApprovalDecision): void; show(): Promise<void> }
  | { kind: 'clarification'; stepId: string; request: ClarificationRequest; settle(answer: string): void; show(): Promise<void> }
  | { kind: 'review'; stepId: string; request: ReviewRequest; settle(decision: ReviewDecision): void; show(): Promise<void> }
  | { kind: 'manual'; stepId: string; request: ManualStepRequest; settle(outcome: ManualStepOutcome): void; show(): Promise<void> };

/**
 * Every request the active run waits on, by step id. Prompts dismissed by the user stay
 * here, so the tree, the status bar and the commands can answer or reopen them; the
 * `taskPlanner.approvalPending` context key drives the diff editor's Approve/Reject buttons.
 */
export class PendingPrompts implements vscode.Disposable {
  // Runs of different workspace folders may wait on steps of the same id at once: one queue per step id, oldest first.
  private readonly prompts = new Map<string, PendingPrompt[]>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a prompt is added or settled. */
  readonly onDidChange = this.changed.event;

  /** Registers `prompt`; it leaves when settled (through `approve`, `reject`, `answer`, `finishManual` or its own UI). */
  add(prompt: PendingPrompt): void {
    this.prompts.set(prompt.stepId, [...(this.prompts.get(prompt.stepId) ?? []), prompt]);
    this.update();
  }

  /** Drops `prompt` (default: the oldest prompt of `stepId`) without answering (its run was cancelled). */
  remove(stepId: string, prompt?: PendingPrompt): void {
    const queue = this.prompts.get(stepId) ?? [];
    const index = prompt === undefined ? 0 : queue.indexOf(prompt);
    if (index < 0 || index >= queue.length) return;
    const rest = queue.filter((_, at) => at !== index);
    if (rest.length > 0) this.prompts.set(stepId, rest);
    else this.prompts.delete(stepId);
    this.update();
  }

  /** The oldest prompt waiting on `stepId`. */
  get(stepId: string): PendingPrompt | undefined {
    return this.prompts.get(stepId)?.[0];
  }

  /** Every waiting prompt, oldest first. */
  list(): PendingPrompt[] {
    return [...this.prompts.values()].flat();
  }

  /**
   * Approves the approval or review of `stepId` (a review with the user's notes); false when
   * nothing of that kind waits, or when `requestId` (the request the user was shown, e.g. by
   * a diff tab) is given and the step now waits on another request.
   */
  approve(stepId: string, notes?: string, requestId?: string): boolean {
    const prompt = this.waiting(stepId, requestId);
    if (!prompt || prompt.kind === 'clarification' || prompt.kind === 'manual') return false;
    this.remove(stepId, prompt);
    if (prompt.kind === 'approval') prompt.settle({ approved: true });
    else prompt.settle({ approved: true, ...(notes ? { notes } : {}) });
    return true;
  }

  /** Rejects the approval or review of `stepId`, with the user's reason; `requestId` as for `approve`. */
  reject(stepId: string, reason?: string, requestId?: string): boolean {
    const prompt = this.waiting(stepId, requestId);
    if (!prompt || prompt.kind === 'clarification' || prompt.kind === 'manual') return false;
    this.remove(stepId, prompt);
    if (prompt.kind === 'approval') prompt.settle({ approved: false, ...(reason ? { reason } : {}) });
    else prompt.settle({ approved: false, ...(reason ? { notes: reason } : {}) });
    return true;
  }

  /** Answers the clarification of `stepId`; `requestId` as for `approve`. */
  answer(stepId: string, text: string, requestId?: string): boolean {
    const prompt = this.waiting(stepId, requestId);
    if (!prompt || prompt.kind !== 'clarification') return false;
    this.remove(stepId, prompt);
    prompt.settle(text);
    return true;
  }

  /** Marks the manual step `stepId` done (with a note) or failed (with a reason); false when it does not wait for that (or not on `requestId`, when given). */
  finishManual(stepId: string, outcome: ManualStepOutcome, requestId?: string): boolean {
    const prompt = this.waiting(stepId, requestId);
    if (!prompt || prompt.kind !== 'manual') return false;
    this.remove(stepId, prompt);
    prompt.settle(outcome);
    return true;
  }

  /** The oldest prompt of `stepId`, or with `requestId` the one of `stepId` on that request. */
  private waiting(stepId: string, requestId: string | undefined): PendingPrompt | undefined {
    const queue = this.prompts.get(stepId) ?? [];
    return requestId === undefined ? queue[0] : queue.find((prompt) => prompt.request.requestId === requestId);
  }

  dispose(): void {
    this.prompts.clear();
    this.changed.dispose();
  }

  private update(): void {
    const approvals = this.list().some((prompt) => prompt.kind === 'approval' && prompt.request.kind === 'file');
    void vscode.commands.executeCommand('setContext', 'taskPlanner.approvalPending', approvals);
    this.changed.fire();
  }
}
