import type { UndoReport } from '../core/tools/undoRun';
import type { UndoneChanges } from '../core/tools/undoneChanges';

/** What one Undo did (`fromStep`: Undo from here of that step) and what of its run is undone after it. */
export interface RunUndo {
  runId: string;
  report: UndoReport;
  fromStep?: string;
  undone: UndoneChanges;
}
