import * as vscode from 'vscode';

/** The URI scheme of the read-only texts `SnapshotDocuments` serves. */
export const snapshotScheme = 'task-planner-snapshot';

/**
 * Read-only virtual documents holding a text as it was read at one moment (a file before a run, a file as Undo anyway
 * would overwrite it), so a diff shows exactly that text whatever happens to the file afterwards. Each `put` gets a
 * URI of its own; at most `maxKept` texts are kept, the oldest forgotten first.
 */
export class SnapshotDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private next = 0;

  constructor(private readonly maxKept = 100) {}

  /** Keeps `text` under a new URI ending in `path` (so the editor picks the language), labelled by `side`. */
  put(path: string, side: string, text: string): vscode.Uri {
    this.next += 1;
    const uri = vscode.Uri.from({ scheme: snapshotScheme, path: `/${path}`, query: new URLSearchParams({ side, n: String(this.next) }).toString() });
    this.texts.set(uri.toString(), text);
    for (const key of this.texts.keys()) {
      if (this.texts.size <= this.maxKept) break;
      this.texts.delete(key);
    }
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.texts.clear();
  }
}
