import type { UndoReport } from './undoRun';

/** Most paths named in one part of the message; more are counted ("4 files"). */
const maxNamed = 3;

/**
 * What `undoRun` did, for the user: what it put back, what it removed because the run had created it (a file the run
 * created is never called "restored"), and each file it left alone with why; a file it took back only some changes to
 * is said so once, with what it kept and why; a few paths are named, more counted.
 * An Undo that found nothing to do says why: an earlier Undo put the changes back, or the run changed no file.
 */
export function describeUndo(report: UndoReport): string {
  // A file the run changed twice is restored twice (newest change first), and is still one file.
  const removedPaths = new Set(report.removed.map((entry) => entry.path));
  const refusedPaths = new Set(report.refused.map((entry) => entry.path));
  const restored = [...new Set(report.restored.filter((path) => !removedPaths.has(path)))];
  // A file Undo took some of the run's changes back from and kept one of (a task file's ticks, one line changed since) is
  // said as such: "restored tasks.md. Left alone: tasks.md…" named it both ways (a trial).
  const partly = restored.filter((path) => refusedPaths.has(path));
  const whole = restored.filter((path) => !refusedPaths.has(path));
  const done = [
    ...(whole.length > 0 ? [`restored ${named(whole, 'file')}`] : []),
    ...(report.removed.length > 0 ? [`removed ${removedText(report.removed)}`] : []),
    ...(partly.length > 0 ? [`took back part of the run's changes to ${named(partly, 'file')}`] : []),
  ].join(' and ');
  const inPart = new Set(partly);
  const kept = report.refused.filter((entry) => inPart.has(entry.path));
  const refused = report.refused.filter((entry) => !inPart.has(entry.path));
  const leftAlone = [
    ...(kept.length > 0 ? [` Kept: ${kept.map(refusedText).join('; ')}.`] : []),
    ...(refused.length > 0 ? [` Left alone: ${refused.map(refusedText).join('; ')}.`] : []),
  ].join('');
  if (done !== '') return `Undo ${done}.${leftAlone}`;
  if (leftAlone !== '') return `Undo changed nothing.${leftAlone}`;
  // Undo of a run already undone (a notification's button pressed late): say so, not "restored 0 files".
  const unchanged = [...new Set(report.unchanged)];
  if (unchanged.length > 0) {
    return `Nothing to undo: ${named(unchanged, 'file')} the run changed ${unchanged.length === 1 ? 'is' : 'are'} already as before it.`;
  }
  return report.undoneBefore.length > 0
    ? `Nothing to undo: an earlier Undo already took back the run's changes to ${named([...new Set(report.undoneBefore)], 'file')}.`
    : 'Nothing to undo: the run changed no file through the file tools.';
}

/**
 * What an Undo tells its user, line by line: `describeUndo`'s sentence, then `commandsNotUndone` (the sentence naming
 * the steps whose commands no checkpoint holds) when this Undo found something of the run to handle; an Undo that
 * found nothing left (the run undone already, or it changed no file) does not say it again.
 */
export function undoLines(report: UndoReport, commandsNotUndone: string | undefined): string[] {
  return [describeUndo(report), ...(commandsNotUndone === undefined || foundNothing(report) ? [] : [commandsNotUndone])];
}

/** Whether an Undo found nothing of the run left to handle: nothing restored, found as before, or left alone. */
export function foundNothing(report: UndoReport): boolean {
  return report.restored.length === 0 && report.unchanged.length === 0 && report.refused.length === 0;
}

/** "a.txt", "a.txt and b.txt", "a.txt, b.txt and c.txt"; more than `maxNamed`: "4 files". */
function named(paths: readonly string[], noun: string): string {
  if (paths.length > maxNamed) return plural(paths.length, noun);
  return paths.length === 1 ? (paths[0] ?? '') : `${paths.slice(0, -1).join(', ')} and ${paths.at(-1) ?? ''}`;
}

/** "notes/a.txt and notes/, which the run created"; more than `maxNamed`: "2 files and 1 folder the run created". */
function removedText(removed: UndoReport['removed']): string {
  if (removed.length <= maxNamed) {
    return `${named(removed.map((entry) => (entry.kind === 'folder' ? `${entry.path}/` : entry.path)), 'file')}, which the run created`;
  }
  const files = removed.filter((entry) => entry.kind === 'file').length;
  const folders = removed.length - files;
  return `${[...(files > 0 ? [plural(files, 'file')] : []), ...(folders > 0 ? [plural(folders, 'folder')] : [])].join(' and ')} the run created`;
}

/** A file left alone and why; a reason that opens with the file names it once ("a.txt was changed after…"). */
function refusedText({ path, reason }: UndoReport['refused'][number]): string {
  return reason.startsWith(`${path} `) ? reason : `${path}: ${reason}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
