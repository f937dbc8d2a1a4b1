import { posix } from 'node:path';
import * as vscode from 'vscode';
import { newErrors } from '../core/engine/newErrors';
import type { Diagnostics, EditorDiagnostic } from '../core/editorPorts';
import { leadsOutside } from '../shared/leadsOutside';

/** How long `errorsSince` waits for the language servers, in milliseconds. */
export interface DiagnosticsSettling {
  /** Quiet time after the last change of the paths' diagnostics before they count as settled. */
  quietMs: number;
  /** How long to wait for a first change when none came yet (a language server still checking the write). */
  firstChangeMs: number;
  /** Upper bound of the whole wait. */
  maxWaitMs: number;
}

/** Half a second of quiet, a first report within 4 s, 10 s at most. */
export const defaultSettling: DiagnosticsSettling = { quietMs: 500, firstChangeMs: 4_000, maxWaitMs: 10_000 };

/**
 * The `Diagnostics` port over `vscode.languages.getDiagnostics` for the workspace folder
 * `root`: error-severity diagnostics only, by workspace-relative path. `errorsSince` shows
 * the paths not open in a tab yet as preview tabs without focus (language servers such as
 * TypeScript check only open files), then waits
 * for their diagnostics to settle (`onDidChangeDiagnostics` quiet for `quietMs`, bounded by
 * `maxWaitMs`) before it compares.
 */
export function createVscodeDiagnostics(root: vscode.Uri, settling: DiagnosticsSettling = defaultSettling): Diagnostics {
  const relativeOf = (uri: vscode.Uri): string | undefined => {
    if (uri.scheme !== root.scheme || uri.authority !== root.authority) return undefined;
    const relative = posix.relative(root.path, uri.path);
    return relative === '' || leadsOutside(relative) || posix.isAbsolute(relative) ? undefined : relative;
  };
  const errorsIn = (paths: readonly string[] | undefined): EditorDiagnostic[] => {
    const wanted = paths === undefined ? undefined : new Set(paths);
    const errors: EditorDiagnostic[] = [];
    for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
      const path = relativeOf(uri);
      if (path === undefined || (wanted !== undefined && !wanted.has(path))) continue;
      for (const diagnostic of diagnostics) {
        if (diagnostic.severity !== vscode.DiagnosticSeverity.Error) continue;
        errors.push({ path, line: diagnostic.range.start.line + 1, message: diagnostic.message, ...(diagnostic.source ? { source: diagnostic.source } : {}) });
      }
    }
    return errors;
  };
  return {
    snapshot: (paths) => Promise.resolve({ errors: errorsIn(paths) }),
    async errorsSince(snapshot, paths, signal) {
      const uris = paths.map((path) => vscode.Uri.joinPath(root, path));
      const watched = new Set(uris.map((uri) => uri.toString()));
      const settled = settle(watched, settling, signal);
      // Language servers check files open in a tab (TypeScript only those): a changed file not open yet is shown as a
      // preview, without taking the focus. A file that is gone has no diagnostics to give.
      await Promise.all(uris.filter((uri) => !isInTab(uri)).map(showQuietly));
      await settled;
      signal.throwIfAborted();
      return newErrors(snapshot, errorsIn(paths));
    },
  };
}

/** True when `uri` is open in a text tab. */
export function isInTab(uri: vscode.Uri): boolean {
  const wanted = uri.toString();
  return vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === wanted));
}

/** Opens `uri` as a preview tab without taking the focus, so language servers check it; a missing or binary file is skipped. */
export async function showQuietly(uri: vscode.Uri): Promise<void> {
  try {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true, preserveFocus: true });
  } catch {
    // Gone or not text: nothing for a language server to report.
  }
}

/** Resolves once the diagnostics of `watched` (URI strings) settled, the wait ran out, or `signal` aborted. */
export function settle(watched: ReadonlySet<string>, settling: DiagnosticsSettling, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const finish = (): void => {
      clearTimeout(quiet);
      clearTimeout(limit);
      subscription.dispose();
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const arm = (ms: number): void => {
      clearTimeout(quiet);
      quiet = setTimeout(finish, ms);
    };
    const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (event.uris.some((uri) => watched.has(uri.toString()))) arm(settling.quietMs);
    });
    const limit = setTimeout(finish, settling.maxWaitMs);
    signal.addEventListener('abort', finish, { once: true });
    arm(settling.firstChangeMs);
  });
}
