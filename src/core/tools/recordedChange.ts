import type { Checkpoint, CheckpointStore, FileVersion } from '../runStorePorts';
import type { ChangeOptions, WorkspaceFs } from '../workspacePorts';
import { sha256OfBytes } from '../workspace/expectedContent';
import { PathRefusedError } from '../workspace/resolveInRoot';
import { isWorkspaceError } from '../workspace/workspaceError';
import { expectedOf, sha256 } from './fileVersions';
import type { ToolContext } from './tool';

/** One change of one file as `applyRecorded` makes it: computed from `before`, leaving `after` (`undefined`: deleted). */
export interface RecordedChange {
  path: string;
  operation: 'write' | 'edit' | 'delete';
  before: FileVersion;
  after: string | undefined;
  /** Where `path` led through symbolic links when the change was checked, when that differs from `path` (kept in its checkpoint). */
  resolvedPath?: string;
}

/**
 * Makes `change` under its checkpoint: the folders a new file needs and the change itself
 * are recorded (`intended`) before anything is made, then written only while the file is
 * still `change.before` (a mismatch rejects with `WorkspaceError` code `changed`), then
 * settled `applied`, or, when the write failed, `abandoned` unless the file holds the change all the same (a failure
 * reported after the bytes landed: then `applied`, so Undo takes it back). A crash in between leaves the
 * intent for `reconcileInterrupted`. Without a checkpoint store the change is simply made. `refuseTarget` judges the
 * place written (see `ChangeOptions`).
 */
export async function applyRecorded(
  ctx: ToolContext,
  change: RecordedChange,
  signal: AbortSignal,
  refuseTarget?: ChangeOptions['refuseTarget'],
): Promise<void> {
  const { path, before, after, resolvedPath } = change;
  const store = ctx.checkpoints;
  // Stryker disable next-line ConditionalExpression,LogicalOperator: an existing file (or one deleted) has its folders; looking costs only stat calls, unused without a store, and a folder not made is settled abandoned.
  const folders = store && !before.exists && after !== undefined ? await missingFolders(ctx, path, signal) : [];
  const intents = store
    ? await recordIntents(store, [
        ...folders.map((folder) => folderIntent(ctx, folder)),
        {
          runId: ctx.runId,
          stepId: ctx.stepId,
          path,
          // Kept so that Undo knows the link it is to write back through as the one the change went through.
          ...(resolvedPath === undefined || resolvedPath === path ? {} : { resolvedPath }),
          operation: change.operation,
          before,
          afterSha256: after === undefined ? undefined : sha256(after),
        },
      ])
    : [];
  try {
    const options: ChangeOptions = {
      expected: expectedOf(before),
      by: { stepId: ctx.stepId, stepTitle: ctx.stepTitle },
      ...(ctx.progress ? { waiting: ctx.progress } : {}),
      ...(refuseTarget === undefined ? {} : { refuseTarget }),
    };
    if (after === undefined) await ctx.workspace.delete(path, signal, options);
    else await ctx.workspace.writeText(path, after, signal, options);
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: without a store there are no intents to settle.
    if (store) {
      // Refused, or the file was not as expected: nothing was written, whatever the file holds (another writer's same change).
      const nothingWritten = error instanceof PathRefusedError || isWorkspaceError(error, 'changed');
      await settleEach(store, intents, async (intent) => {
        const made =
          intent.operation === 'createDirectory'
            ? await folderExists(ctx, intent.path)
            // Looked at even when the run was cancelled as it wrote: whether the bytes landed is the question either way.
            : !nothingWritten && (await currentHash(ctx.workspace, path, new AbortController().signal).catch(() => null)) === intent.afterSha256;
        return made ? 'applied' : 'abandoned';
      });
    }
    throw error;
  }
  // Stryker disable next-line ConditionalExpression: without a store there are no intents to settle.
  if (store) await settleEach(store, intents, async () => 'applied');
}

/**
 * Settles every one of `intents` (as `stateOf` says), also when settling one fails (a full disk refusing its line): each
 * left unsettled was waited on for ever, and the command line ended saying it stopped with nothing left to wait on (an
 * outside attack: `ulimit -f` under a run of three parallel changes). Rejects with the first failure once all were tried;
 * an intent whose settlement was not stored stays `intended` on disk, and a resumed run judges it by the file.
 */
async function settleEach(
  store: CheckpointStore,
  intents: readonly Checkpoint[],
  stateOf: (intent: Checkpoint) => Promise<'applied' | 'abandoned'>,
): Promise<void> {
  const failures: unknown[] = [];
  for (const intent of intents) {
    try {
      await store.settle(intent, await stateOf(intent));
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
}

/**
 * Creates the directory `path` and its missing parents under checkpoints (each recorded
 * before, settled after as it then exists), so Undo removes every folder the run made.
 */
export async function createDirectoryRecorded(ctx: ToolContext, path: string, signal: AbortSignal): Promise<void> {
  const store = ctx.checkpoints;
  const intents = store ? await recordIntents(store, [...(await missingFolders(ctx, path, signal)), path].map((folder) => folderIntent(ctx, folder))) : [];
  try {
    await ctx.workspace.createDirectory(path, signal);
  } finally {
    // Stryker disable next-line ConditionalExpression: without a store there are no intents to settle.
    if (store) await settleEach(store, intents, async (intent) => ((await folderExists(ctx, intent.path)) ? 'applied' : 'abandoned'));
  }
}

/**
 * How a change that landed, of a step the crash left unfinished, stands on disk now: `recovered` while the file holds it
 * (or a later change of the same step to it), so the step's re-run claims it instead of making it twice; `abandoned` when
 * the file was put back (a checkout) to before it (or an earlier change of the step to it), so it is made again;
 * `uncertain` otherwise, so the step asks. Claimed without a look, a change put back was reported made and lost.
 */
async function landedOfUnfinished(
  checkpoint: Checkpoint,
  checkpoints: readonly Checkpoint[],
  unfinished: ReadonlySet<string>,
  workspace: WorkspaceFs,
  signal: AbortSignal,
): Promise<'recovered' | 'abandoned' | 'uncertain'> {
  const now = await currentHash(workspace, checkpoint.path, signal);
  const ofStep = checkpoints.filter((other) => other.stepId === checkpoint.stepId && other.path === checkpoint.path);
  const chain = ofStep.filter((other) => other.state === 'applied');
  // A later change of the step the crash left intended counts too once the file holds its result: it was computed on what
  // this one left, so this one landed. Judged uncertain, this one was then settled abandoned by the re-run, and Undo,
  // skipping it, left the file as it made it (an outside attack: a step's two edits, the crash after the second landed).
  const later = ofStep.filter((other) => other.seq >= checkpoint.seq && (other.state === 'applied' || other.state === 'intended'));
  if (later.some((other) => other.afterSha256 === now)) return 'recovered';
  const before = (other: Checkpoint): string | undefined => (other.before.exists ? other.before.sha256 : undefined);
  if (chain.some((other) => other.seq <= checkpoint.seq && before(other) === now)) return 'abandoned';
  // A later change of another step the crash left unfinished (its dependent: the journal, written behind the synced
  // checkpoints, never got to say this step ended), computed on what this one left, and found in the file (or one computed
  // on that): this one is in the file under that change. Judged uncertain, the step asked again under every policy and
  // its re-run offered the change a second time (`version = 1.1` becoming `1.1.1`), or, rejected, left its dependent
  // skipped although both landed (an outside attack: crash fuzzing of the command line).
  return now !== undefined && derivedFrom(checkpoint, checkpoints, unfinished).has(now) ? 'recovered' : 'uncertain';
}

/**
 * The contents of `checkpoint.path` that later recorded changes of steps in `unfinished` computed from what `checkpoint`
 * left, and from those in turn, lead to: each was recorded on a file holding the change, so a file holding one holds it.
 */
function derivedFrom(checkpoint: Checkpoint, checkpoints: readonly Checkpoint[], unfinished: ReadonlySet<string>): Set<string> {
  const derived = new Set<string>();
  if (checkpoint.afterSha256 === undefined) return derived;
  const reached = new Set([checkpoint.afterSha256]);
  const later = checkpoints
    .filter((other) => other.seq > checkpoint.seq && other.path === checkpoint.path && unfinished.has(other.stepId))
    .sort((a, b) => a.seq - b.seq);
  for (const other of later) {
    if (!other.before.exists || !reached.has(other.before.sha256) || other.afterSha256 === undefined) continue;
    reached.add(other.afterSha256);
    derived.add(other.afterSha256);
  }
  return derived;
}

/** How an interrupted change of this step to a path stands, as the resumed run found it. */
export type Reconciled =
  /** Nothing of this step's was interrupted on this path. */
  | { kind: 'none' }
  /** The same change landed before the interruption: it is not made again. */
  | { kind: 'landed'; checkpoint: Checkpoint }
  /** The file was neither side of the interrupted change when the run resumed: the change must ask. */
  | { kind: 'unexpected'; checkpoint: Checkpoint };

/**
 * Before a resumed run starts any step: judges each change of run `runId` that was
 * recorded but never settled (the process died in between) by what is on disk now:
 * `recovered` when its result is there, `abandoned` when the file is as before, `uncertain`
 * otherwise. Judged before any step runs, so no other change of the same file can hide
 * the answer. The changes that landed of the steps in `unfinished` (running when the
 * process died: the crash may have cut their end from the journal) are judged by what is on
 * disk too (`landedOfUnfinished`), so their re-runs claim them instead of making them again,
 * and make again one put back. Returns the changes of files found landed now (the run reports them).
 */
export async function recoverInterruptedChanges(
  runId: string,
  workspace: WorkspaceFs,
  store: CheckpointStore,
  unfinished: ReadonlySet<string>,
  signal: AbortSignal,
): Promise<Checkpoint[]> {
  const recovered: Checkpoint[] = [];
  const checkpoints = await store.list(runId);
  for (const checkpoint of checkpoints) {
    if (checkpoint.state === 'applied' && checkpoint.operation !== 'createDirectory' && unfinished.has(checkpoint.stepId)) {
      await store.settle(checkpoint, await landedOfUnfinished(checkpoint, checkpoints, unfinished, workspace, signal));
      continue;
    }
    if (checkpoint.state !== 'intended') continue;
    if (checkpoint.operation === 'createDirectory') {
      await store.settle(checkpoint, (await isFolder(workspace, checkpoint.path)) ? 'applied' : 'abandoned');
      continue;
    }
    const now = await currentHash(workspace, checkpoint.path, signal);
    if (now === checkpoint.afterSha256) {
      await store.settle(checkpoint, 'recovered');
      recovered.push({ ...checkpoint, state: 'recovered' });
    } else {
      await store.settle(checkpoint, now === (checkpoint.before.exists ? checkpoint.before.sha256 : undefined) ? 'abandoned' : 'uncertain');
    }
  }
  return recovered;
}

/**
 * In a resumed run, what became of `ctx`'s step's interrupted changes of `path`
 * (`recoverInterruptedChanges`): `landed` when the change `propose` computes from the
 * interrupted change's own starting point is exactly the one that landed (making it again
 * would apply it twice: an edit of `1` to `1.1` becoming `1.1.1`), which it claims as
 * `applied`; `unexpected` when the file was neither side of such a change.
 */
export async function reconcileInterrupted(ctx: ToolContext, path: string, propose: (before: string | undefined) => string | undefined): Promise<Reconciled> {
  const store = ctx.checkpoints;
  if (!store) return { kind: 'none' };
  let outcome: Reconciled = { kind: 'none' };
  for (const checkpoint of await store.list(ctx.runId)) {
    if (checkpoint.stepId !== ctx.stepId || checkpoint.path !== path) continue;
    if (checkpoint.state === 'recovered') {
      const again = proposeQuietly(propose, checkpoint.before);
      if (again !== null && (again === undefined ? undefined : sha256(again)) === checkpoint.afterSha256) {
        await store.settle(checkpoint, 'applied');
        outcome = { kind: 'landed', checkpoint };
      }
    } else if (checkpoint.state === 'uncertain') {
      await store.settle(checkpoint, 'abandoned');
      outcome = { kind: 'unexpected', checkpoint };
    }
  }
  return outcome;
}

/** `propose` on `before`; `null` when it throws (a different change from the one recorded). */
function proposeQuietly(propose: (before: string | undefined) => string | undefined, before: FileVersion): string | undefined | null {
  try {
    return propose(before.exists ? before.text : undefined);
  } catch {
    return null;
  }
}

/** sha256 of the file's bytes, `undefined` when nothing (or a directory) is there. */
async function currentHash(workspace: WorkspaceFs, path: string, signal: AbortSignal): Promise<string | undefined> {
  try {
    const stat = await workspace.stat(path, signal);
    if (stat?.type !== 'file') return undefined;
    if (workspace.readBytes) return sha256OfBytes(await workspace.readBytes(path, signal));
    return sha256(await workspace.readText(path, signal));
  } catch (error) {
    if (isWorkspaceError(error, 'not_found')) return undefined;
    throw error;
  }
}

/** The folders above `path` that do not exist yet, outermost first: writing the file makes them. */
async function missingFolders(ctx: ToolContext, path: string, signal: AbortSignal): Promise<string[]> {
  const parts = path.split('/').slice(0, -1);
  const missing: string[] = [];
  // Stryker disable next-line EqualityOperator: at depth 0 the folder is the workspace root, which exists, so the loop stops there either way.
  for (let depth = parts.length; depth > 0; depth--) {
    const folder = parts.slice(0, depth).join('/');
    if (await ctx.workspace.stat(folder, signal).catch(() => undefined)) break;
    missing.unshift(folder);
  }
  return missing;
}

function folderExists(ctx: ToolContext, path: string): Promise<boolean> {
  // After a change, every intent must be settled, whatever the look finds: one left unsettled is waited on for ever.
  return isFolder(ctx.workspace, path).catch(() => false);
}

async function isFolder(workspace: WorkspaceFs, path: string): Promise<boolean> {
  try {
    return (await workspace.stat(path))?.type === 'directory';
  } catch (error) {
    // Refused by the workspace (unreadable, or a folder on the way swapped for a link out): not known as made here.
    if (isWorkspaceError(error) || error instanceof PathRefusedError) return false;
    throw error;
  }
}

/** The intent of making the folder `path` for `ctx`'s step. */
function folderIntent(ctx: ToolContext, path: string): Omit<Checkpoint, 'seq' | 'state'> {
  return { runId: ctx.runId, stepId: ctx.stepId, path, operation: 'createDirectory', before: { exists: false }, afterSha256: undefined };
}

/**
 * Records `intents` in order; when one cannot be stored, nothing is made and those already
 * stored are settled abandoned (a run would otherwise wait on them forever).
 */
async function recordIntents(store: CheckpointStore, intents: readonly Omit<Checkpoint, 'seq' | 'state'>[]): Promise<Checkpoint[]> {
  const recorded: Checkpoint[] = [];
  try {
    for (const intent of intents) recorded.push(await store.record(intent));
  } catch (error) {
    // The failure to tell is the record's; one of these settlements failing too (the same full disk) leaves it intended.
    await settleEach(store, recorded, async () => 'abandoned').catch(() => undefined);
    throw error;
  }
  return recorded;
}
