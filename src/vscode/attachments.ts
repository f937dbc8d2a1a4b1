import * as vscode from 'vscode';
import type { Attachment } from '../core/plan/planSchema';
import { withheldReason } from '../core/tools/withheldFiles';

const imageExtensions = /\.(png|jpe?g|gif|webp|bmp)$/i;

/** Most characters of a selection kept with its attachment (the agent's prompt cuts further). */
const maxSelectionChars = 100_000;

/**
 * What a request carries (docs/architecture.md §7): URLs written in it (links), the active editor's
 * selection when its file is in the workspace (a file reference with its line range, and the selected text itself, as it was
 * when the request was made: the file may change before the step runs), and files chosen
 * in the explorer (images as `image`, so models that accept images get them).
 */
export function collectAttachments(text: string, files: readonly vscode.Uri[]): Attachment[] {
  const attachments: Attachment[] = [];
  for (const match of text.matchAll(/https?:\/\/[^\s<>"')\]]+/g)) attachments.push({ kind: 'link', ref: match[0] });
  const editor = vscode.window.activeTextEditor;
  // Only a selection in a file of the workspace: one in a file opened from elsewhere (a key, a config of the user's) is not
  // sent to the model with the request.
  if (editor && !editor.selection.isEmpty && editor.document.uri.scheme === 'file' && vscode.workspace.getWorkspaceFolder(editor.document.uri)) {
    const selection = selectionAttachment(editor.document.uri, editor.selection);
    // A selection in a file tools keep from the model (.env, a key) goes by its name only: its text would be in the plan,
    // its journal and a saved plan file, though no model is given it.
    const kept = withheldReason(vscode.workspace.asRelativePath(editor.document.uri, false)) !== undefined;
    attachments.push(kept ? selection : { ...selection, text: capSelection(editor.document.getText(editor.selection)) });
  }
  for (const uri of files) attachments.push(fileAttachment(uri));
  return attachments;
}

/** A file as an attachment, by its workspace path: an image (by its extension) as `image`, so models that accept images get it. */
export function fileAttachment(uri: vscode.Uri): Attachment {
  const path = vscode.workspace.asRelativePath(uri, false);
  return { kind: imageExtensions.test(path) ? 'image' : 'file', ref: path, label: path };
}

/** The lines `range` of a file as an attachment (`path#L3-L7`, its text read when a step runs unless given with it). */
export function selectionAttachment(uri: vscode.Uri, range: vscode.Range): Attachment {
  const path = vscode.workspace.asRelativePath(uri, false);
  const [from, to] = [range.start.line + 1, range.end.line + 1];
  return { kind: 'file', ref: `${path}#L${from}-L${to}`, label: vscode.l10n.t('selection in {0} (lines {1}-{2})', path, from, to) };
}

/** The selected text, cut to `maxSelectionChars` with the cut said. */
function capSelection(selected: string): string {
  if (selected.length <= maxSelectionChars) return selected;
  return `${selected.slice(0, maxSelectionChars)}\n… (${selected.length - maxSelectionChars} more characters cut)`;
}
