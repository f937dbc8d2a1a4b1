import * as vscode from 'vscode';

/** How a progress notification is shown: `task` is given its reporter, and the notification closes when `task`'s promise settles. */
export type ShowProgress = (task: (progress: { report(value: { message: string }): void }) => Promise<void>) => void;

/**
 * One progress notification while any MCP server is connecting, naming those still connecting. A server is added only
 * once the user allowed it and gave its inputs (`McpServersOptions.connecting`), so the notification never stands beside
 * an open question about a server as if it were already starting; it closes when the last one runs or failed.
 */
export class McpStartProgress {
  private shown: { readonly names: string[]; report(): void; close(): void } | undefined;

  constructor(private readonly show: ShowProgress) {}

  /** Shows `name` (as the editor may show it) connecting until `connected` settles. */
  add(name: string, connected: Promise<unknown>): void {
    const shown = (this.shown ??= this.open());
    shown.names.push(name);
    shown.report();
    const settle = (): void => {
      shown.names.splice(shown.names.indexOf(name), 1);
      if (shown.names.length > 0) return shown.report();
      if (this.shown === shown) this.shown = undefined;
      shown.close();
    };
    connected.then(settle, settle);
  }

  private open(): NonNullable<McpStartProgress['shown']> {
    let close = (): void => undefined;
    let progress: { report(value: { message: string }): void } | undefined;
    const names: string[] = [];
    const report = (): void => {
      // Nothing to say yet when the editor calls the task at once, before the first name is added.
      if (names.length === 0) return;
      progress?.report({
        message:
          names.length === 1
            ? vscode.l10n.t('Starting the MCP server "{0}"…', names[0] ?? '')
            : vscode.l10n.t('Starting the MCP servers {0}…', names.map((name) => `"${name}"`).join(', ')),
      });
    };
    const closed = new Promise<void>((resolve) => (close = resolve));
    this.show((given) => {
      progress = given;
      report();
      return closed;
    });
    return { names, report, close: () => close() };
  }
}
