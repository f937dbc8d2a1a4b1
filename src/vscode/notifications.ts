import * as vscode from 'vscode';
import { withoutLinks } from './shownText';

/** The editor's message call, overload for overload: buttons as words or as items, with options (modal, detail) first or not. */
interface ShowMessage {
  <T extends string>(message: string, ...items: T[]): Thenable<T | undefined>;
  <T extends string>(message: string, options: vscode.MessageOptions, ...items: T[]): Thenable<T | undefined>;
  <T extends vscode.MessageItem>(message: string, ...items: T[]): Thenable<T | undefined>;
  <T extends vscode.MessageItem>(message: string, options: vscode.MessageOptions, ...items: T[]): Thenable<T | undefined>;
}

/**
 * Each kind of message through one door that makes its text unable to act: a notification
 * renders `[label](command:…)` in its message and a progress notification in its title and
 * reports, and a click runs the command with its arguments (a plan's path, an objective,
 * an MCP server's name or a model's words reach these texts). The extension names no link
 * of its own in them, so every message is passed through `withoutLinks`, whatever it holds;
 * a modal's `detail` is never rendered as Markdown. `test/arch/notifications.test.ts` keeps
 * every other file from calling the editor's own.
 */
function door(show: (message: string, ...rest: unknown[]) => Thenable<unknown>): ShowMessage {
  return ((message: string, ...rest: unknown[]) => show(withoutLinks(message), ...rest));
}

/** `vscode.window.showInformationMessage`, its message unable to form a link. */
export const showInformation: ShowMessage = door((message, ...rest) => vscode.window.showInformationMessage(message, ...(rest as string[])));
/** `vscode.window.showWarningMessage`, its message unable to form a link. */
export const showWarning: ShowMessage = door((message, ...rest) => vscode.window.showWarningMessage(message, ...(rest as string[])));
/** `vscode.window.showErrorMessage`, its message unable to form a link. */
export const showError: ShowMessage = door((message, ...rest) => vscode.window.showErrorMessage(message, ...(rest as string[])));

/** `vscode.window.withProgress`, its title and every reported message unable to form a link. */
export function withProgress<R>(
  options: vscode.ProgressOptions,
  task: (progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken) => Thenable<R>,
): Thenable<R> {
  const shown = options.title === undefined ? options : { ...options, title: withoutLinks(options.title) };
  return vscode.window.withProgress(shown, (progress, token) =>
    task({ report: (value) => progress.report(value.message === undefined ? value : { ...value, message: withoutLinks(value.message) }) }, token),
  );
}
