import { caseFold } from './caseFold';
import { windowsName } from './windowsName';

/** A place inside a workspace that tools never change, by the directory name that starts it. */
interface ProtectedPlace {
  /** The directory's name, lower case. */
  name: string;
  /** Who keeps what there, for the refusal: "which git manages". */
  keeper: string;
}

const git: ProtectedPlace = { name: '.git', keeper: 'which git manages' };
const places: readonly ProtectedPlace[] = [git, { name: '.task-planner', keeper: 'where Task Planner keeps its run journals, snapshots and temporary files' }];

function placeOf(segment: string): ProtectedPlace | undefined {
  // Windows drops a name's trailing dots and spaces: `.git.` and `.git ` open `.git` there.
  // A case-insensitive disk opens `.GIT` and `.taſk-planner` as `.git` and `.task-planner`.
  const lower = caseFold(windowsName(segment));
  return places.find((place) => place.name === lower);
}

/**
 * Places inside a workspace that tools never change: git's own data (`.git`) and Task
 * Planner's own (`.task-planner`: run journals, their snapshots, the temporary files of
 * atomic writes), at any depth, in any letter case, since case-insensitive file systems
 * treat `.GIT` as `.git`. Checked on the location a path resolves to, after symbolic
 * links, not only on the path as written. Task Planner itself writes `.task-planner`
 * outside the tools' path (journals through the run store, temporary files through an
 * unguarded walk).
 */
export function isProtectedSegment(segment: string): boolean {
  return placeOf(segment) !== undefined;
}

/** `true` when the workspace-relative `relative` lies in a protected place. */
export function isProtectedPath(relative: string): boolean {
  return relative.split('/').some(isProtectedSegment);
}

/**
 * Why a change to `resolved` (workspace-relative, after links, inside a protected place)
 * is refused, for `PathRefusedError`: names the outermost protected place on its way, and
 * where the path leads unless that is `written` (the path as the step wrote it) itself.
 */
export function protectedPlaceReason(resolved: string, written?: string): string {
  // Stryker disable next-line all: callers pass only protected paths, so the fallback is never taken.
  const place = resolved.split('/').map(placeOf).find((found) => found !== undefined) ?? git;
  const where = written !== undefined && plainRelative(written) === resolved ? 'it is' : `it leads to ${resolved},`;
  return `${where} inside ${place.name}, ${place.keeper}: tools never change files there`;
}

/**
 * What a refusal of a protected place says to do: nothing more than its reason. The path
 * was relative and inside the workspace, so the usual "use a relative path" would mislead.
 */
export const protectedPlaceHint = '';

/** `written` with `\\` as `/`, without `./`, empty segments and a trailing `/` (no `..` resolved). */
function plainRelative(written: string): string {
  return written
    .replace(/\\/g, '/')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/');
}
