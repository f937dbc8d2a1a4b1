import * as path from 'node:path';
import { windowsName } from './windowsName';

/** Longest workspace-relative path accepted, in characters (after normalisation). */
export const maxPathLength = 1024;

/** Longest single path segment accepted, in UTF-8 bytes (the common file-system limit). */
export const maxSegmentBytes = 255;

/** What a refusal says to do by default: the path was not a plain relative one inside the workspace. */
export const relativePathHint = 'Use a path relative to the workspace root, such as "src/index.ts".';

/**
 * A path was refused because it does not stay inside the workspace root, or is built to
 * look as if it did. `path` is the path as given; the message says why and, with `hint`
 * (empty: nothing more), what to use.
 */
export class PathRefusedError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly hint: string = relativePathHint,
  ) {
    super(`Refused path "${printable(path)}": ${reason}.${hint === '' ? '' : ` ${hint}`}`);
    this.name = 'PathRefusedError';
  }
}

/**
 * What `resolveInRoot` needs from a real file system to follow symbolic links. Both take
 * absolute paths. `realpath` resolves every link and returns `undefined` when nothing
 * exists there (including a link whose target is missing); `isSymlink` reports whether the
 * entry itself is a link, without following it.
 */
export interface PathProbe {
  realpath(absolutePath: string): Promise<string | undefined>;
  isSymlink(absolutePath: string): Promise<boolean>;
}

/** A path accepted by `resolveInRoot`. */
export interface ResolvedPath {
  /** Normalised workspace-relative path with `/` separators; `''` is the root itself. */
  relative: string;
  /** `root` joined with `relative`, lexically. */
  absolute: string;
  /**
   * With a probe: the location to operate on, with every symbolic link resolved (for a
   * path that does not exist yet, its deepest existing ancestor resolved plus the rest).
   * Without a probe: equal to `absolute`.
   */
  real: string;
}

// Characters that are, or normalise (NFKC) to, path separators, dots or colons, or that
// render as one: a path using them is built to be misread, never a real need.
const lookAlikes = /[\u2024\u2025\u2026\u2044\u2215\u2216\u29f8\u29f9\u3002\ufe52\ufe55\ufe68\uff0e\uff0f\uff1a\uff3c\uff61]/u;
// Invisible format characters (zero-width, bidi overrides, BOM) hide what a path really is.
// U+206A–206F too: deprecated format characters that HFS+ leaves out of a name (`.g\u206Ait` opened `.git`).
// And what shows nothing where a name is read (the combining grapheme joiner, Khmer's inherent vowels, the interlinear
// annotation controls, the musical format controls, the tag characters): a file so named looked like another in every list.
// eslint-disable-next-line no-misleading-character-class -- single code points: the combining grapheme joiner is one of them, alone.
const invisible = /[\u00ad\u034f\u17b4\u17b5\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{1d173}-\u{1d17a}\u{e0000}-\u{e007f}]/u;
// A Windows short (8.3) name (`GIT~1`, `ENV~1.LOC`): it opens whatever long name it stands for there (`.git`, `.env`).
const shortName = /^[^.~]{1,6}~\d{1,6}(\.[^.]{1,3})?$/;
// Percent-encoded dot, separators, colon, NUL or percent: decoded by some layer, they escape.
const encodedSpecial = /%(2e|2f|5c|3a|00|25)/i;
const windowsDevice = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$|clock\$)(\..*)?$/i;
const textEncoder = new TextEncoder();
// Lower-case first letters of reserved device names: c(on, om, onin$, onout$, lock$), p(rn), a(ux), n(ul), l(pt).
const deviceInitials = new Set([0x63, 0x70, 0x61, 0x6e, 0x6c]);
// Stryker disable next-line Regex: only decides whether the character checks run; they cannot refuse a plain path, so a looser or stricter pattern changes speed, not results.
const plainPath = /^[A-Za-z0-9 _.,+=@#()[\]{}!&'~^$;-]*(?:\/[A-Za-z0-9 _.,+=@#()[\]{}!&'~^$;-]*)*$/;

function checkCharacters(input: string): void {
  // C1 controls and the line and paragraph separators too: a name holding one broke or hid a line wherever it was shown.
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(input)) throw new PathRefusedError(input, 'it contains a NUL or control character');
  if (invisible.test(input)) throw new PathRefusedError(input, 'it contains an invisible or text-direction character');
  if (lookAlikes.test(input) || hasNormalisingSpecial(input)) {
    throw new PathRefusedError(input, 'it contains a Unicode character that looks like ".", "/", "\\" or ":"');
  }
  if (encodedSpecial.test(input)) throw new PathRefusedError(input, 'it contains a percent-encoded ".", "/", "\\", ":", "%" or NUL');
}

/**
 * Checks a workspace path given by a model, a plan or a user, and returns it normalised
 * (relative, `/`-separated, no `.` or `..` segments; `''` for the root). Backslashes count
 * as separators. An absolute path is accepted only when it lies lexically inside `root`.
 * Throws `PathRefusedError` for anything that could reach outside the root or disguise
 * where it goes: `..` escapes, other absolute paths, NUL and control characters, device
 * and UNC paths, drive letters, reserved device names, percent-encoded separators or dots,
 * Unicode look-alikes of `.` `/` `\` `:`, invisible characters, `~`, and over-long paths.
 * Pure: it does not look at any file system (see `resolveInRoot` for symbolic links).
 */
export function normalizeWorkspacePath(input: string, root?: string): string {
  if (typeof input !== 'string') throw new PathRefusedError(String(input), 'a path must be a string');
  if (input.length > maxPathLength * 4) throw new PathRefusedError(input.slice(0, 80) + '…', `it is longer than ${maxPathLength} characters`);
  // Most paths are plain ASCII without "%", "\\" or ":", which none of the character checks can refuse.
  // Stryker disable next-line ConditionalExpression: running the character checks on a plain path too changes only speed.
  if (!plainPath.test(input)) checkCharacters(input);
  const slashed = input.replace(/\\/g, '/');
  if (slashed.startsWith('//')) throw new PathRefusedError(input, 'UNC and device paths (//server/share, \\\\?\\, \\\\.\\) are not allowed');
  if (/^[a-zA-Z]:/.test(slashed)) throw new PathRefusedError(input, 'drive-letter paths are not allowed');
  let relativePart = slashed;
  if (slashed.startsWith('/')) {
    const inside = root === undefined ? undefined : lexicallyInside(root, slashed);
    if (inside === undefined) throw new PathRefusedError(input, 'it is an absolute path outside the workspace');
    relativePart = inside;
  }
  const segments: string[] = [];
  for (const segment of relativePart.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) throw new PathRefusedError(input, 'it climbs out of the workspace root with ".."');
      segments.pop();
      continue;
    }
    checkSegment(input, segment, segments.length === 0);
    segments.push(segment);
  }
  const normalised = segments.join('/');
  if (normalised.length > maxPathLength) throw new PathRefusedError(input.slice(0, 80) + '…', `it is longer than ${maxPathLength} characters`);
  return normalised;
}

/** Options of `resolveInRoot`. */
export interface ResolveOptions {
  /** Absolute path of the workspace root. */
  root: string;
  /** The root with its symbolic links resolved; computed with `probe` when absent. */
  realRoot?: string;
  /** Follows symbolic links; without one only the lexical checks apply. */
  probe?: PathProbe;
}

/**
 * The single gate every workspace path goes through. Applies `normalizeWorkspacePath`,
 * then, with a probe, follows symbolic links (file or directory, at any depth) and refuses
 * the path when any existing part of it resolves outside the root, or when a part of it is
 * a link whose target does not exist (it could later be made to point anywhere).
 */
export async function resolveInRoot(input: string, options: ResolveOptions): Promise<ResolvedPath> {
  const relative = normalizeWorkspacePath(input, options.root);
  // Stryker disable next-line ConditionalExpression,StringLiteral: path.join(root, '') is the root itself for the resolved roots callers pass.
  const absolute = relative === '' ? options.root : path.join(options.root, relative);
  const probe = options.probe;
  if (!probe) return { relative, absolute, real: absolute };
  const realRoot = options.realRoot ?? (await probe.realpath(options.root));
  // Stryker disable next-line ConditionalExpression: without this early refusal the walk up below stops at the missing root with the same refusal.
  if (realRoot === undefined) throw new PathRefusedError(input, `the workspace root ${options.root} does not exist`);
  let current = absolute;
  const missing: string[] = [];
  for (;;) {
    const real = await probe.realpath(current);
    if (real !== undefined) {
      if (real !== realRoot && !real.startsWith(realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep)) {
        throw new PathRefusedError(input, 'it leads outside the workspace through a symbolic link');
      }
      // Stryker disable next-line ConditionalExpression: path.join(real) with nothing missing is real itself (realpath returns normalised paths).
      return { relative, absolute, real: missing.length === 0 ? real : path.join(real, ...missing.reverse()) };
    }
    if (await probe.isSymlink(current)) {
      throw new PathRefusedError(input, 'it goes through a symbolic link whose target does not exist');
    }
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: either test alone stops at a normalised root; both guard against walking above it.
    if (current === options.root || current.length <= options.root.length) {
      throw new PathRefusedError(input, `the workspace root ${options.root} does not exist`);
    }
    missing.push(path.basename(current));
    current = path.dirname(current);
  }
}

/** `child` relative to `parent` with `/` separators when it lies inside it (`''` for itself), else `undefined`. */
export function lexicallyInside(parent: string, child: string): string | undefined {
  const relation = path.relative(parent, child);
  // Stryker disable next-line ConditionalExpression,StringLiteral: an empty relation also comes out as '' from the split and join below.
  if (relation === '') return '';
  if (relation === '..' || relation.startsWith('..' + path.sep) || path.isAbsolute(relation)) return undefined;
  return relation.split(path.sep).join('/');
}

function checkSegment(input: string, segment: string, first: boolean): void {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the length test only skips encoding short segments (4 bytes per character at most); the byte count decides.
  if (segment.length > maxSegmentBytes / 4 && textEncoder.encode(segment).length > maxSegmentBytes) {
    throw new PathRefusedError(input.slice(0, 80) + '…', `a path segment is longer than ${maxSegmentBytes} bytes`);
  }
  const head = segment.charCodeAt(0);
  // Cheap first-character tests keep the regular expressions off the common path.
  // Stryker disable next-line ConditionalExpression: the first-character test only keeps the regular expression off most segments; the expression decides.
  if ((head === 0x2e || head === 0x20) && /^[. ]+$/.test(segment)) {
    throw new PathRefusedError(input, `the segment "${segment}" is made only of dots and spaces`);
  }
  if (first && segment === '~') throw new PathRefusedError(input, '"~" is not expanded to a home directory here');
  // Stryker disable next-line StringLiteral: the includes test only keeps the regular expression off most segments; the expression decides.
  if (segment.includes('~') && shortName.test(windowsName(segment))) {
    throw new PathRefusedError(input, `"${segment}" looks like a Windows short (8.3) name, which can stand for another file or folder; use its full name`);
  }
  if (deviceInitials.has(head | 0x20) && windowsDevice.test(windowsName(segment))) {
    throw new PathRefusedError(input, `"${segment}" is a reserved device name`);
  }
  // Stryker disable next-line StringLiteral: the includes test only keeps the regular expression off most segments; the expression decides.
  if (segment.includes(':') && /:\$|:$/.test(segment)) throw new PathRefusedError(input, 'alternate data streams are not allowed');
}

function hasNormalisingSpecial(input: string): boolean {
  for (const char of input) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: ASCII characters (and U+0080) are their own NFKC form, so checking them changes only speed.
    if (char.charCodeAt(0) < 0x80) continue;
    const normalised = char.normalize('NFKC');
    // Stryker disable next-line ConditionalExpression: a character that is its own NFKC form is not ASCII here, so never one of these.
    if (normalised !== char && /[./\\:%]/.test(normalised)) return true;
  }
  return false;
}

function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
