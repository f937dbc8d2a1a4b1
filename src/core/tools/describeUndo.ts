import type { UndoReport } from './undoRun';

/** One sentence for the user saying what `undoRun` restored and what it left alone, and why. */
export function describeUndo(report: UndoReport): string {
  const restored = `restored ${report.restored.length} file${report.restored.length === 1 ? '' : 's'}`;
  const refused = report.refused.map((entry) => `${entry.path} (${entry.reason})`);
  return refused.length > 0 ? `Undo ${restored}; left alone: ${refused.join('; ')}.` : `Undo ${restored}.`;
}
