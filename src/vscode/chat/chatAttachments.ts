import * as vscode from 'vscode';
import type { Attachment } from '../../core/plan/planSchema';
import { collectAttachments } from '../attachments';

const imageExtensions = /\.(png|jpe?g|gif|webp|bmp)$/i;

/**
 * What a chat request attaches to its plan: the links written in `text`, and the files and
 * selections among `references` (what the chat showed attached when the request was sent),
 * a selection by its lines (its text is read from the workspace when a step runs). Unlike
 * "Plan task", never the active editor's selection on its own: in the chat, the user
 * decides what goes with the request. A reference that is not a file of an open workspace
 * folder is left out and named in `refused`.
 */
export function chatAttachments(text: string, references: readonly vscode.ChatPromptReference[]): { attachments: Attachment[]; refused: string[] } {
  const attachments = collectAttachments(text, []).filter((attachment) => attachment.kind === 'link');
  const refused: string[] = [];
  for (const reference of references) {
    const value = reference.value;
    const uri = value instanceof vscode.Uri ? value : value instanceof vscode.Location ? value.uri : undefined;
    if (uri === undefined) continue;
    if (uri.scheme !== 'file' || vscode.workspace.getWorkspaceFolder(uri) === undefined) {
      refused.push(uri.scheme === 'file' ? uri.fsPath : uri.toString());
      continue;
    }
    const path = vscode.workspace.asRelativePath(uri, false);
    if (value instanceof vscode.Location) {
      const from = value.range.start.line + 1;
      const to = value.range.end.line + 1;
      attachments.push({ kind: 'file', ref: `${path}#L${from}-L${to}`, label: vscode.l10n.t('selection in {0} (lines {1}-{2})', path, from, to) });
    } else {
      attachments.push({ kind: imageExtensions.test(path) ? 'image' : 'file', ref: path, label: path });
    }
  }
  return { attachments, refused };
}
