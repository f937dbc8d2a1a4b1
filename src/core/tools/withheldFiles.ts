import { isCredentialFile } from '../workspace/credentialFiles';
import { isProtectedSegment } from '../workspace/protectedPlaces';
import { PathRefusedError } from '../workspace/resolveInRoot';
import { oneLine } from '../text/oneLine';
import type { ToolContext } from './tool';

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
  const reason = withheldReason(path);
  if (reason !== undefined) {
    ctx.withheld?.(path);
    throw new PathRefusedError(written, reason, withheldHint(path));
  }
  const resolved = await ctx.workspace.locate?.(path, signal);
  if (resolved === undefined || resolved === path) return;
  const led = withheldReason(resolved);
  if (led !== undefined) {
    ctx.withheld?.(resolved);
    throw new PathRefusedError(written, `it leads to ${resolved}: ${led}`, withheldHint(resolved));
  }
}

/** The paths of `paths` that lead (after links) to a file `withheldReason` names, each with where it leads; each is located once. */
export async function leadingToWithheld(ctx: ToolContext, paths: Iterable<string>, signal: AbortSignal): Promise<Map<string, string>> {
  const withheld = new Map<string, string>();
  for (const path of new Set(paths)) {
    const resolved = await ctx.workspace.locate?.(path, signal).catch(() => undefined);
    if (resolved !== undefined && resolved !== path && withheldReason(resolved) !== undefined) withheld.set(path, resolved);
  }
  return withheld;
}
