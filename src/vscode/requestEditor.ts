import * as vscode from 'vscode';

/** The context key that shows ▷ (Plan task from the editor) in the title of a request editor. */
const contextKey = 'taskPlanner.requestEditor';

/**
 * The first line of a new request document: a comment, so it is left out of the request. It goes above the request,
 * so the request is the document's end and whatever is typed on after it (another bullet, another line) continues it.
 */
const hint = (): string =>
  vscode.l10n.t(
    '<!-- Describe the task: as many lines, lists and code blocks as you like. Then click ▷ (Plan task from the editor) in this editor\'s title. -->',
  );

/**
 * Requests longer than an input box: untitled Markdown documents opened from the "Plan
 * task" input box, with ▷ (Plan task from the editor) in their title (the `taskPlanner.requestEditor`
 * context key). Any editor's text can be planned too: its selection, or all of it.
 */
export class RequestEditors implements vscode.Disposable {
  private readonly documents = new Set<string>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.window.onDidChangeActiveTextEditor((editor) => this.updateContext(editor)),
      vscode.workspace.onDidCloseTextDocument((document) => this.documents.delete(document.uri.toString())),
    ];
  }

  /**
   * Opens a new request document: the hint, then `text` (what was typed in the input box so far), the cursor at its
   * end. Named "Task request N.md" (the first N no open document has), since an untitled document is otherwise
   * named after its first line, the hint.
   */
  async open(text: string): Promise<vscode.TextEditor> {
    const content = `${hint()}\n\n${text}`;
    const taken = new Set(vscode.workspace.textDocuments.map((document) => document.uri.toString()));
    let number = 1;
    let uri = requestUri(number);
    while (taken.has(uri.toString())) uri = requestUri(++number);
    const document = await vscode.workspace.openTextDocument(uri);
    // Known as a request before it shows, so its title has ▷ and a completed run closes it.
    this.documents.add(document.uri.toString());
    // The text is in place before the editor shows, and the cursor comes with it: a selection set once it showed could
    // arrive after the user's first keys and move the cursor back over what they typed (seen under load in code-server).
    // A name let go just before (a request planned and closed) can come back with that document's old text (seen in
    // code-server): what is there is replaced.
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(new vscode.Position(0, 0), document.lineAt(document.lineCount - 1).range.end), content);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(vscode.l10n.t('The request editor could not be filled with what you typed.'));
    const end = document.positionAt(document.getText().length);
    const editor = await vscode.window.showTextDocument(document, { preview: false, selection: new vscode.Range(end, end) });
    this.updateContext(editor);
    return editor;
  }

  /** Whether `document` is a request document opened here. */
  isRequest(document: vscode.TextDocument): boolean {
    return this.documents.has(document.uri.toString());
  }

  /** Closes a request document without asking to save it (it was planned). */
  async discard(document: vscode.TextDocument): Promise<void> {
    this.documents.delete(document.uri.toString());
    const tab = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .find((entry) => entry.input instanceof vscode.TabInputText && entry.input.uri.toString() === document.uri.toString());
    if (!tab) return;
    await vscode.window.showTextDocument(document, { preview: false, preserveFocus: false });
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private updateContext(editor: vscode.TextEditor | undefined): void {
    void vscode.commands.executeCommand('setContext', contextKey, editor !== undefined && this.isRequest(editor.document));
  }
}

/** The untitled Markdown document "Task request N.md". */
function requestUri(number: number): vscode.Uri {
  return vscode.Uri.from({ scheme: 'untitled', path: vscode.l10n.t('Task request {0}.md', number) });
}

/**
 * The request an editor holds: its selection when there is one, else its whole text, with
 * Markdown comments (the request document's hint) left out; `undefined` when blank.
 */
export function requestFromEditor(editor: vscode.TextEditor): string | undefined {
  const document = editor.document;
  const raw = editor.selection.isEmpty ? document.getText() : document.getText(editor.selection);
  const text = raw.replace(/<!--[\s\S]*?-->/g, '').trim();
  return text === '' ? undefined : text;
}
