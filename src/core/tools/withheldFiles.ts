import { isCredentialFile } from '../workspace/credentialFiles';
import { isProtectedSegment } from '../workspace/protectedPlaces';
import { PathRefusedError } from '../workspace/resolveInRoot';
import type { ToolContext } from './tool';

const hint = 'No setting changes this: give the values the step needs in its input or the request (a copy without secrets, such as .env.example, is read).';

/**
 * Why tools do not read the workspace-relative `relative`, or `undefined` when they may: what a tool reads goes to
 * the model, so a file that holds credentials by its name (`isCredentialFile`: `.env`, keys, `.npmrc`…) is not read,
 * nor anything inside `.git` (its config can hold a remote's token) or `.task-planner` (run journals: what steps read).
 */
export function withheldReason(relative: string): string | undefined {
  const place = relative.split('/').find(isProtectedSegment);
  if (place !== undefined) {
    return `it is inside ${place}, which tools do not read (git's config can hold a remote's token; Task Planner's journals hold what steps read)`;
  }
  if (isCredentialFile(relative)) {
    return 'a file of this name holds credentials (keys, passwords, tokens), and tools do not read it: what a tool reads goes to the model';
  }
  return undefined;
}

/**
 * Refuses with a `PathRefusedError` (naming `written`, the path as the step gave it) a read of `path` that
 * `withheldReason` names, judged on the path and on where it leads after links (a committed `notes.txt` linking to
 * `.git/config`).
 */
export async function refuseWithheldRead(ctx: ToolContext, path: string, written: string, signal: AbortSignal): Promise<void> {
  const reason = withheldReason(path);
  if (reason !== undefined) throw new PathRefusedError(written, reason, hint);
  const resolved = await ctx.workspace.locate?.(path, signal);
  const led = resolved === undefined || resolved === path ? undefined : withheldReason(resolved);
  if (led !== undefined) throw new PathRefusedError(written, `it leads to ${resolved}: ${led}`, hint);
}

/** The paths of `paths` that lead (after links) to a file `withheldReason` names; each is located once. */
export async function leadingToWithheld(ctx: ToolContext, paths: Iterable<string>, signal: AbortSignal): Promise<Set<string>> {
  const withheld = new Set<string>();
  for (const path of new Set(paths)) {
    const resolved = await ctx.workspace.locate?.(path, signal).catch(() => undefined);
    if (resolved !== undefined && resolved !== path && withheldReason(resolved) !== undefined) withheld.add(path);
  }
  return withheld;
}
