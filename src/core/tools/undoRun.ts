import type { Checkpoint, CheckpointStore, FileVersion } from '../runStorePorts';
import type { WorkspaceFs, ExpectedContent } from '../workspacePorts';
import { isWorkspaceError, WorkspaceError } from '../workspace/workspaceError';
import { errorMessage } from '../../shared/errorMessage';
import { PathRefusedError } from '../workspace/resolveInRoot';
import { expectedOf, readVersion } from './fileVersions';

/**
 * A file Undo left alone because it changed after the run, and what "Undo anyway" would do to it: replace `current`
 * (exactly what was read, text and hash) by `restore` (the file before the run's first change Undo took in, absent
 * when the run created it). A diff of these two is exactly the change Undo anyway makes.
 */
export interface UndoOverwrite {
  path: string;
  current: FileVersion;
  restore: FileVersion;
}

/** The user's consent to one `UndoOverwrite` they were shown: the contents they saw, by hash. */
export interface UndoAnyway {
  path: string;
  current: ExpectedContent;
  restore: ExpectedContent;
}

/** What `undoRun` did, per path, in the order it acted (newest change first). */
export interface UndoReport {
  runId: string;
  /** Paths put back as they were before the run (restored, deleted again, or a directory removed). */
  restored: string[];
  /**
   * The subset of `restored` that the run had created and Undo removed again, so the user is not told a file
   * they never had was "restored".
   */
  removed: { path: string; kind: 'file' | 'folder' }[];
  /** Paths already as they were before the run; nothing to do. */
  unchanged: string[];
  /** Paths an earlier Undo put back already (their changes in scope were all `undone` before this one began). */
  undoneBefore: string[];
  /** Paths left alone, each with why (a reason that names its path opens with it). */
  refused: { path: string; reason: string }[];
  /** The refused files Undo anyway could put back (a file changed or deleted since; not a directory, not bytes that are not text). */
  overwritable: UndoOverwrite[];
}

/** Where and what `undoRun` and `undoRunChain` undo: with `steps`, only those steps' changes; `anyway`: see `undoRun`. */
interface UndoOptions {
  workspace: WorkspaceFs;
  checkpoints: CheckpointStore;
  signal?: AbortSignal;
  steps?: ReadonlySet<string>;
  anyway?: readonly UndoAnyway[];
}

/**
 * `undoRun` of what the user sees as one run: `runIds` (`runChain`: the runs its repairs replaced, oldest first, then
 * the last) undone newest first, as a repair's changes sit on those of the run it replaced, in one report named by the
 * last run. Only with all of them is a file the first run and a repair both changed put back as it was before. With
 * `steps` (`undoScope` over all the runs' checkpoints) only those steps' changes, in whichever run they were made.
 */
export async function undoRunChain(
  runIds: readonly string[],
  options: UndoOptions & {
    /** The changes the runs' journals hold, by step and file (in `steps`, when given): one no checkpoint records is said, never passed over. */
    journaled?: readonly { stepId: string; path: string }[];
  },
): Promise<UndoReport> {
  // Undone as one run is: each file judged against how the chain found it, and one a later run's Undo left alone is left
  // alone by the earlier runs' too. Judged run by run, a file the user set back by hand to what the first run left was
  // "as before" for the repair and the first run's own content for the first run, which took it back (an attack).
  const inScope = (checkpoint: Checkpoint): boolean => options.steps === undefined || options.steps.has(checkpoint.stepId);
  const before = new Map<string, FileVersion>();
  for (const runId of runIds) {
    for (const checkpoint of await options.checkpoints.list(runId)) {
      const counted = inScope(checkpoint) && checkpoint.state !== 'abandoned' && checkpoint.state !== 'undone';
      if (counted && !before.has(checkpoint.path)) before.set(checkpoint.path, checkpoint.before);
    }
  }
  const leftAlone = new Set<string>();
  const reports: UndoReport[] = [];
  for (const runId of [...runIds].reverse()) {
    const report = await undoRun(runId, { ...options, chain: { before, leftAlone } });
    for (const { path } of report.refused) leftAlone.add(path);
    reports.push(report);
  }
  const [last] = reports;
  const pair = (change: { stepId: string; path: string }): string => JSON.stringify([change.stepId, change.path]);
  const recorded = new Set((await Promise.all(runIds.map((runId) => options.checkpoints.list(runId)))).flat().map(pair));
  // A change the journal holds but no checkpoint does (a checkpoint file damaged or cut short): Undo cannot put it back,
  // and says so instead of reporting the run undone, even when another change to that file was put back.
  // Records the store does not vouch for (no seal of the user's: a repository may have committed them to look like a run
  // of the user's): Undo would write back the text they hold, which nobody was shown. Named and left alone.
  // Whatever state they say they are in: that is the writer's word too.
  const unvouched = firstByPath(
    (await Promise.all(runIds.map(async (runId) => (await options.checkpoints.unvouched?.(runId)) ?? []))).flat().filter(inScope),
  ).map(({ stepId, path }) => ({ path, reason: unvouchedReason(stepId) }));
  const unvouchedPaths = new Set(unvouched.map((entry) => entry.path));
  const unrecorded = firstByPath((options.journaled ?? []).filter((change) => !recorded.has(pair(change)) && !unvouchedPaths.has(change.path))).map(
    ({ stepId, path }) => ({
      path,
      reason: `the record of how it was before step ${stepId} changed it is missing (the run's checkpoints are damaged), so Undo cannot put that change back`,
    }),
  );
  return {
    runId: last?.runId ?? '',
    restored: reports.flatMap((report) => report.restored),
    removed: reports.flatMap((report) => report.removed),
    unchanged: reports.flatMap((report) => report.unchanged),
    undoneBefore: reports.flatMap((report) => report.undoneBefore),
    // A file left alone by the last run's Undo is left alone by each earlier one too: said once, as the last saw it; Undo
    // anyway puts it back as the first run found it.
    refused: [...firstByPath(reports.flatMap((report) => report.refused)), ...unvouched, ...unrecorded],
    overwritable: firstByPath(reports.flatMap((report) => report.overwritable).reverse()),
  };
}

/** Why Undo left alone a file whose only record of how it was has no seal of the user's (`CheckpointStore.unvouched`). */
function unvouchedReason(stepId: string): string {
  return (
    `the record of how it was before step ${stepId} changed it was not made by your Task Planner (it carries no seal of yours: ` +
    'a repository may have committed it, or an older version or another user wrote it), so Undo does not write back what it holds'
  );
}

/**
 * The permission bits Undo gives a file it brings back: read, write and execute only. A set-user-ID, set-group-ID or sticky
 * bit is not brought back (git keeps none either), so no record can make a file run as its owner by anyone.
 */
function restoredMode(mode: number | undefined): number | undefined {
  return mode === undefined ? undefined : mode & 0o777;
}

function firstByPath<T extends { path: string }>(entries: readonly T[]): T[] {
  const seen = new Set<string>();
  return entries.filter((entry) => !seen.has(entry.path) && seen.add(entry.path));
}

/**
 * The files among `checkpoints` (a run's changes Undo would take back, oldest first) that Undo would leave as they are,
 * because they changed since the run: each file whose content now is neither what the run's last change to it left nor
 * what it was before the run's first (or is no longer a text file it can write). Read before Undo asks, so the question
 * names them (a trial's dialog said README.md "goes back", and Undo then left it alone). Directories are not files here.
 */
export async function filesChangedSince(workspace: WorkspaceFs, checkpoints: readonly Checkpoint[], signal?: AbortSignal): Promise<string[]> {
  const byPath = new Map<string, { first: Checkpoint; last: Checkpoint }>();
  for (const checkpoint of checkpoints) {
    if (checkpoint.operation === 'createDirectory') continue;
    const seen = byPath.get(checkpoint.path);
    byPath.set(checkpoint.path, { first: seen?.first ?? checkpoint, last: checkpoint });
  }
  const changed: string[] = [];
  for (const [path, { first, last }] of byPath) {
    const current = await currentVersion(workspace, path, signal, last.resolvedPath);
    if (typeof current !== 'object' || !('exists' in current)) {
      changed.push(path);
      continue;
    }
    const hash = current.exists ? current.sha256 : undefined;
    const before = first.before.exists ? first.before.sha256 : undefined;
    if (hash !== last.afterSha256 && hash !== before) changed.push(path);
  }
  return changed;
}

/**
 * Restores every file a run changed (with `options.steps`: only the changes of those
 * steps, as "Undo from here" picks them with `undoScope`) to its content before the run, newest change first,
 * using the run's checkpoints. A file whose current content is not what the run left
 * (someone changed it since) is refused with the reason and left alone, and so are the
 * run's earlier changes to it. Directories the run created are removed when empty.
 * Each change put back (or found as it was before the run) is marked `undone`, so a second Undo
 * does nothing, even after the user made the same change again by hand; a change is marked
 * `undoing` before it is written back, so a file found as the change found it counts as put
 * back only after such an interrupted write (else it is the user's work, left alone); changes that never
 * landed (`abandoned`) are left out. A file is written only while it is exactly what the
 * run left (compare-and-swap), never over a change made since, except with `options.anyway`:
 * a file named there whose content is still exactly the `current` the user was shown (from
 * `report.overwritable`), and whose content before the run is still that `restore`, is put back
 * to `restore` in one compare-and-swap write, so nothing the user did not see is overwritten.
 */
export async function undoRun(
  runId: string,
  options: UndoOptions & {
    /**
     * Set by `undoRunChain` for a run of a chain: how the chain's first change in scope found each file (the run's own
     * first change otherwise), and the files a later run's Undo left alone (this run's changes to them are kept).
     */
    chain?: { before: ReadonlyMap<string, FileVersion>; leftAlone: ReadonlySet<string> };
  },
): Promise<UndoReport> {
  const { workspace, signal } = options;
  const report: UndoReport = { runId, restored: [], removed: [], unchanged: [], undoneBefore: [], refused: [], overwritable: [] };
  const blocked = new Set<string>();
  const settled = new Set<string>();
  // Changes that never landed, or that an earlier Undo already put back, are not undone (again).
  const only = options.steps;
  const inScope = (await options.checkpoints.list(runId)).filter(
    (checkpoint) => checkpoint.state !== 'abandoned' && (only === undefined || only.has(checkpoint.stepId)),
  );
  const checkpoints = inScope.filter((checkpoint) => checkpoint.state !== 'undone');
  report.undoneBefore = [...new Set(inScope.filter((checkpoint) => checkpoint.state === 'undone').map((checkpoint) => checkpoint.path))].filter(
    (path) => !checkpoints.some((checkpoint) => checkpoint.path === path),
  );
  // The hash of each path before the run's first change to it; `undefined` for absent.
  const original = new Map<string, string | undefined>();
  for (const checkpoint of checkpoints) {
    const first = options.chain?.before.get(checkpoint.path) ?? checkpoint.before;
    if (!original.has(checkpoint.path)) original.set(checkpoint.path, first.exists ? first.sha256 : undefined);
  }
  // Set once the change in hand is marked `undoing`: a write the workspace then refused never landed.
  let marked: boolean;
  /** Undoes one change (newest first, as described above); throws what the workspace refuses. */
  const undoChange = async (checkpoint: Checkpoint): Promise<void> => {
    const { path } = checkpoint;
    if (checkpoint.operation === 'createDirectory') {
      if (await undoDirectory(workspace, checkpoint, report, signal)) await options.checkpoints.settle(checkpoint, 'undone');
      return;
    }
    const current = await currentVersion(workspace, path, signal, checkpoint.resolvedPath);
    const version = typeof current === 'object' && 'exists' in current ? current : undefined;
    const currentHash = version?.exists ? version.sha256 : undefined;
    const beforeHash = checkpoint.before.exists ? checkpoint.before.sha256 : undefined;
    if (version !== undefined && currentHash === checkpoint.afterSha256) {
      // Only over exactly what the run left: a file changed since is never written over. Marked first, so an Undo run
      // again after this one was stopped between its write and its mark knows the file as the change found it is its own.
      await options.checkpoints.settle(checkpoint, 'undoing');
      marked = true;
      const expected = { expected: currentHash === undefined ? { exists: false as const } : { exists: true as const, sha256: currentHash } };
      if (checkpoint.before.exists) {
        // A deleted file comes back with its permission bits (an executable script stays executable).
        const mode = restoredMode(checkpoint.before.mode);
        await workspace.writeText(path, checkpoint.before.text, signal, mode === undefined ? expected : { ...expected, mode });
      }
      else await workspace.delete(path, signal, expected);
      await options.checkpoints.settle(checkpoint, 'undone');
      report.restored.push(path);
      // Only the run's first change to a path tells whether the file existed before the run.
      if (!checkpoint.before.exists && original.get(path) === undefined) report.removed.push({ path, kind: 'file' });
    } else if (version !== undefined && (currentHash === original.get(path) || (currentHash === beforeHash && checkpoint.state === 'undoing'))) {
      // As before the run (nothing to do for this path), or as this change found it by an Undo's own interrupted write.
      // Found so without that write (the run changed the file and changed it back, then the user made it what the
      // change found), it is the user's work: left alone below, and only Undo anyway writes over it.
      if (currentHash === original.get(path)) settled.add(path);
      await options.checkpoints.settle(checkpoint, 'undone');
      if (!report.unchanged.includes(path)) report.unchanged.push(path);
    } else if (version !== undefined) {
      // The first change in scope to this path holds what the file was before the run touched it.
      const pathCheckpoints = checkpoints.filter((candidate) => candidate.path === path);
      const restore = options.chain?.before.get(path) ?? pathCheckpoints[0]?.before ?? checkpoint.before;
      const consent = options.anyway?.find((entry) => entry.path === path);
      if (consent && sameContent(consent.current, expectedOf(version)) && sameContent(consent.restore, expectedOf(restore))) {
        await putBack(workspace, path, version, restore, signal);
        for (const each of pathCheckpoints) await options.checkpoints.settle(each, 'undone');
        settled.add(path);
        report.restored.push(path);
        if (!restore.exists) report.removed.push({ path, kind: 'file' });
        return;
      }
      blocked.add(path);
      const reason = refusal(checkpoint, current);
      report.refused.push({ path, reason: consent ? `${reason} (it changed again after the difference was shown, so Undo anyway left it too)` : reason });
      report.overwritable.push({ path, current: version, restore });
    } else {
      blocked.add(path);
      report.refused.push({ path, reason: refusal(checkpoint, current) });
    }
  };
  for (const checkpoint of [...checkpoints].reverse()) {
    signal?.throwIfAborted();
    const { path } = checkpoint;
    // Named by the later run's Undo that left it alone.
    if (settled.has(path) || options.chain?.leftAlone.has(path) === true) continue;
    if (blocked.has(path)) {
      report.refused.push({ path, reason: `an earlier change by step ${checkpoint.stepId} was kept, since a later change to it could not be undone` });
      continue;
    }
    marked = false;
    try {
      await undoChange(checkpoint);
    } catch (error) {
      // One file Undo cannot take back (a hard link, a pipe, a write refused or raced) is left alone and named, and the
      // rest goes on; a change marked `undoing` whose write never landed is marked back, so the file is not taken for
      // the Undo's own write later.
      if (!(error instanceof WorkspaceError || error instanceof PathRefusedError)) throw error;
      if (marked) await options.checkpoints.settle(checkpoint, checkpoint.state === 'intended' ? 'uncertain' : checkpoint.state);
      blocked.add(path);
      // Said as the workspace says it (under "Left alone:"), named by its path.
      report.refused.push({ path, reason: errorMessage(error).replace(/\.$/, '') });
    }
  }
  return report;
}

function sameContent(left: ExpectedContent, right: ExpectedContent): boolean {
  return left.exists ? right.exists && left.sha256 === right.sha256 : !right.exists;
}

/** Writes `restore` over `current` (compare-and-swap: only while the file is exactly `current`). */
async function putBack(workspace: WorkspaceFs, path: string, current: FileVersion, restore: FileVersion, signal: AbortSignal | undefined): Promise<void> {
  const expected = { expected: expectedOf(current) };
  if (!restore.exists) {
    if (current.exists) await workspace.delete(path, signal, expected);
    return;
  }
  const mode = restoredMode(restore.mode);
  await workspace.writeText(path, restore.text, signal, mode === undefined ? expected : { ...expected, mode });
}

function refusal(checkpoint: Checkpoint, current: Current): string {
  if (current === 'directory') return `${checkpoint.path} is now a directory, where the run left a file`;
  if (typeof current === 'object' && 'refused' in current) {
    return `${checkpoint.path} is no longer a file in the workspace (${current.refused}), and undo does not read or write through it`;
  }
  if (typeof current === 'object' && 'exists' in current && !current.exists) {
    return `${checkpoint.path} was deleted after step ${checkpoint.stepId} changed it: restore it by hand if you want it back`;
  }
  if (checkpoint.afterSha256 === undefined) return `${checkpoint.path} was created again after step ${checkpoint.stepId} deleted it, and is left as it is`;
  if (current === 'not_utf8') {
    return `${checkpoint.path} was changed after step ${checkpoint.stepId} changed it (it now holds bytes that are not UTF-8 text), and undoing would lose those changes`;
  }
  return `${checkpoint.path} was changed after step ${checkpoint.stepId} changed it, and undoing would lose those changes`;
}

// Undo may be called without a signal; readVersion needs one.
const neverAborted = new AbortController().signal;

/**
 * What is at a path now: a file's version (its text and the sha256 of its exact bytes, or absent), a
 * directory, bytes that are not UTF-8 (so not what any file tool wrote), or a path the workspace now refuses (a
 * link to the outside put in its place), with why.
 */
type Current = FileVersion | 'directory' | 'not_utf8' | { refused: string };

// Read as `readVersion` reads: strictly, so a byte a lenient decoding would lose (one that is not UTF-8) still counts.
// `changedThrough`: where the path led when the run changed it (`Checkpoint.resolvedPath`).
async function currentVersion(workspace: WorkspaceFs, path: string, signal: AbortSignal | undefined, changedThrough: string | undefined): Promise<Current> {
  try {
    const linkedTo = await fileLinkTarget(workspace, path, signal);
    // A link the run changed the file through, still leading where it led then, is written back through: refused as a
    // link, such a change could never be undone (an outside attack: an edit through `link.txt -> real.txt` kept by Undo).
    if (linkedTo !== undefined && linkedTo !== changedThrough) return { refused: `it is now a link to ${linkedTo}` };
    return await readVersion({ workspace }, path, signal ?? neverAborted);
  } catch (error) {
    if (isWorkspaceError(error, 'is_directory')) return 'directory';
    if (isWorkspaceError(error, 'not_utf8')) return 'not_utf8';
    // A path that now leads outside (replaced by a link) is this file's refusal, not the end of the whole undo.
    if (error instanceof PathRefusedError) return { refused: error.reason };
    throw error;
  }
}

/**
 * Where the file (or folder) `path` itself leads when it is now a link (to a file of the workspace: one out is refused by
 * the read), else `undefined`: Undo writes back the file the run changed, never another one a link put in its place leads to (an
 * outside attack: `x.txt` swapped for a link to `g.txt` holding what the run left, and Undo wrote into `g.txt`). Folders
 * on the way may be links: the file is still where they lead.
 */
async function fileLinkTarget(workspace: WorkspaceFs, path: string, signal: AbortSignal | undefined): Promise<string | undefined> {
  if (workspace.locate === undefined) return undefined;
  const cut = path.lastIndexOf('/');
  const [folder, name] = cut < 0 ? ['', path] : [path.slice(0, cut), path.slice(cut + 1)];
  const led = await workspace.locate(path, signal).catch(() => undefined);
  const folderLed = folder === '' ? '' : await workspace.locate(folder, signal).catch(() => undefined);
  if (led === undefined || folderLed === undefined) return undefined;
  return led === (folderLed === '' ? name : `${folderLed}/${name}`) ? undefined : led;
}

/** Removes a directory the run created; `true` when it is gone (removed now, or already). */
async function undoDirectory(workspace: WorkspaceFs, checkpoint: Checkpoint, report: UndoReport, signal: AbortSignal | undefined): Promise<boolean> {
  let stat: Awaited<ReturnType<WorkspaceFs['stat']>>;
  try {
    stat = await workspace.stat(checkpoint.path, signal);
  } catch (error) {
    if (!(error instanceof PathRefusedError)) throw error;
    report.refused.push({
      path: checkpoint.path,
      reason: `${checkpoint.path} (a folder step ${checkpoint.stepId} created) is no longer a folder in the workspace (${error.reason}), and undo does not remove through it`,
    });
    return false;
  }
  if (stat?.type !== 'directory') {
    report.unchanged.push(checkpoint.path);
    return true;
  }
  // The folder swapped for a link to another (a user's folder of notes, after the run) is the user's: removing the link
  // would take their way to it, and what is there is not the run's (an attack kept as a test).
  const linkedTo = await fileLinkTarget(workspace, checkpoint.path, signal);
  if (linkedTo !== undefined) {
    const reason = `${checkpoint.path} (a folder step ${checkpoint.stepId} created) is now a link to ${linkedTo}, and undo leaves it`;
    report.refused.push({ path: checkpoint.path, reason });
    return false;
  }
  try {
    await workspace.delete(checkpoint.path, signal);
    report.restored.push(checkpoint.path);
    report.removed.push({ path: checkpoint.path, kind: 'folder' });
    return true;
  } catch (error) {
    if (!isWorkspaceError(error, 'not_empty')) throw error;
    // Files in it are undone first (newest change first): one refused above is what it still holds.
    const kept = [...new Set(report.refused.map((entry) => entry.path).filter((path) => path.startsWith(`${checkpoint.path}/`)))];
    report.refused.push({
      path: checkpoint.path,
      reason:
        kept.length > 0
          ? `${checkpoint.path} (a folder step ${checkpoint.stepId} created) still holds ${kept.join(', ')}, which undo kept`
          : `${checkpoint.path} (a folder step ${checkpoint.stepId} created) now holds files the run did not create`,
    });
    return false;
  }
}
