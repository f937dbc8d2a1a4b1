import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkspaceFs } from '../core/ports';
import { WorkspaceError } from '../core/workspace/workspaceError';

/**
 * `workspace` refusing to write over or delete a file that is open in an editor with
 * unsaved changes (a `WorkspaceError` of code `unsaved`): the user's typing is never lost
 * to a step, and the step says what to do. Paths are compared as the editor names the
 * document (under `root`); reads and everything else pass through.
 */
export function guardUnsavedEditors(workspace: WorkspaceFs, root: string): WorkspaceFs {
  const refuseIfUnsaved = (input: string): void => {
    const target = vscode.Uri.file(path.resolve(root, input)).toString();
    const open = vscode.workspace.textDocuments.find((document) => document.isDirty && document.uri.toString() === target);
    if (open === undefined) return;
    throw new WorkspaceError(
      'unsaved',
      input,
      `${input} is open in the editor with unsaved changes, so the step did not write over them. Save or revert the file, then run the step again.`,
    );
  };
  return {
    // The confined workspace's methods are closures: spread, they keep working (readTextMany too).
    ...workspace,
    async writeText(input, text, signal, options) {
      refuseIfUnsaved(input);
      return workspace.writeText(input, text, signal, options);
    },
    async delete(input, signal, options) {
      refuseIfUnsaved(input);
      return workspace.delete(input, signal, options);
    },
  };
}
