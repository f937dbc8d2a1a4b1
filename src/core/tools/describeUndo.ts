import type { UndoReport } from './undoRun';

/**
 * One sentence for the user saying what `undoRun` put back, what it removed because the run had created it, and
 * what it left alone, and why. A file the run created is never called "restored".
 */
export function describeUndo(report: UndoReport): string {
  // A file the run changed twice is restored twice (newest change first), and is still one file.
  const removedPaths = new Set(report.removed.map((entry) => entry.path));
  const restoredCount = new Set(report.restored.filter((path) => !removedPaths.has(path))).size;
  const files = report.removed.filter((entry) => entry.kind === 'file').length;
  const folders = report.removed.length - files;
  const removedParts = [...(files > 0 ? [plural(files, 'file')] : []), ...(folders > 0 ? [plural(folders, 'folder')] : [])];
  const removed = removedParts.length > 0 ? `removed ${removedParts.join(' and ')} the run created` : '';
  const restored = restoredCount > 0 ? `restored ${plural(restoredCount, 'file')}` : '';
  const done = [restored, removed].filter((part) => part !== '').join(' and ');
  const refused = report.refused.map((entry) => `${entry.path} (${entry.reason})`);
  if (done === '') {
    // Undo of a run already undone (a notification's button pressed late): say so, not "restored 0 files".
    const unchanged = new Set(report.unchanged).size;
    if (refused.length > 0) return `Undo changed nothing; left alone: ${refused.join('; ')}.`;
    return unchanged > 0
      ? `Nothing to undo: ${plural(unchanged, 'file')} the run changed ${unchanged === 1 ? 'is' : 'are'} already as before it.`
      : 'Nothing to undo: no change of the run is left to take back (it was undone already, or it changed no file through the file tools).';
  }
  return refused.length > 0 ? `Undo ${done}; left alone: ${refused.join('; ')}.` : `Undo ${done}.`;
}

/**
 * What an Undo tells its user, line by line: `describeUndo`'s sentence, then `commandsNotUndone` (the sentence naming
 * the steps whose commands no checkpoint holds) when this Undo found something of the run to handle; an Undo that
 * found nothing left (the run undone already, or it changed no file) does not say it again.
 */
export function undoLines(report: UndoReport, commandsNotUndone: string | undefined): string[] {
  const foundNothing = report.restored.length === 0 && report.unchanged.length === 0 && report.refused.length === 0;
  return [describeUndo(report), ...(commandsNotUndone === undefined || foundNothing ? [] : [commandsNotUndone])];
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
