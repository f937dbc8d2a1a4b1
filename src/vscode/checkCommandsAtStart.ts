import * as vscode from 'vscode';
import type { CheckCommand, CheckCommandConsent } from '../core/engine/checkCommandConsent';
import type { CommandAllowList, CommandRunner } from '../core/commandPorts';
import type { Plan } from '../core/plan/planSchema';
import { loadRuntime } from './loadRuntime';
import { commandsToAskAtStart } from './shownText';

/** The allow rules as the Start question uses them (`EditorCommandAllowList`). */
export interface CheckCommandRules extends CommandAllowList {
  /** Whether `command` can become a rule of this workspace that would allow it where it runs. */
  canAllow(command: CheckCommand): boolean;
  add(argv: readonly string[]): Promise<void>;
}

/**
 * Asks whether the plan's check commands may run: true allows them for the run, `'workspace'` (offered when
 * `offerWorkspace`) also makes each an allow rule of this workspace, false declines them, `undefined` (closed) starts nothing.
 */
export type ConfirmCheckCommands = (question: string, offerWorkspace: boolean) => Promise<boolean | 'workspace' | undefined>;

/**
 * The user's answer to `plan`'s check commands, asked once before it runs (steps with a result in `completed` left out,
 * commands `rules` allow left out); `undefined` when none is left to ask about or the workspace is not trusted. An answer
 * for the workspace adds each command to `rules`. Throws (nothing starts) when the question was closed unanswered.
 */
export async function checkCommandsAtStart(
  plan: Plan | undefined,
  completed: Record<string, unknown> | undefined,
  runner: CommandRunner,
  rules: CheckCommandRules | undefined,
  confirm: ConfirmCheckCommands,
): Promise<CheckCommandConsent | undefined> {
  const runtime = loadRuntime();
  const planned = plan ? runtime.planCheckCommands(plan, completed, rules?.rules()) : [];
  // One question lists only what can be read in it at once (E3 of issue 27): the others ask when they run.
  const asked = commandsToAskAtStart(planned, runtime.describeCheckCommand);
  // In Restricted Mode every command is refused before it is asked about: no question to ask.
  if (asked.length === 0 || !vscode.workspace.isTrusted) return undefined;
  // A project's own program (`.venv/bin/pytest`) is shown, and the allowance bound to it.
  const commands = await runtime.withProjectPrograms(asked, runner);
  const offerWorkspace = rules !== undefined && commands.every((command) => rules.canAllow(command));
  const allowed = await confirm(runtime.checkCommandsQuestion(commands), offerWorkspace);
  if (allowed === undefined) {
    throw new Error(vscode.l10n.t('The run was not started: the question whether its check commands may run was closed without an answer.'));
  }
  if (allowed === 'workspace' && rules !== undefined) {
    for (const command of commands) await rules.add(command.program === undefined ? command.argv : [command.program, ...command.argv.slice(1)]);
  }
  return { allowed: allowed !== false, commands };
}
