import * as vscode from 'vscode';
import { createCodeNavigationTools } from '../core/tools/codeNavigationTools';
import { createFetchUrlTool } from '../core/tools/fetchUrlTool';
import { createGetDiagnosticsTool } from '../core/tools/getDiagnosticsTool';
import type { Tool, ToolContext } from '../core/tools/tool';
import { createNodeUrlFetcher } from '../node/nodeUrlFetcher';
import { createVscodeCodeNavigation } from './vscodeCodeNavigation';
import { createVscodeProblems } from './vscodeProblems';

/**
 * The tools only the editor has, over its adapters: `get_diagnostics`, `find_symbols`,
 * `find_references`, `go_to_definition` (each call on the workspace folder of the run that
 * calls it, the folder its workspace is rooted at), and `fetch_url` over Node's HTTP client.
 */
export function editorTools(): Tool[] {
  const make = (root: () => vscode.Uri | undefined): Tool[] => [
    createGetDiagnosticsTool(createVscodeProblems(root)),
    ...createCodeNavigationTools(createVscodeCodeNavigation(root)),
  ];
  // The same tools, made over the calling run's folder at each call (runs of several folders share this registry).
  const inRunFolder = make(() => undefined).map((tool, index): Tool => ({
    ...tool,
    run: async (ctx, input, signal) => {
      const own = make(() => folderOf(ctx))[index];
      if (!own) throw new Error(`No editor tool ${tool.name}.`);
      return await own.run(ctx, input, signal);
    },
  }));
  return [...inRunFolder, createFetchUrlTool(createNodeUrlFetcher())];
}

/** The workspace folder the run's workspace is rooted at (`rootLabel` is its path). */
function folderOf(ctx: ToolContext): vscode.Uri | undefined {
  const root = ctx.workspace.rootLabel;
  return vscode.workspace.workspaceFolders?.find((folder) => folder.uri.fsPath === root)?.uri;
}
