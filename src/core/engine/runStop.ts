/**
 * The one stop of a run (a cancel or a critical halt) shared by every running step: one
 * signal, and a race that settles a step's attempt at once when the run stops, whether or
 * not the attempt honours the signal. A race adds no listener to the shared signal: with
 * thousands of steps, per-step controllers or listeners dominate the engine's cost.
 */
export class RunStop {
  private readonly controller = new AbortController();
  private readonly racing = new Set<(reason: unknown) => void>();

  /** Aborted, with the stop's reason, once `stop` is called. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops the run: aborts the signal and rejects every pending race with `reason`. Only the first call counts. */
  stop(reason: unknown): void {
    // A second abort keeps the first reason, and the first stop left no race pending.
    this.controller.abort(reason);
    for (const reject of this.racing) reject(reason);
    this.racing.clear();
  }

  /**
   * Starts `work` and settles as it does, or rejects with the stop's reason as soon as the
   * run stops; when the run has already stopped, `work` is not started.
   */
  async race<T>(work: () => Promise<T>): Promise<T> {
    if (this.controller.signal.aborted) throw this.controller.signal.reason;
    let reject: (reason: unknown) => void = () => undefined;
    const stopped = new Promise<never>((_resolve, rejectStopped) => {
      reject = rejectStopped;
    });
    this.racing.add(reject);
    try {
      return await Promise.race([work(), stopped]);
    } finally {
      // Stryker disable next-line BlockStatement: only frees memory (a settled race is never rejected again).
      this.racing.delete(reject);
    }
  }
}
