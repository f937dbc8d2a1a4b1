import type { RunEvent, RunState } from '../core/engine/runEvents';

/**
 * An event of a run executing in any workspace folder (`RunController.onDidExecutionEvent`), with the snapshot it led to
 * and the execution it is part of: a view following one execution knows its events by `execution`, whichever folder
 * is current.
 */
export interface ExecutionEvent {
  event: RunEvent;
  state: RunState;
  /** The ids of the runs of its execution so far (its run, then its repair runs), `event.runId` among them. */
  execution: ReadonlySet<string>;
  /** Whether it executes in the current folder (the one the views follow). */
  inCurrentFolder: boolean;
}
