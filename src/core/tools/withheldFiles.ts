import { isCredentialFile } from '../workspace/credentialFiles';
import { isProtectedSegment } from '../workspace/protectedPlaces';
import { PathRefusedError } from '../workspace/resolveInRoot';
import { oneLine } from '../text/oneLine';
import type { ToolContext } from './tool';
import type { TargetCheck, WorkspaceFs } from '../workspacePorts';

/**
 * What to do instead of reading the workspace-relative `relative` that `withheldReason` names: for a file kept by its name,
 * a copy without secrets can be read; for one kept by its place, nothing in it can.
 */
export function withheldHint(relative: string): string {
  const instead = 'No setting changes this: give the values the step needs in its input or the request';
  return withheldBecause(relative) === 'credentials' ? `${instead} (a copy without secrets, such as .env.example, can be read).` : `${instead}.`;
}

/** Why tools do not read a file: it is inside a protected place (`.git`, `.task-planner`, as the path spells it), or holds credentials by its name. */
type WithheldBecause = { inside: string } | 'credentials';

function withheldBecause(relative: string): WithheldBecause | undefined {
  const place = relative.split('/').find(isProtectedSegment);
  if (place !== undefined) return { inside: place };
  return isCredentialFile(relative) ? 'credentials' : undefined;
}

/**
 * Why tools do not read the workspace-relative `relative`, or `undefined` when they may: what a tool reads goes to
 * the model, so a file that holds credentials by its name (`isCredentialFile`: `.env`, keys, `.npmrc`…) is not read,
 * nor anything inside `.git` (its config can hold a remote's token) or `.task-planner` (run journals: what steps read).
 */
export function withheldReason(relative: string): string | undefined {
  const because = withheldBecause(relative);
  if (because === undefined) return undefined;
  if (because === 'credentials') {
    return 'a file of this name holds credentials (keys, passwords, tokens), and tools do not read it: what a tool reads goes to the model';
  }
  return `it is inside ${because.inside}, which tools do not read (git's config can hold a remote's token; Task Planner's journals hold what steps read)`;
}

/**
 * The same judgement in a few words for the run's summary ("a credentials file", "inside .git"), `undefined` exactly
 * when `withheldReason` is.
 */
export function withheldLabel(relative: string): string | undefined {
  const because = withheldBecause(relative);
  if (because === undefined) return undefined;
  return because === 'credentials' ? 'a credentials file' : `inside ${because.inside}`;
}

/**
 * A file tools kept from the model, for people: ".env (a credentials file)", its path on one line of at most `max`
 * characters; the path alone when no rule names it (a journal written under other rules).
 */
export function keptFileText(path: string, max: number): string {
  const why = withheldLabel(path);
  return `${oneLine(path, max)}${why === undefined ? '' : ` (${why})`}`;
}

/**
 * Refuses with a `PathRefusedError` (naming `written`, the path as the step gave it) a read of `path` that
 * `withheldReason` names, judged on the path and on where it leads after links (a committed `notes.txt` linking to
 * `.git/config`); tells `ctx.withheld` the file kept (where the link led) before it refuses.
 */
export async function refuseWithheldRead(ctx: ToolContext, path: string, written: string, signal: AbortSignal): Promise<void> {
  const withheld = await withheldRead(ctx.workspace, path, signal);
  if (withheld === undefined) return;
  ctx.withheld?.(withheld.file);
  throw new PathRefusedError(written, withheld.reason, withheldHint(withheld.file));
}

/**
 * Why a read of `path` is withheld, judged on the path and on where it leads after links, with the file kept (where the
 * link led); `undefined` when it may be read. Every reader of workspace files for a model or a check asks this first.
 */
export async function withheldRead(
  workspace: Pick<WorkspaceFs, 'locate'>,
  path: string,
  signal: AbortSignal,
): Promise<{ file: string; reason: string } | undefined> {
  const reason = withheldReason(path);
  if (reason !== undefined) return { file: path, reason };
  const resolved = await workspace.locate?.(path, signal);
  if (resolved === undefined || resolved === path) return undefined;
  const led = leadsToWithheld(resolved);
  return led === undefined ? undefined : { file: resolved, reason: led };
}

/**
 * A `ReadOptions.refuseTarget` for reads `withheldRead` allowed: refuses (a `PathRefusedError` naming the path read) when
 * the file the read opens is one `withheldReason` names after all (a link retargeted since it was checked), telling
 * `kept` the file kept.
 */
export function refuseWithheldTarget(kept?: (file: string) => void): TargetCheck {
  return (resolved, input) => {
    const reason = leadsToWithheld(resolved);
    if (reason === undefined) return undefined;
    kept?.(resolved);
    return new PathRefusedError(input, reason, withheldHint(resolved));
  };
}

/** Why a path that leads (through links) to `resolved` is not read, or `undefined` when `resolved` may be. */
function leadsToWithheld(resolved: string): string | undefined {
  const reason = withheldReason(resolved);
  return reason === undefined ? undefined : `it leads to ${resolved}: ${reason}`;
}

/**
 * The paths of `paths` that lead (after links) to a file `withheldReason` names, each with where it leads; each is located
 * once, all at the same time (the file system's own queue bounds how many at once).
 */
export async function leadingToWithheld(ctx: ToolContext, paths: Iterable<string>, signal: AbortSignal): Promise<Map<string, string>> {
  const located = await Promise.all(
    [...new Set(paths)].map(async (path) => [path, await ctx.workspace.locate?.(path, signal).catch(() => undefined)] as const),
  );
  const leads = (entry: readonly [string, string | undefined]): entry is readonly [string, string] =>
    entry[1] !== undefined && entry[1] !== entry[0] && withheldReason(entry[1]) !== undefined;
  return new Map(located.filter(leads));
}
