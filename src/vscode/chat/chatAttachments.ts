import * as vscode from 'vscode';
import type { Attachment } from '../../core/plan/planSchema';
import { collectAttachments, fileAttachment, selectionAttachment } from '../attachments';

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
    attachments.push(value instanceof vscode.Location ? selectionAttachment(uri, value.range) : fileAttachment(uri));
  }
  return { attachments, refused };
}
