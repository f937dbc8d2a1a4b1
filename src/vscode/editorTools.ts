import * as vscode from 'vscode';
import { createCodeNavigationTools } from '../core/tools/codeNavigationTools';
import { createFetchUrlTool } from '../core/tools/fetchUrlTool';
import { createGetDiagnosticsTool } from '../core/tools/getDiagnosticsTool';
import type { Tool } from '../core/tools/tool';
import { createNodeUrlFetcher } from '../node/nodeUrlFetcher';
import { createVscodeCodeNavigation } from './vscodeCodeNavigation';
import { createVscodeProblems } from './vscodeProblems';

/**
 * The tools only the editor has, over its adapters: `get_diagnostics`, `find_symbols`,
 * `find_references`, `go_to_definition` (on the first workspace folder, the one runs work
 * in), and `fetch_url` over Node's HTTP client.
 */
export function editorTools(): Tool[] {
  const folder = (): vscode.Uri | undefined => vscode.workspace.workspaceFolders?.[0]?.uri;
  return [
    createGetDiagnosticsTool(createVscodeProblems(folder)),
    ...createCodeNavigationTools(createVscodeCodeNavigation(folder)),
    createFetchUrlTool(createNodeUrlFetcher()),
  ];
}
