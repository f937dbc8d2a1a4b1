import * as vscode from 'vscode';
import { grantCovers, type ApprovalGrant } from '../core/engine/approvalGrant';
import type { ApprovalRequest } from '../core/interactionPorts';
import { sameKey, type PendingPrompt, type PendingPrompts, type PromptKey } from './pendingPrompts';
import { promptKeyOf } from './proposalDocuments';

/** How long the first approval of a burst waits for the others that arrive with it, so the first of the plan is shown first. */
const gatherMs = 150;

/** Most grants kept (the oldest go first); each names its run, so an old one never answers another run. */
const maxGrants = 20;

type ApprovalPrompt = Extract<PendingPrompt, { kind: 'approval' }>;

/**
 * Presents the runs' approvals one at a time, in plan order (item 4 of issue 28): the
 * approval on screen (a diff editor, or a modal) stays until it is answered; meanwhile
 * the others wait, and `waitingCount` says how many. When it is answered, the waiting one
 * first in its plan (`orderOf`; then the oldest) is shown. What is on screen is never
 * swapped for another, so an Approve given to what is shown answers what was shown, however
 * parallel steps race. A modal dismissed without an answer (Escape) stays pending, reopened
 * from the status bar or the Plan tree, and lets the next one show. It also keeps the
 * "Approve the rest" grants the user gave (`grant`) and answers what they cover
 * (`grantCovers`) without asking.
 */
export class ApprovalQueue implements vscode.Disposable {
  private shown: ApprovalPrompt | undefined;
  private readonly dismissed = new WeakSet<PendingPrompt>();
  private grants: ApprovalGrant[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscription: vscode.Disposable;
  private readonly tabs: vscode.Disposable;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the approval on screen changes (the status bar's count follows it). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly pending: PendingPrompts,
    /** The position of a prompt's step in its run's plan (lower first); unknown steps last. */
    private readonly orderOf: (key: PromptKey) => number,
  ) {
    pending.setPresenter((prompt) => this.reopen(prompt));
    this.subscription = pending.onDidChange(() => {
      if (this.shown !== undefined && !this.pending.list().includes(this.shown)) {
        this.setShown(undefined);
        this.presentSoon(0);
      }
    });
    // A diff closed without an answer is put aside like a dismissed modal: it waits in the status bar and the
    // Plan tree, and the next approval (another run's, too) shows instead of every one waiting behind it.
    this.tabs = vscode.window.tabGroups.onDidChangeTabs(({ closed }) => {
      const shown = this.shown;
      if (shown === undefined || shown.request.kind !== 'file' || !this.pending.list().includes(shown)) return;
      const showing = (tab: vscode.Tab): boolean => showsPrompt(tab, shown);
      if (!closed.some(showing) || vscode.window.tabGroups.all.some((group) => group.tabs.some(showing))) return;
      this.dismissed.add(shown);
      this.setShown(undefined);
      this.presentSoon(0);
    });
  }

  /** An approval prompt just added to `pending`: shown now when nothing is, else when its turn comes. */
  offer(prompt: PendingPrompt): void {
    if (prompt.kind !== 'approval') return void prompt.show().then(undefined, () => undefined);
    if (this.shown === undefined) this.presentSoon(gatherMs);
  }

  /** Shows `prompt` again on request (the status bar, the tree): it becomes the one on screen. */
  reopen(prompt: PendingPrompt): Promise<void> {
    if (prompt.kind !== 'approval') return prompt.show();
    this.dismissed.delete(prompt);
    return this.present(prompt);
  }

  /** The approvals waiting besides the one on screen and `besides` (the one the status bar names when none is on screen). */
  waitingCount(besides?: PendingPrompt): number {
    return this.approvals().filter((prompt) => prompt !== this.shown && prompt !== besides).length;
  }

  /** The approval presented (its diff opened, its dialog open), if any; its diff may be behind another tab since (`visible`). */
  current(): PendingPrompt | undefined {
    return this.shown;
  }

  /**
   * The approval presented while the user can see it: a dialog while it is open, a file change while one of its diffs is
   * the tab in front of an editor group (not behind the plan panel or another file). What a bare Approve answers.
   */
  visible(): PendingPrompt | undefined {
    const shown = this.shown;
    if (shown === undefined || shown.request.kind !== 'file') return shown;
    return vscode.window.tabGroups.all.some((group) => group.activeTab !== undefined && showsPrompt(group.activeTab, shown)) ? shown : undefined;
  }

  /** Keeps `grant` for the rest of its run and approves every waiting request it covers; returns how many it approved. */
  grant(grant: ApprovalGrant): number {
    this.grants = [...this.grants.slice(-(maxGrants - 1)), grant];
    let approved = 0;
    for (const prompt of this.approvals()) {
      if (grantCovers(grant, prompt.key.runId, prompt.key.requestId, prompt.request) && this.pending.approve(prompt.key)) approved++;
    }
    return approved;
  }

  /** Whether a grant the user gave answers `request` of run `runId` without asking. */
  covers(runId: string | undefined, requestId: string | undefined, request: ApprovalRequest): boolean {
    return this.grants.some((grant) => grantCovers(grant, runId, requestId, request));
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.subscription.dispose();
    this.tabs.dispose();
    this.changed.dispose();
  }

  private setShown(prompt: ApprovalPrompt | undefined): void {
    this.shown = prompt;
    this.changed.fire();
  }

  private approvals(): ApprovalPrompt[] {
    return this.pending.list().filter((prompt): prompt is ApprovalPrompt => prompt.kind === 'approval');
  }

  private presentSoon(delayMs: number): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.shown !== undefined) return;
      const next = this.next();
      if (next !== undefined) void this.present(next);
    }, delayMs);
  }

  /** The waiting approval to show next: first in its plan, then the oldest; never one the user dismissed. */
  private next(): ApprovalPrompt | undefined {
    const waiting = this.approvals().filter((prompt) => !this.dismissed.has(prompt));
    // A stable sort keeps arrival order among steps of the same position.
    return waiting.map((prompt, index) => ({ prompt, index, order: this.orderOf(prompt.key) })).sort((a, b) => a.order - b.order || a.index - b.index)[0]
      ?.prompt;
  }

  private async present(prompt: ApprovalPrompt): Promise<void> {
    this.setShown(prompt);
    try {
      await prompt.show();
    } catch {
      // A prompt that cannot show stays pending: the tree and the status bar reopen it.
    }
    // A modal closed without an answer (a diff stays open until answered): the next one may show.
    if (prompt.request.kind !== 'file' && this.shown === prompt && this.pending.list().includes(prompt)) {
      this.dismissed.add(prompt);
      this.setShown(undefined);
      this.presentSoon(0);
    }
  }
}

/** Whether `tab` is a proposal diff of `prompt`'s request. */
function showsPrompt(tab: vscode.Tab, prompt: PendingPrompt): boolean {
  if (!(tab.input instanceof vscode.TabInputTextDiff)) return false;
  const key = promptKeyOf(tab.input.modified);
  return key !== undefined && sameKey(key, prompt.key);
}
