import { directionControlClass } from '../../shared/vocabulary';
import { visibleEscape } from '../../shared/visibleCharacters';
import type { Attachment } from './planSchema';

/**
 * Where an attachment points: a URL (every link; an image or file given as `http(s):` or
 * `data:`), or a workspace path, with the 1-based inclusive line range of a selection
 * (`src/a.ts#L3-L7`, `#L3` for one line).
 */
export type AttachmentTarget = { kind: 'url'; url: string } | { kind: 'path'; path: string; lines?: { from: number; to: number } };

const urlPattern = /^(https?:|data:)/i;
const linesPattern = /#L(\d{1,9})(?:-L?(\d{1,9}))?$/;

/** Where `attachment` points (see `AttachmentTarget`); a range written backwards is put in order. */
export function attachmentTarget(attachment: Attachment): AttachmentTarget {
  if (attachment.kind === 'link' || urlPattern.test(attachment.ref)) return { kind: 'url', url: attachment.ref };
  const match = linesPattern.exec(attachment.ref);
  if (!match) return { kind: 'path', path: attachment.ref };
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : Number(match[2]);
  return { kind: 'path', path: attachment.ref.slice(0, match.index), lines: { from: Math.min(first, last), to: Math.max(first, last) } };
}

const invisible = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${directionControlClass}]`, 'g');

/**
 * `text` (a path or URL from a plan) with control characters, C1 controls and text-direction
 * controls shown as `\uXXXX` escapes, and at most 300 characters: a name that is safe to
 * put in a message, a dialog or a prompt line.
 */
export function shownRef(text: string): string {
  const visible = text.replace(invisible, visibleEscape);
  return visible.length > 300 ? `${visible.slice(0, 299)}…` : visible;
}
