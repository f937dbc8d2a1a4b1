import type { Check } from '../plan/planSchema';
import { normalizeWorkspacePath } from '../workspace/resolveInRoot';
import { cleanToken, isDirectoryToken, isPathToken } from '../text/pathsInText';
import type { ToolCall } from './recognizeToolAction';

const quoted = String.raw`(?:"([^"]+)"|'([^']+)'|\x60([^\x60]+)\x60)`;
const creation = new RegExp(
  String.raw`^(?:please\s+)?(?:create|write|add|make|generate)\s+(?:(?:a|an|the|new)\s+)*(?:file\s+)?(?:(?:called|named)\s+)?(\S+)(?!\S)(?:\s+file)?(.*)$`,
  'i',
);
const savedAs =
  /\b(?:save|write|export|dump)\s+(?:(?:it|them|this|that|the\s+\w+(?:\s+\w+)?)\s+)?(?:as|to|into|in)\s+(?:(?:a|the|new)\s+)?(?:file\s+)?(\S+)\s*$/i;
const contentWords = new RegExp(
  String.raw`^\s+(?:containing|(?:with|that\s+has)\s+(?:the\s+)?(?:text|content|contents|line)|that\s+says)\s+${quoted}\s*$`,
  'i',
);
const placedIn = /^\s+(?:to|in|into|under|inside)\s+(?:the\s+)?(\S+?)(?:\s+(?:folder|directory|dir))?\s*$/i;
const renaming = /^(?:please\s+)?(?:rename|move|mv)\s+(?:the\s+)?(?:file\s+)?(\S+)\s+(?:to|into|as)\s+(\S+)$/i;
const removal = /^(?:please\s+)?(?:delete|remove|rm(?:\s+-r?f?)?)\s+(?:the\s+)?(?:(?:old|unused|obsolete|stale|legacy|generated)\s+)*(?:(?:folder|directory|dir)\s+)?(\S+)(\s+(?:folder|directory|dir))?(?:\s+(?:entirely|completely|recursively))?$/i;
const pronounPlace = /^(?:it|them|there|this|that)$/i;

/**
 * The checks that show a built-in tool call did its work: a file written exists (holding the
 * line it was given, when that is one short line), a file deleted is gone. Reads, searches and listings change nothing; a command's exit code is
 * already its result, and a directory is not a file, so neither gets a check.
 */
export function toolCallChecks(call: ToolCall): Check[] {
  const path = call.args['path'];
  // A path out of the workspace gets no check: the plan's validation would refuse the whole plan over a check the
  // user never wrote, while the tool call itself is refused at run time with the folder the run may use.
  if (typeof path !== 'string' || !insideWorkspace(path)) return [];
  if (call.tool === 'write_file') {
    // A short line the step's words gave the file (`recognizeToolAction`) is checked as such; any other text by the file alone.
    const text = typeof call.args['content'] === 'string' ? call.args['content'].trim() : '';
    return text !== '' && text.length <= 200 && !text.includes('\n') ? [{ kind: 'file_contains', path, text }] : [{ kind: 'file_exists', path }];
  }
  if (call.tool === 'delete_file') return [{ kind: 'file_absent', path }];
  return [];
}

/**
 * The checks a step of work (for an agent or a person) obviously implies, from its text
 * alone: creating or saving a named file → `file_exists` (and `file_contains` when the
 * text quotes what the file holds); renaming or moving a named file → the old path absent
 * and the new one present; deleting a named file or folder → `file_absent`. Anything less
 * clear (editing, fixing, a file named only by "it") gets no check. Every path is
 * workspace-relative; `text` is one step.
 */
export function workChecks(text: string): Check[] {
  const line = text.trim().replace(/(?<![.;!])[.;!]+$/, '').replace(/\s+/g, ' ');
  const checks = renamed(line) ?? removed(line) ?? created(line) ?? saved(line) ?? [];
  return checks.every((check) => !('path' in check) || insideWorkspace(check.path)) ? checks : [];
}

/** Whether `path` is a workspace-relative path the plan's checks accept (not absolute, no `..` out, not disguised). */
function insideWorkspace(path: string): boolean {
  try {
    normalizeWorkspacePath(path);
    return true;
  } catch {
    return false;
  }
}

function created(line: string): Check[] | undefined {
  const match = creation.exec(line);
  if (!match) return undefined;
  const name = filePath(match[1]!);
  if (name === undefined) return undefined;
  const rest = match[2]!;
  const place = placedIn.exec(rest);
  if (place) {
    const folder = cleanToken(place[1]!);
    if (pronounPlace.test(folder) || name.includes('/')) return undefined;
    const path = directoryPath(folder);
    return path === undefined ? undefined : [{ kind: 'file_exists', path: `${path}/${name}` }];
  }
  const content = contentWords.exec(rest);
  const wanted = content ? (content[1] ?? content[2] ?? content[3]) : undefined;
  return wanted === undefined ? [{ kind: 'file_exists', path: name }] : [{ kind: 'file_contains', path: name, text: wanted }];
}

function saved(line: string): Check[] | undefined {
  const match = savedAs.exec(line);
  const path = match ? filePath(match[1]!) : undefined;
  return path === undefined ? undefined : [{ kind: 'file_exists', path }];
}

function renamed(line: string): Check[] | undefined {
  const match = renaming.exec(line);
  if (!match) return undefined;
  const from = filePath(match[1]!);
  const target = cleanToken(match[2]!);
  if (from === undefined) return undefined;
  const folder = target.endsWith('/') ? directoryPath(target) : undefined;
  const to = folder === undefined ? filePath(target) : `${folder}/${from.slice(from.lastIndexOf('/') + 1)}`;
  return to === undefined || to === from ? undefined : [{ kind: 'file_absent', path: from }, { kind: 'file_exists', path: to }];
}

function removed(line: string): Check[] | undefined {
  const match = removal.exec(line);
  if (!match) return undefined;
  const token = cleanToken(match[1]!);
  // Without the word "folder", only a path names what goes ("remove it" names nothing).
  const namedFolder = match[2] !== undefined || /\b(?:folder|directory|dir)\s/i.test(line);
  const path = namedFolder ? directoryPath(token) : isPathToken(token) ? (filePath(token) ?? directoryPath(token)) : undefined;
  return path === undefined ? undefined : [{ kind: 'file_absent', path }];
}

/** A workspace-relative file path named by `word`, or `undefined`. */
function filePath(word: string): string | undefined {
  const token = cleanToken(word).replace(/^\.\//, '');
  return isPathToken(token) && !isDirectoryToken(token) && confined(token) ? token : undefined;
}

/** A workspace-relative folder path named by `word` (a bare name counts), without its trailing "/", or `undefined`. */
function directoryPath(word: string): string | undefined {
  const token = cleanToken(word).replace(/^\.\//, '').replace(/\/$/, '');
  if (token === '' || !/^[\w@.+/-]+$/.test(token) || !confined(token)) return undefined;
  return isPathToken(token) && !isDirectoryToken(token) ? undefined : token;
}

function confined(path: string): boolean {
  return !path.startsWith('/') && !path.split('/').includes('..') && !path.startsWith('~');
}
