import { replayJournal } from '../engine/replayJournal';
import type { RunEvent } from '../engine/runEvents';
import type { RunStore } from '../runStorePorts';
import type { TraceExporter } from '../servicePorts';
import { runTrace, type TraceOptions } from './runTrace';
import type { TraceSpan } from './traceSpan';

/**
 * The trace of run `runId` read from its journal in `store` (checked as `replayJournal`
 * checks it: a journal that cannot be trusted throws its `JournalError`), or `undefined`
 * when the store has no such run.
 */
export async function loadRunTrace(store: RunStore, runId: string, options: TraceOptions): Promise<TraceSpan[] | undefined> {
  const journal = await store.load(runId);
  if (journal === undefined) return undefined;
  replayJournal(runId, journal);
  return runTrace(journal.entries as unknown as RunEvent[], options);
}

/**
 * Sends the traces of `runIds` (a run and its repair runs) to `exporter`, one trace per run;
 * a run the store lacks is left out. Resolves once the exporter took them.
 */
export async function exportRunTraces(store: RunStore, runIds: readonly string[], exporter: TraceExporter, options: TraceOptions): Promise<void> {
  for (const runId of runIds) {
    const spans = await loadRunTrace(store, runId, options);
    if (spans !== undefined && spans.length > 0) await exporter.export(spans);
  }
}
