// The WorkspaceFs contract (test/unit/conformance) run against the VS Code implementation inside the real host.
import { mkdtempSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { createVscodeWorkspaceFs } from '../../src/vscode/vscodeWorkspaceFs';
import { describeWorkspaceFsConformance } from '../unit/conformance/workspaceFsConformance';

const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';

describeWorkspaceFsConformance('vscode.workspace.fs in the extension host', async (files) => {
  const root = mkdtempSync(join(base, '.conformance-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { workspace: createVscodeWorkspaceFs(vscode.Uri.file(root)), dispose: async () => rmSync(root, { recursive: true, force: true }) };
});
