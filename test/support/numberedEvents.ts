import type { RunEvent } from '../../src/core/engine/runEvents';

/** A run event without what `numberedEvents` adds: its run id, sequence number and time. */
export type EventBody = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, 'runId' | 'seq' | 'time'> : never) : never;

/** Numbers events of `runId` from `firstSeq`, one millisecond apart from `firstTime`. */
export function numberedEvents(runId: string, bodies: EventBody[], firstSeq = 1, firstTime = 1_000): RunEvent[] {
  return bodies.map((body, index) => ({ ...body, runId, seq: firstSeq + index, time: firstTime + index }));
}
