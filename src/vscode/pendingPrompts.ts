import * as vscode from 'vscode';
import type {
  ApprovalDecision,
  ApprovalRequest,
  ClarificationRequest,
  ManualStepOutcome,
  ManualStepRequest,
  ReviewDecision,
  ReviewRequest,
} from '../core/interactionPorts';

/**
 * Which request a prompt is: its step, the request's id (`requestId`, a fingerprint of what
 * was asked) and the run that asked (`runId`; absent for a question asked outside a run).
 * Two runs of different folders may wait on requests of the same step id, and even of the
 * same request id (the same change asked for twice): only the three together name one prompt.
 */
export interface PromptKey {
  stepId: string;
  requestId: string | undefined;
  runId: string | undefined;
}

/** A question a running step waits on, with how to show it again. */
export type PendingPrompt = { key: PromptKey; stepId: string } & (
  | { kind: 'approval'; request: ApprovalRequest; settle(decision: ApprovalDecision): void; show(): Promise<void> }
  | { kind: 'clarification'; request: ClarificationRequest; settle(answer: string): void; show(): Promise<void> }
  | { kind: 'review'; request: ReviewRequest; settle(decision: ReviewDecision): void; show(): Promise<void> }
  | { kind: 'manual'; request: ManualStepRequest; settle(outcome: ManualStepOutcome): void; show(): Promise<void> }
);

/** Whether `a` and `b` name the same request of the same run. */
export function sameKey(a: PromptKey, b: PromptKey): boolean {
  return a.stepId === b.stepId && a.requestId === b.requestId && a.runId === b.runId;
}

/**
 * Every request the runs wait on, oldest first, each by its `PromptKey`: an answer reaches
 * the prompt of the request and run it was given for, never another run's prompt of the
 * same step id. Prompts dismissed by the user stay here, so the tree, the status bar and
 * the commands can answer or reopen them; the `taskPlanner.approvalPending` context key
 * drives the diff editor's Approve/Reject buttons.
 */
export class PendingPrompts implements vscode.Disposable {
  private prompts: PendingPrompt[] = [];
  private presenter: ((prompt: PendingPrompt) => Promise<void>) | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a prompt is added or settled. */
  readonly onDidChange = this.changed.event;

  /** Registers `prompt`; it leaves when settled (through `approve`, `reject`, `answer`, `finishManual` or its own UI). */
  add(prompt: PendingPrompt): void {
    this.prompts = [...this.prompts, prompt];
    this.update();
  }

  /** Drops `prompt` without answering it (its run was cancelled). */
  remove(prompt: PendingPrompt): void {
    if (!this.prompts.includes(prompt)) return;
    this.prompts = this.prompts.filter((candidate) => candidate !== prompt);
    this.update();
  }

  /** The prompt of exactly `key` (step, request and run), if it still waits. */
  get(key: PromptKey): PendingPrompt | undefined {
    return this.prompts.find((prompt) => sameKey(prompt.key, key));
  }

  /** The prompts waiting on step `stepId`, of any run, oldest first. */
  ofStep(stepId: string): PendingPrompt[] {
    return this.prompts.filter((prompt) => prompt.stepId === stepId);
  }

  /**
   * Shows `prompt` again (the user asked: the status bar, the Plan tree, a command): through
   * the presenter when one is set (`ApprovalQueue`, which keeps one approval on screen at a time), else its own `show`.
   */
  reopen(prompt: PendingPrompt): Promise<void> {
    return this.presenter === undefined ? prompt.show() : this.presenter(prompt);
  }

  /** Sets who shows prompts again (see `reopen`). */
  setPresenter(presenter: (prompt: PendingPrompt) => Promise<void>): void {
    this.presenter = presenter;
  }

  /** Every waiting prompt, oldest first. */
  list(): PendingPrompt[] {
    return [...this.prompts];
  }

  /** Approves the approval or review of `key` (a review with the user's notes); false when that request does not wait (answered, or another kind). */
  approve(key: PromptKey, notes?: string): boolean {
    const prompt = this.get(key);
    if (!prompt || prompt.kind === 'clarification' || prompt.kind === 'manual') return false;
    this.remove(prompt);
    if (prompt.kind === 'approval') prompt.settle({ approved: true });
    else prompt.settle({ approved: true, ...(notes ? { notes } : {}) });
    return true;
  }

  /**
   * Rejects the approval or review of `key`, with the user's reason and, for an approval,
   * their feedback (Reject with feedback…: what the step should do instead); false as for `approve`.
   */
  reject(key: PromptKey, reason?: string, feedback?: string): boolean {
    const prompt = this.get(key);
    if (!prompt || prompt.kind === 'clarification' || prompt.kind === 'manual') return false;
    this.remove(prompt);
    if (prompt.kind === 'approval') prompt.settle({ approved: false, ...(reason ? { reason } : {}), ...(feedback ? { feedback } : {}) });
    else prompt.settle({ approved: false, ...(reason ? { notes: reason } : {}) });
    return true;
  }

  /** Answers the clarification of `key`; false when it does not wait. */
  answer(key: PromptKey, text: string): boolean {
    const prompt = this.get(key);
    if (!prompt || prompt.kind !== 'clarification') return false;
    this.remove(prompt);
    prompt.settle(text);
    return true;
  }

  /** Marks the manual step of `key` done (with a note) or failed (with a reason); false when it does not wait for that. */
  finishManual(key: PromptKey, outcome: ManualStepOutcome): boolean {
    const prompt = this.get(key);
    if (!prompt || prompt.kind !== 'manual') return false;
    this.remove(prompt);
    prompt.settle(outcome);
    return true;
  }

  dispose(): void {
    this.prompts = [];
    this.changed.dispose();
  }

  private update(): void {
    const approvals = this.prompts.some((prompt) => prompt.kind === 'approval' && prompt.request.kind === 'file');
    void vscode.commands.executeCommand('setContext', 'taskPlanner.approvalPending', approvals);
    this.changed.fire();
  }
}
