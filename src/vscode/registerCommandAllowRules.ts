import * as vscode from 'vscode';
import type { CheckCommand } from '../core/engine/checkCommandConsent';
import type { EditorCommandAllowList } from './commandAllowList';
import { lazy } from './lazy';
import { loadRuntime } from './loadRuntime';
import type { CheckCommandRules } from './checkCommandsAtStart';
import type { CommandRuleMaker } from './vscodeInteraction';

/** The editor's command allow rules as the run controller and the command question use them. */
export type EditorCommandRules = CheckCommandRules & CommandRuleMaker & { remove(rule: readonly string[]): Promise<void> };

/**
 * The command allow rules of the window (kept in `state`, the workspace state, and read
 * from `taskPlanner.commands.allowed`; `isTrusted` read at each call), made on first use
 * in `dist/runtime.js`; the command "Task Planner: Command allow rules"; and a warning
 * when the setting changes to hold a bad entry.
 */
export function registerCommandAllowRules(state: vscode.Memento, isTrusted: () => boolean): { rules: EditorCommandRules; disposables: vscode.Disposable[] } {
  const list = lazy((): EditorCommandAllowList => loadRuntime().createVscodeCommandAllowList(state, isTrusted));
  const rules: EditorCommandRules = {
    rules: () => list().rules(),
    problem: (argv: readonly string[]) => list().problem(argv),
    canAllow: (command: CheckCommand) => list().canAllow(command),
    add: (argv: readonly string[]) => list().add(argv),
    remove: (rule: readonly string[]) => list().remove(rule),
  };
  return {
    rules,
    disposables: [
      vscode.commands.registerCommand('taskPlanner.commandAllowRules', () => loadRuntime().showCommandAllowRules(list())),
      vscode.workspace.onDidChangeConfiguration((event) => {
        // Reading the rules reports a bad entry once.
        if (event.affectsConfiguration('taskPlanner.commands.allowed')) list().list();
      }),
    ],
  };
}
