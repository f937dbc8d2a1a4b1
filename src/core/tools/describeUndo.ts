import type { UndoReport } from './undoRun';

/** One sentence for the user saying what `undoRun` restored and what it left alone, and why. */
export function describeUndo(report: UndoReport): string {
  // A file the run changed twice is restored twice (newest change first), and is still one file.
  const count = new Set(report.restored).size;
  const restored = `restored ${count} file${count === 1 ? '' : 's'}`;
  const refused = report.refused.map((entry) => `${entry.path} (${entry.reason})`);
  return refused.length > 0 ? `Undo ${restored}; left alone: ${refused.join('; ')}.` : `Undo ${restored}.`;
}
