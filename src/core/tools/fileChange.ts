import { createTwoFilesPatch } from 'diff';
import type { FileProposal } from '../interactionPorts';
import type { FileVersion } from '../runStorePorts';
import type { TargetCheck } from '../workspacePorts';
import { changeKey, foldedPath } from '../workspace/changeKey';
import { isProtectedPath, protectedPlaceHint, protectedPlaceReason } from '../workspace/protectedPlaces';
import { normalizeWorkspacePath, PathRefusedError } from '../workspace/resolveInRoot';
import { holdsPrivateKey, privateKeyReason } from '../workspace/credentialFiles';
import { inWriteScope } from '../workspace/writeScope';
import { isWorkspaceError, WorkspaceError } from '../workspace/workspaceError';
import { needsApproval, requireApproval } from './approvals';
import { fileLocks } from './fileLocks';
import { readVersion, sha256, textOf } from './fileVersions';
import { applyRecorded, reconcileInterrupted } from './recordedChange';
import type { ToolContext } from './tool';
import { withheldHint, withheldReason } from './withheldFiles';
import { oneLine } from '../text/oneLine';

/** Largest text a tool writes, in UTF-8 bytes. */
export const maxWriteBytes = 5 * 1024 * 1024;

/** What a file change did. `changed` is false when the proposed text equals the current one. */
export interface FileChangeResult {
  path: string;
  operation: 'created' | 'overwritten' | 'edited' | 'deleted' | 'unchanged';
  changed: boolean;
  /** Size of the text written, in UTF-8 bytes (0 for a deletion). */
  bytes: number;
}

/** How often a change is computed again when its file keeps changing under it before it gives up. */
const maxRounds = 3;

/**
 * The one way tools change files. Under the file's lock (`fileLocks`: no other change of
 * the same file by any step or run interleaves), reads the current content, lets `propose`
 * compute the new one (`undefined` deletes), shows the user a proposal with a unified diff
 * and waits for approval (per the context's policy), then applies the change only to the
 * content it was computed from (`applyRecorded`: checkpoint first, compare-and-swap
 * write). When the file changed meanwhile (while the question was open, or by another
 * program), the change is computed again against the new content and, where the policy
 * asks, shown again: an approval holds only for the version the user saw replaced. After
 * `maxRounds` it gives up
 * with nothing changed. In a resumed run, a change this step made before a crash is not
 * made again (`reconcileInterrupted`). A rejection or any failure before the write leaves
 * the file as it was. Refuses paths inside a protected place (`.git`, `.task-planner`: see
 * `protectedPlaces`), as written or once symbolic links are followed, whatever the policy;
 * the proposal names where a path leads through links when that differs. Files that are
 * not UTF-8 text are refused (`readVersion`), and so is deleting a file that is not there (after the crash check).
 */
export async function changeFile(
  ctx: ToolContext,
  input: { path: string; operation: 'write' | 'edit' | 'delete'; propose(current: string | undefined): string | undefined },
  signal: AbortSignal,
): Promise<FileChangeResult> {
  const path = workspacePath(ctx, input.path);
  if (path === '') throw new PathRefusedError(input.path, 'it names the workspace root, not a file');
  if (path.split('/').includes('.git')) {
    throw new PathRefusedError(input.path, 'files inside .git are managed by git and are never changed by tools', protectedPlaceHint);
  }
  if (isProtectedPath(path)) throw new PathRefusedError(input.path, protectedPlaceReason(path, path), protectedPlaceHint);
  // Checked again where the path really leads (a link such as docs -> .git); the workspace
  // itself refuses the change should a link be swapped in after this check.
  const resolvedPath = (await ctx.workspace.locate?.(path, signal)) ?? path;
  if (isProtectedPath(resolvedPath)) throw new PathRefusedError(input.path, protectedPlaceReason(resolvedPath, path), protectedPlaceHint);
  return fileLocks.run(changeKey(ctx.workspace.rootLabel, resolvedPath), signal, () => changeLocked(ctx, { ...input, path, resolvedPath }, signal));
}

async function changeLocked(
  ctx: ToolContext,
  input: { path: string; resolvedPath: string; operation: 'write' | 'edit' | 'delete'; propose(current: string | undefined): string | undefined },
  signal: AbortSignal,
): Promise<FileChangeResult> {
  const { path, operation } = input;
  // Every read and the write stay on the file the checks above judged and the lock holds: a link retargeted meanwhile (at
  // .env, or at a file another step is changing under its own lock) refuses the change (an outside attack).
  const stayOn = onlyWhileLeadingTo(input.resolvedPath);
  // A file kept from the model (.env, a key) is changed only as the user sees it: an edit's search blocks, and a write
  // said "unchanged", would tell a model what it holds a guess at a time. One kept by its name is not even read.
  const withheldByName = withheldReason(input.resolvedPath) ?? withheldReason(path);
  if (withheldByName !== undefined && operation === 'edit') throw new PathRefusedError(path, withheldByName, withheldHint(path));
  const reconciled = await reconcileInterrupted(ctx, path, (before) => input.propose(before));
  let current = await readVersion(ctx, path, signal, stayOn);
  if (reconciled.kind === 'landed') return resultOf(path, reconciled.checkpoint.before, operation, textOf(current));
  // After the crash check: a deletion of this step's that landed before a crash is reported as made, not as a missing file
  // (an outside attack: the resumed run failed on "Nothing to delete").
  if (operation === 'delete' && !current.exists) throw new WorkspaceError('not_found', path, `Nothing to delete: ${path} does not exist`);
  const seen = ctx.seenVersions?.get(path);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: writes and deletions ask under the same policies (needsApproval).
  const effect = operation === 'delete' ? 'delete' : 'write';
  // Outside the files the step declared (drift), or after a crash that left the file as neither side of this step's change: asks whatever the policy.
  const outsideScope = ctx.writeScope !== undefined && !inWriteScope(path, ctx.writeScope);
  const withheld = withheldByName ?? (holdsPrivateKey(textOf(current) ?? '') ? privateKeyReason : undefined);
  if (withheld !== undefined && operation === 'edit') throw new PathRefusedError(path, withheld, withheldHint(path));
  const mustAsk = outsideScope || withheld !== undefined || reconciled.kind === 'unexpected' || needsApproval(effect, ctx.approvalPolicy);
  for (let round = 1; ; round++) {
    // At every read, not only the first: a file that changed under the write (while its question was open, or between the
    // check and the write) is read again, and a write over it would drop that change (an outside attack).
    if (operation === 'write') await refuseDroppingUnseen(ctx, input.resolvedPath, path, seen, current, signal);
    const proposed = input.propose(textOf(current));
    refuseTooLarge(path, proposed);
    if (proposed === textOf(current) && withheld === undefined) return { path, operation: 'unchanged', changed: false, bytes: 0 };
    if (mustAsk) {
      const verb = operation === 'delete' ? 'deleting' : !current.exists ? 'creating' : operation === 'edit' ? 'editing' : 'overwriting';
      const proposal = proposalOf(input, withheld === undefined ? current : shownInPlaceOf(current), proposed);
      const interrupted = reconciled.kind === 'unexpected';
      if (interrupted) {
        ctx.output?.(`Asks: this step was changing ${path} when the run was interrupted, and the file changed since, so the change may already be in it.\n`);
      }
      const request = {
        kind: 'file' as const,
        stepId: ctx.stepId,
        title: ctx.stepTitle,
        operation,
        proposal,
        ...(outsideScope ? { outsideScope } : {}),
        ...(interrupted ? { interrupted } : {}),
      };
      await requireApproval(ctx, request, `${verb} ${path}`, signal);
      const now = await readVersion(ctx, path, signal, stayOn);
      if (!sameVersion(now, current)) {
        // Changed while the question was open: what was approved would overwrite what the user never saw.
        if (round >= maxRounds) throw changedTooOften(path);
        current = now;
        continue;
      }
    }
    try {
      await applyRecorded(ctx, { path, operation, before: current, after: proposed, resolvedPath: input.resolvedPath }, signal, stayOn);
      if (proposed === undefined) ctx.seenVersions?.delete(path);
      // An edit of a version the step never saw tells it nothing of the rest: marked seen, a later write of the step
      // would drop what another step put there (an outside attack).
      else if (operation === 'write' || !current.exists || current.sha256 === seen) ctx.seenVersions?.set(path, sha256(proposed));
      return resultOf(path, current, operation, proposed);
    } catch (error) {
      if (!isWorkspaceError(error, 'changed')) throw error;
      if (round >= maxRounds) throw changedTooOften(path);
      current = await readVersion(ctx, path, signal, stayOn);
    }
  }
}

/**
 * A `refuseTarget` for the reads and the write of a change checked against `resolvedPath` (where its path led then):
 * refuses, with a `WorkspaceError` of code `changed`, a path that leads elsewhere now.
 */
function onlyWhileLeadingTo(resolvedPath: string): TargetCheck {
  return (resolved, input) =>
    resolved === resolvedPath
      ? undefined
      : new WorkspaceError(
          'changed',
          input,
          `${input} now leads to ${resolved}, not to ${resolvedPath} as when this change was checked (a link was changed meanwhile); nothing was written. Run the step again to change the file it leads to now.`,
        );
}

/**
 * Refuses a whole-file write over `current` that would drop a change its step never saw: one made since the step last saw
 * the file (`seen`), or, when it never saw it, one made by a step of the run that this step does not depend on (two
 * steps that may run in any order: the write would erase the other's change, both reporting success).
 */
async function refuseDroppingUnseen(
  ctx: ToolContext,
  resolvedPath: string,
  path: string,
  seen: string | undefined,
  current: FileVersion,
  signal: AbortSignal,
): Promise<void> {
  if (!current.exists) return;
  if (seen !== undefined) {
    if (current.sha256 === seen) return;
    throw new WorkspaceError('changed', path, `${path} changed since this step read it (another step, run or program wrote it); nothing was written.`, {
      modelHint: 'Read it again and write your change on what it holds now.',
    });
  }
  const others = await unrelatedChangesOfFile(ctx, path, resolvedPath, signal);
  if (others.length === 0) return;
  const kind = others.length === 1 ? 'step' : 'steps';
  // The Plan view shows titles, a plan file ids: both, the title on one line and cut short (a model's or a file's text).
  const named = others.map(({ id, title }) => `${id} ("${oneLine(title, 60)}")`).join(', ');
  // The person sees what to change in the plan, both ways (a newcomer made this step depend on E as told, and lost E's
  // change without a word); a model that called the tool, how to write without dropping the change.
  const ids = others.map(({ id }) => id).join(', ');
  throw new WorkspaceError(
    'changed',
    path,
    `${path} was changed in this run by ${kind} ${named}, which this step does not depend on, and this step has not read it; nothing was written, since writing the whole file would drop that change. ` +
      `To keep that change, make ${kind} ${ids} depend on this step instead (${others.length === 1 ? 'its change is' : 'their changes are'} then made on what this step writes). ` +
      `To write over it, make this step depend on ${kind} ${ids}.`,
    { modelHint: 'Read it and write your change on what it holds now, or edit it with edit_file.' },
  );
}

/**
 * The steps the run's `unrelatedChanges` names for this file under any of its names: the path as given, where it leads,
 * and every other path the run changed that leads to the same place (a link inside the workspace, or a name a
 * case-insensitive disk takes for it, as `foldedPath` compares): a blind write through `alias.md -> notes.md` dropped a
 * parallel step's edit of `notes.md`, both steps completed (an outside attack).
 */
async function unrelatedChangesOfFile(ctx: ToolContext, path: string, resolvedPath: string, signal: AbortSignal): Promise<{ id: string; title: string }[]> {
  if (ctx.unrelatedChanges === undefined) return [];
  const place = foldedPath(resolvedPath);
  const names = new Set([path, resolvedPath]);
  for (const { path: changed } of ctx.filesChangedInRun?.() ?? []) {
    if (names.has(changed)) continue;
    if (foldedPath(changed) === place || foldedPath(changed) === foldedPath(path)) {
      names.add(changed);
      continue;
    }
    // Where it leads now; a path gone or refused since leads nowhere this write goes.
    const leadsTo = await Promise.resolve(ctx.workspace.locate?.(changed, signal)).catch(() => undefined);
    if (leadsTo !== undefined && foldedPath(leadsTo) === place) names.add(changed);
  }
  const found = new Map<string, { id: string; title: string }>();
  for (const name of names) for (const step of ctx.unrelatedChanges(name)) found.set(step.id, step);
  return [...found.values()];
}

/**
 * What a question shows of a file kept from the model (a credentials file) in place of what it holds: a line naming its
 * size and version, never its text. The question's text reaches the terminal, the journal, a CI job's summary; the
 * version binds the approval to what is there all the same (the request's fingerprint covers the text shown).
 */
function shownInPlaceOf(current: FileVersion): FileVersion {
  if (!current.exists) return current;
  const lines = current.text === '' ? 0 : current.text.split('\n').length - (current.text.endsWith('\n') ? 1 : 0);
  // Short: a diff editor does not wrap it (a newcomer had to scroll to read a longer one).
  const text = `(not shown: a credentials file; ${lines} ${lines === 1 ? 'line' : 'lines'}, version ${current.sha256.slice(0, 12)})\n`;
  return { exists: true, text, sha256: current.sha256 };
}

function proposalOf(input: { path: string; resolvedPath: string }, current: FileVersion, proposed: string | undefined): FileProposal {
  const { path, resolvedPath } = input;
  const currentText = textOf(current);
  return {
    path,
    currentText,
    proposedText: proposed,
    diff: createTwoFilesPatch(
      currentText === undefined ? '/dev/null' : `a/${path}`,
      proposed === undefined ? '/dev/null' : `b/${path}`,
      currentText ?? '',
      proposed ?? '',
    ),
    ...(resolvedPath === path ? {} : { resolvedPath }),
  };
}

function resultOf(path: string, before: FileVersion, operation: 'write' | 'edit' | 'delete', after: string | undefined): FileChangeResult {
  if (after === undefined) return { path, operation: 'deleted', changed: true, bytes: 0 };
  return {
    path,
    operation: !before.exists ? 'created' : operation === 'edit' ? 'edited' : 'overwritten',
    changed: true,
    bytes: new TextEncoder().encode(after).length,
  };
}

function refuseTooLarge(path: string, proposed: string | undefined): void {
  // Stryker disable next-line ConditionalExpression: a deletion (undefined) encodes to 0 bytes, so measuring it too changes nothing.
  if (proposed === undefined) return;
  const bytes = new TextEncoder().encode(proposed).length;
  if (bytes > maxWriteBytes) {
    throw new WorkspaceError('too_large', path, `Refused to write ${path}: ${bytes} bytes is more than the ${maxWriteBytes}-byte limit`);
  }
}

function sameVersion(a: FileVersion, b: FileVersion): boolean {
  return a.exists ? b.exists && a.sha256 === b.sha256 : !b.exists;
}

function changedTooOften(path: string): Error {
  return new Error(
    `${path} kept changing while this step was changing it (${maxRounds} times in a row, by another step, run or program); nothing was written. Run the step again once nothing else is writing it.`,
  );
}

/** A path as the workspace will see it (relative, normalised); refuses what confinement refuses. */
export function workspacePath(ctx: ToolContext, path: string): string {
  return normalizeWorkspacePath(path, ctx.workspace.rootLabel.startsWith('/') ? ctx.workspace.rootLabel : undefined);
}

