import type { Checkpoint, FileVersion } from '../ports';
import { isWorkspaceError } from '../workspace/workspaceError';
import { expectedOf, sha256 } from './fileVersions';
import type { ToolContext } from './tool';

/** One change of one file as `applyRecorded` makes it: computed from `before`, leaving `after` (`undefined`: deleted). */
export interface RecordedChange {
  path: string;
  operation: 'write' | 'edit' | 'delete';
  before: FileVersion;
  after: string | undefined;
}

/**
 * Makes `change` under its checkpoint: the folders a new file needs and the change itself
 * are recorded (`intended`) before anything is made, then written only while the file is
 * still `change.before` (a mismatch rejects with `WorkspaceError` code `changed`), then
 * settled `applied`, or `abandoned` when the write failed. A crash in between leaves the
 * intent for `reconcileInterrupted`. Without a checkpoint store the change is simply made.
 */
export async function applyRecorded(ctx: ToolContext, change: RecordedChange, signal: AbortSignal): Promise<void> {
  const { path, before, after } = change;
  const store = ctx.checkpoints;
  const folders = store && !before.exists && after !== undefined ? await missingFolders(ctx, path, signal) : [];
  const intents: Checkpoint[] = [];
  if (store) {
    for (const folder of folders) {
      intents.push(
        await store.record({
          runId: ctx.runId,
          stepId: ctx.stepId,
          path: folder,
          operation: 'createDirectory',
          before: { exists: false },
          afterSha256: undefined,
        }),
      );
    }
    intents.push(
      await store.record({
        runId: ctx.runId,
        stepId: ctx.stepId,
        path,
        operation: change.operation,
        before,
        afterSha256: after === undefined ? undefined : sha256(after),
      }),
    );
  }
  try {
    const options = { expected: expectedOf(before) };
    if (after === undefined) await ctx.workspace.delete(path, signal, options);
    else await ctx.workspace.writeText(path, after, signal, options);
  } catch (error) {
    if (store) {
      for (const intent of intents) {
        const made = intent.operation === 'createDirectory' && (await folderExists(ctx, intent.path));
        await store.settle(intent, made ? 'applied' : 'abandoned');
      }
    }
    throw error;
  }
  if (store) for (const intent of intents) await store.settle(intent, 'applied');
}

/**
 * Creates the directory `path` and its missing parents under checkpoints (each recorded
 * before, settled after as it then exists), so Undo removes every folder the run made.
 */
export async function createDirectoryRecorded(ctx: ToolContext, path: string, signal: AbortSignal): Promise<void> {
  const store = ctx.checkpoints;
  const intents: Checkpoint[] = [];
  if (store) {
    for (const folder of [...(await missingFolders(ctx, path, signal)), path]) {
      intents.push(
        await store.record({
          runId: ctx.runId,
          stepId: ctx.stepId,
          path: folder,
          operation: 'createDirectory',
          before: { exists: false },
          afterSha256: undefined,
        }),
      );
    }
  }
  try {
    await ctx.workspace.createDirectory(path, signal);
  } finally {
    if (store) for (const intent of intents) await store.settle(intent, (await folderExists(ctx, intent.path)) ? 'applied' : 'abandoned');
  }
}

/** How an interrupted change of this step to a path stands against what is on disk now. */
export type Reconciled =
  /** Nothing of this step's was interrupted on this path. */
  | { kind: 'none' }
  /** The same change landed before the interruption: it is not made again. */
  | { kind: 'landed'; checkpoint: Checkpoint }
  /** Something else is on disk than either side of the interrupted change: the change must ask. */
  | { kind: 'unexpected'; checkpoint: Checkpoint };

/**
 * After a crash (a resumed run), settles the changes of `ctx`'s step to `path` that were
 * recorded but never settled, judged by what is on disk (`current`): a change whose
 * result is there landed (`applied`), one whose file is as before never did
 * (`abandoned`). `landed` when the change `propose` computes from the interrupted change's
 * own starting point is exactly the one that landed: making it again would apply it twice
 * (an edit of `1` to `1.1` becoming `1.1.1`). `unexpected` when the file is neither.
 */
export async function reconcileInterrupted(
  ctx: ToolContext,
  path: string,
  current: FileVersion,
  propose: (before: string | undefined) => string | undefined,
): Promise<Reconciled> {
  const store = ctx.checkpoints;
  if (!store) return { kind: 'none' };
  const interrupted = (await store.list(ctx.runId)).filter(
    (checkpoint) =>
      checkpoint.state === 'intended' && checkpoint.stepId === ctx.stepId && checkpoint.path === path && checkpoint.operation !== 'createDirectory',
  );
  let outcome: Reconciled = { kind: 'none' };
  const now = current.exists ? current.sha256 : undefined;
  for (const checkpoint of interrupted) {
    if (now === checkpoint.afterSha256) {
      await store.settle(checkpoint, 'applied');
      const again = proposeQuietly(propose, checkpoint.before);
      outcome =
        again !== null && (again === undefined ? undefined : sha256(again)) === checkpoint.afterSha256 ? { kind: 'landed', checkpoint } : { kind: 'none' };
    } else if (now === (checkpoint.before.exists ? checkpoint.before.sha256 : undefined)) {
      await store.settle(checkpoint, 'abandoned');
      outcome = { kind: 'none' };
    } else {
      // Neither side: changed again after the crash, or by someone else; nobody can tell whether this change landed.
      await store.settle(checkpoint, 'abandoned');
      outcome = { kind: 'unexpected', checkpoint };
    }
  }
  await settleInterruptedFolders(ctx, path);
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

/** Interrupted folder intents of this step above `path`: applied where the folder is there. */
async function settleInterruptedFolders(ctx: ToolContext, path: string): Promise<void> {
  const store = ctx.checkpoints;
  if (!store) return;
  for (const checkpoint of await store.list(ctx.runId)) {
    if (checkpoint.state !== 'intended' || checkpoint.operation !== 'createDirectory' || checkpoint.stepId !== ctx.stepId) continue;
    if (!path.startsWith(`${checkpoint.path}/`)) continue;
    await store.settle(checkpoint, (await folderExists(ctx, checkpoint.path)) ? 'applied' : 'abandoned');
  }
}

/** The folders above `path` that do not exist yet, outermost first: writing the file makes them. */
async function missingFolders(ctx: ToolContext, path: string, signal: AbortSignal): Promise<string[]> {
  const parts = path.split('/').slice(0, -1);
  const missing: string[] = [];
  for (let depth = parts.length; depth > 0; depth--) {
    const folder = parts.slice(0, depth).join('/');
    if (await ctx.workspace.stat(folder, signal).catch(() => undefined)) break;
    missing.unshift(folder);
  }
  return missing;
}

async function folderExists(ctx: ToolContext, path: string): Promise<boolean> {
  try {
    return (await ctx.workspace.stat(path))?.type === 'directory';
  } catch (error) {
    if (isWorkspaceError(error)) return false;
    throw error;
  }
}
