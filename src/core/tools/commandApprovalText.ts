import { directionControlClass } from '../../shared/vocabulary';
import { visibleEscape } from '../plan/visibleDirection';
import { oneLine } from '../text/oneLine';

/** What the question before a command runs is about: the step's title and the process (argv, no shell unless `shell`). */
export interface CommandToApprove {
  title: string;
  argv: readonly string[];
  /** Workspace-relative working folder (`''`: the workspace folder). */
  cwd: string;
  shell: boolean;
  /** The step started this command before the run was interrupted (see the `command` approval request). */
  mayHaveRun?: true;
}

// Characters JSON leaves as they are that a dialog would act on: DEL, the C1 controls, the line and paragraph separators and the direction controls.
const unsafeInJson = new RegExp(`[\\u007f-\\u009f\\u2028\\u2029${directionControlClass}]`, 'g');

/**
 * The editor's modal question before a command runs: a `message` naming the step on one
 * line, and a `detail` of exactly one line for the command and one for its folder (plus
 * one when a shell runs it, and one when it may already have run). A word that is not plain (spaces, quotes, line breaks,
 * controls) is shown as a JSON string, every control and text-direction control as its
 * `\uXXXX` escape, so nothing in a plan can forge a line of the question, push the real
 * command out of sight or reverse what is shown.
 */
export function commandApprovalText(command: CommandToApprove): { message: string; detail: string } {
  const folder = command.cwd === '' ? 'the workspace folder' : shownCommandWord(command.cwd);
  return {
    message: `Step "${oneLine(command.title)}" wants to run a command.`,
    detail:
      `Command: ${command.argv.map(shownCommandWord).join(' ')}\nWorking directory: ${folder}${command.shell ? '\nRuns through a shell.' : ''}` +
      (command.mayHaveRun
        ? '\nThis step started the same command before the run was interrupted: it may already have run. Run it again only if running it twice is safe.'
        : ''),
  };
}

/** One word of a command as the user is shown it: a plain word as it is, any other as a JSON string with every invisible character as its `\uXXXX` escape. */
export function shownCommandWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word).replace(unsafeInJson, visibleEscape);
}
