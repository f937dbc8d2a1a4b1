import * as vscode from 'vscode';
import type { EditorProblem, Problems, ProblemSeverity } from '../core/editorPorts';
import { isInTab, settle, showQuietly, type DiagnosticsSettling } from './vscodeDiagnostics';
import { workspaceRelative } from './workspaceRelative';

const severities: Record<vscode.DiagnosticSeverity, ProblemSeverity> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};
const rank: Record<ProblemSeverity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

/** Half a second of quiet after a first report that may take 10 s (a language server checking a file it just opened), 15 s at most. */
export const problemsSettling: DiagnosticsSettling = { quietMs: 500, firstChangeMs: 10_000, maxWaitMs: 15_000 };

/**
 * The `Problems` port over `vscode.languages.getDiagnostics` for the workspace folder that
 * `root` gives at each call (none: an error asking to open a folder). Given paths are first
 * shown as quiet preview tabs when not open (TypeScript checks only open files) and their
 * diagnostics given time to settle (`settling`); files outside the folder are never listed.
 */
export function createVscodeProblems(root: () => vscode.Uri | undefined, settling: DiagnosticsSettling = problemsSettling): Problems {
  return {
    async list(paths, limit, signal) {
      const folder = root();
      if (!folder) throw new Error(vscode.l10n.t('Open a folder first: get_diagnostics reads the problems of the open workspace folder.'));
      const wanted = paths && new Set(paths);
      if (paths) {
        const uris = paths.map((path) => vscode.Uri.joinPath(folder, path));
        const closed = uris.filter((uri) => !isInTab(uri));
        if (closed.length > 0) {
          const settled = settle(new Set(closed.map((uri) => uri.toString())), settling, signal);
          await Promise.all(closed.map(showQuietly));
          await settled;
        }
      }
      signal.throwIfAborted();
      const found: EditorProblem[] = [];
      for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
        const place = workspaceRelative(folder, uri);
        if (!('path' in place) || (wanted !== undefined && !wanted.has(place.path))) continue;
        for (const diagnostic of diagnostics) found.push(problemOf(place.path, diagnostic));
      }
      found.sort((a, b) => rank[a.severity] - rank[b.severity] || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
      return { problems: found.slice(0, limit), total: found.length };
    },
  };
}

function problemOf(path: string, diagnostic: vscode.Diagnostic): EditorProblem {
  const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
  return {
    path,
    severity: severities[diagnostic.severity],
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    endLine: diagnostic.range.end.line + 1,
    endColumn: diagnostic.range.end.character + 1,
    message: diagnostic.message,
    ...(diagnostic.source ? { source: diagnostic.source } : {}),
    ...(code === undefined ? {} : { code: String(code) }),
  };
}
