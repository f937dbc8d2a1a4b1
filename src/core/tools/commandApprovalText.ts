import { directionControlClass } from '../../shared/vocabulary';
import { visibleEscape } from '../text/visibleDirection';
import type { FileChangedInRun, ProjectProgram, RetryNote } from '../ports';
import { describeRetry } from './retryNoteText';
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
  /** Files this run changed that define what the command does (see the `command` approval request). */
  changedInRun?: readonly FileChangedInRun[];
  /** Where the program comes from when it is one of the project's own rather than `PATH`'s (see the `command` approval request). */
  program?: ProjectProgram;
  /** Why an allow rule that nearly allowed the command does not (see the `command` approval request). */
  notAllowedBecause?: string;
  /** Present when a retry of the step asks (see `ApprovalRequest`). */
  retry?: RetryNote;
}

/** Most changed files a question names; the rest are counted. */
const shownChanges = 5;

// Characters JSON leaves as they are that a dialog would act on: DEL, the C1 controls, the line and paragraph separators and the direction controls.
const unsafeInJson = new RegExp(`[\\u007f-\\u009f\\u2028\\u2029${directionControlClass}]`, 'g');

/**
 * The editor's modal question before a command runs: a `message` naming the step on one
 * line, and a `detail` of exactly one line for the command and one for its folder (plus
 * one when a shell runs it, one when it may already have run, one naming the files
 * this run changed that define what it runs, and one saying why a rule that nearly allowed it does not). A word that is not plain (spaces, quotes, line breaks,
 * controls) is shown as a JSON string, every control and text-direction control as its
 * `\uXXXX` escape, so nothing in a plan can forge a line of the question, push the real
 * command out of sight or reverse what is shown. A program found in the project's own
 * folders (`program`) has a line of its own: "Program: mypy (.venv/bin/mypy), from …, not PATH."
 * A retry says which attempt it is in the message, and why the one before failed in a last line.
 */
export function commandApprovalText(command: CommandToApprove): { message: string; detail: string } {
  const folder = command.cwd === '' ? 'the workspace folder' : shownCommandWord(command.cwd);
  return {
    message: `Step "${oneLine(command.title)}" wants to run a command${command.retry ? ` again (attempt ${command.retry.attempt} of ${command.retry.of})` : ''}.`,
    detail:
      `Command: ${command.argv.map(shownCommandWord).join(' ')}\nWorking directory: ${folder}${command.shell ? '\nRuns through a shell.' : ''}` +
      (command.program
        ? `\nProgram: ${describeProjectProgram(command.argv[0] ?? '', command.program)}, from ${projectProgramOrigin(command.program)}, not PATH.`
        : '') +
      (command.mayHaveRun
        ? '\nThis step started the same command before the run was interrupted: it may already have run. Run it again only if running it twice is safe.'
        : '') +
      (command.changedInRun?.length
        ? `\nThis run changed ${describeChangedInRun(command.changedInRun)}, which the command reads to decide what it runs: allow rules do not apply. Run it only if that change is one you expect.`
        : '') +
      (command.notAllowedBecause === undefined ? '' : `\nAsks although you have a rule: ${oneLine(command.notAllowedBecause)}.`) +
      (command.retry === undefined ? '' : `\n${describeRetry(command.retry)}`),
  };
}

/**
 * `changes` on one line, each file as a command word (`shownCommandWord`) with the steps
 * that changed it: "package.json (by step S1), Makefile (by steps S1, S2)"; at most 5 files,
 * then how many more.
 */
export function describeChangedInRun(changes: readonly FileChangedInRun[]): string {
  const named = changes.slice(0, shownChanges).map(({ path, stepIds }) => {
    const steps = stepIds.map(shownCommandWord).join(', ');
    return `${shownCommandWord(path)} (by step${stepIds.length === 1 ? '' : 's'} ${steps})`;
  });
  const more = changes.length - shownChanges;
  return more > 0 ? `${named.join(', ')} and ${more} more file${more === 1 ? '' : 's'}` : named.join(', ');
}

/** One word of a command as the user is shown it: a plain word as it is, any other as a JSON string with every invisible character as its `\uXXXX` escape. */
export function shownCommandWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word).replace(unsafeInJson, visibleEscape);
}

/** Where a project's program comes from, in the user's words. */
const programOrigins: Readonly<Record<ProjectProgram['from'], string>> = {
  virtualEnvironment: "the workspace's Python virtual environment",
  selectedPythonEnvironment: 'the Python environment selected in the editor',
  nodeModules: "the workspace's node_modules/.bin",
};

/**
 * The program `name` (`argv[0]`) with the file it resolved to, as questions, outputs and
 * summaries show it: "mypy (.venv/bin/mypy)", each part a command word (`shownCommandWord`).
 */
export function describeProjectProgram(name: string, program: ProjectProgram): string {
  return `${shownCommandWord(name)} (${shownCommandWord(program.shown)})`;
}

/** Where `program` comes from, in the user's words: "the workspace's Python virtual environment". */
export function projectProgramOrigin(program: ProjectProgram): string {
  return programOrigins[program.from];
}
