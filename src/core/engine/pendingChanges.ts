/**
 * The file changes of a run that are under way (recorded, not yet settled), and its model
 * calls (until their end is journaled). A run that stops (a halt, a cancel) or a step whose
 * time limit passes settles at once, but a write already started still lands and a call
 * already sent still spends; the run ends only once every such change has settled and every
 * such call has ended, so its summary names each change that landed and what each call
 * spent, and nothing is journaled after the run reported its end.
 */
export class PendingChanges {
  private count = 0;
  private waiters: (() => void)[] = [];

  begin(): void {
    this.count++;
  }

  end(): void {
    // Stryker disable next-line ConditionalExpression: an end without a begin is a caller's bug; never below zero either way.
    if (this.count > 0) this.count--;
    if (this.count > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves once no change is under way (at once when none is). */
  idle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
