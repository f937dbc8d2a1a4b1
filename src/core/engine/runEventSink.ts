import { createJournalWriter, type JournalWriter } from './journalWriter';
import { applyRunEvent, cloneRunState } from './reduceRunEvent';
import { stampEvent, type RunEvent, type RunEventBody, type RunState } from './runEvents';
import type { ResolvedRunOptions, RunResult } from './runOptions';
import { runOutcome, toResult, type RunStopping } from './runOutcome';
import { errorMessage } from '../../shared/errorMessage';

/**
 * Where a run's events go: each is stamped (run id, next `seq`, time from `options.clock`),
 * applied to the run's state by the same reducer that folds journals, journaled, then sent
 * to every listener. A listener that throws is logged and never stops the run.
 */
export class RunEventSink {
  private readonly journal: JournalWriter;
  private seq: number;

  constructor(
    private readonly runId: string,
    /** The run's state, updated in place by every event. */
    private readonly state: RunState,
    private readonly options: Pick<ResolvedRunOptions, 'store' | 'snapshotEvery' | 'clock' | 'logger'>,
    private readonly listeners: ReadonlySet<(event: RunEvent) => void>,
  ) {
    this.journal = createJournalWriter(options.store, runId, options.snapshotEvery, () => cloneRunState(state));
    this.seq = state.lastSeq;
  }

  /** Publishes `body`, a fresh object the caller gives up: it is stamped in place (a copy per event would cost). */
  readonly emit = (body: RunEventBody): void => {
    const event = stampEvent(body, this.runId, ++this.seq, this.options.clock.now());
    applyRunEvent(this.state, event);
    this.journal.append(event);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.options.logger.error('A run event listener threw; the run goes on.', { error: errorMessage(error) });
      }
    }
  };

  /** Resolves once every event emitted so far went to the store: `false` when it refused them (see `JournalWriter.flush`). */
  readonly flush = (): Promise<boolean> => this.journal.flush();

  /** Emits the run's final event (see `runOutcome`; none when it has ended already), stores the journal and returns the run's result. */
  async finish(stopping: RunStopping): Promise<RunResult> {
    const final = runOutcome(this.state, stopping);
    if (final) this.emit(final);
    await this.journal.flush(cloneRunState(this.state));
    return toResult(this.state, this.journal.failure);
  }
}
