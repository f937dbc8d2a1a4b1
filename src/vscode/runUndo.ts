import type { UndoReport } from '../core/tools/undoRun';
import type { UndoneChanges } from '../core/tools/undoneChanges';

/**
 * What one Undo did (`fromStep`: Undo from here of that step) and what of its run is undone after it; `text` says it to
 * the user (`undoLines`: what was put back or left alone, then which steps' commands no Undo takes back).
 */
export interface RunUndo {
  runId: string;
  report: UndoReport;
  text: string;
  fromStep?: string;
  undone: UndoneChanges;
}
