import { directionControlClass } from '../../shared/vocabulary';
import { visibleControls, visibleEscape } from '../../shared/visibleCharacters';
import type { ProgramHelper, ProjectProgram } from '../commandPorts';
import type { FileChangedInRun, RetryNote } from '../interactionPorts';
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
  /** The helper the program runs for its subcommand when it is one of the project's own (see the `command` approval request). */
  helper?: ProgramHelper;
  /** What the repository's own git configuration makes git run for it (see the `command` approval request). */
  repositoryPrograms?: readonly string[];
  /** The text given to the command on its standard input (see the `command` approval request). */
  stdin?: string;
  /** Why an allow rule that nearly allowed the command does not (see the `command` approval request). */
  notAllowedBecause?: string;
  /** Present when a retry of the step asks (see `ApprovalRequest`). */
  retry?: RetryNote;
}

/** Most changed files a question names; the rest are counted. */
const shownChanges = 5;

/** Most characters of the step's title a question's heading shows (then cut, marked), so the command below stays in sight. */
const maxShownTitleChars = 200;

/** Most lines of a command's input a question shows, and most characters of each. */
export const shownInputLimits = { lines: 5, lineChars: 160 } as const;

// Characters JSON leaves as they are that a dialog would act on: DEL, the C1 controls, the line and paragraph separators and the direction controls.
const unsafeInJson = new RegExp(`[\\u007f-\\u009f\\u2028\\u2029${directionControlClass}]`, 'g');

// Every character of an input line not shown as itself (tabs and carriage returns too): the line then shows what it holds and nothing else.
const unsafeInLine = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\ufeff${directionControlClass}]`, 'g');

/**
 * The editor's modal question before a command runs: a `message` naming the step on one
 * line, and a `detail` of exactly one line for the command and one for its folder (plus
 * one when a shell runs it, one when it may already have run, one naming the files
 * this run changed that define what it runs, one naming what the repository's own git configuration makes git run,
 * and one saying why a rule that nearly allowed it does not). A word that is not plain (spaces, quotes, line breaks,
 * controls) is shown as a JSON string, every control and text-direction control as its
 * `\uXXXX` escape, so nothing in a plan can forge a line of the question, push the real
 * command out of sight or reverse what is shown. A program found in the project's own
 * folders (`program`) has a line of its own: "Program: mypy (.venv/bin/mypy), from …, not PATH.",
 * and so has a helper the program runs from them (`helper`): "Helper: git-lfs (node_modules/.bin/git-lfs),
 * which git runs for lfs, from …, not PATH." Input given to the command (`stdin`) is shown
 * by `describeCommandInput`: its size, its first lines, whether some is not shown.
 * A retry says which attempt it is in the message, and why the one before failed in a last line.
 */
export function commandApprovalText(command: CommandToApprove): { message: string; detail: string } {
  const folder = command.cwd === '' ? 'the workspace folder' : shownCommandWord(command.cwd);
  return {
    message: `Step "${oneLine(visibleControls(command.title.slice(0, maxShownTitleChars * 4)), maxShownTitleChars)}" wants to run a command${command.retry ? ` again (attempt ${command.retry.attempt} of ${command.retry.of})` : ''}.`,
    detail:
      `Command: ${shownCommand(command.argv)}\nWorking directory: ${folder}${command.shell ? '\nRuns through a shell.' : ''}` +
      (command.program
        ? `\nProgram: ${describeProjectProgram(command.argv[0] ?? '', command.program)}, from ${projectProgramOrigin(command.program)}, not PATH.`
        : '') +
      (command.helper ? `\nHelper: ${describeProgramHelper(command.argv, command.helper)}, from ${projectProgramOrigin(command.helper)}, not PATH.` : '') +
      (command.repositoryPrograms?.length ? `\n${describeRepositoryPrograms(command.repositoryPrograms)}` : '') +
      (command.stdin ? `\n${describeCommandInput(command.stdin).join('\n')}` : '') +
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
 * A command's standard input as questions show it, one string a line: a heading with its
 * size ("Input: 41 bytes in 1 line, given to the command on standard input:"), then its
 * first `shownInputLimits.lines` lines, each after "> " and cut to
 * `shownInputLimits.lineChars` characters ending in "…", every character that is not
 * shown as itself (controls, tabs, direction controls) as its `\uXXXX` escape; when not
 * all of it is shown, a last line says so. Bounded whatever the input's size, and no
 * line of the input can pass for a line of the question.
 */
export function describeCommandInput(stdin: string): string[] {
  const lines: string[] = [];
  let start = 0;
  let count = 0;
  let cut = false;
  while (start < stdin.length) {
    const end = stdin.indexOf('\n', start);
    const stop = end === -1 ? stdin.length : end;
    count++;
    if (lines.length < shownInputLimits.lines) {
      // A line break of two characters (CR LF) is a line break; any other carriage return is shown.
      const lineEnd = end !== -1 && stdin[stop - 1] === '\r' && stop > start ? stop - 1 : stop;
      const long = lineEnd - start > shownInputLimits.lineChars;
      const kept = long ? keepWhole(stdin.slice(start, start + shownInputLimits.lineChars - 1)) : stdin.slice(start, lineEnd);
      cut ||= long;
      lines.push(`> ${kept.replace(unsafeInLine, visibleEscape)}${long ? '…' : ''}`);
    }
    start = stop + 1;
  }
  const heading = `Input: ${inputSize(stdin)}, given to the command on standard input:`;
  const hidden = count - lines.length;
  const missing = [...(hidden > 0 ? [`${hidden} more line${hidden === 1 ? '' : 's'}`] : []), ...(cut ? ['long lines are cut'] : [])];
  if (missing.length === 0) return [heading, ...lines];
  return [heading, ...lines, `(Only part of the input is shown: ${missing.join(', and ')}. Read all of it in the plan before you allow it.)`];
}

/**
 * A command's input on one line: its size and its first line, cut to 80 characters, each character not shown as itself
 * escaped ("41 bytes in 1 line, starting: touch /tmp/x; wc -l README.md"), for a question of one line.
 */
export function describeCommandInputLine(stdin: string): string {
  // The question's first input line, as it shows it (escaped, after "> ").
  const start = (describeCommandInput(stdin)[1] ?? '> ').slice(2);
  return `${inputSize(stdin)}, starting: ${start.length > 80 ? `${keepWhole(start.slice(0, 79))}…` : start}`;
}

/** A command input's size in words: "41 bytes in 1 line" (a last line without its line break counts). */
function inputSize(stdin: string): string {
  const bytes = new TextEncoder().encode(stdin).length;
  const lines = (stdin.match(/\n/g)?.length ?? 0) + (stdin === '' || stdin.endsWith('\n') ? 0 : 1);
  return `${bytes} byte${bytes === 1 ? '' : 's'} in ${lines} line${lines === 1 ? '' : 's'}`;
}

/** Most of what a repository's git configuration runs that a question names; the rest are counted. */
const shownMost = 5;

/** What `CommandRunner.describeRepositoryPrograms` found as a question says it, on one line: the first five, then how many more ("a; b; and 3 more"). */
export function shownRepositoryPrograms(programs: readonly string[]): string {
  const more = programs.length - shownMost;
  return more <= 0 ? programs.join('; ') : `${programs.slice(0, shownMost).join('; ')}; and ${more} more (git config --list --show-origin --local names them)`;
}

/**
 * What a repository's own git configuration makes git run for a command, as a question's line: "Git also runs what this
 * repository's own configuration names: diff.evil.textconv = ./conv.sh (.git/config). Run it only if you put them there."
 */
export function describeRepositoryPrograms(programs: readonly string[]): string {
  return `Git also runs what this repository's own configuration names: ${shownRepositoryPrograms(programs)}. Run it only if you put them there.`;
}

/**
 * The helper a command's program runs for its subcommand, with its file and why it runs:
 * "git-lfs (node_modules/.bin/git-lfs), which git runs for lfs", each part a command word.
 */
export function describeProgramHelper(argv: readonly string[], helper: ProgramHelper): string {
  return `${shownCommandWord(helper.name)} (${shownCommandWord(helper.shown)}), which ${shownCommandWord(argv[0] ?? '')} runs for ${shownCommandWord(helper.name.slice(helper.name.indexOf('-') + 1))}`;
}

/** `text` without a lone high surrogate at its end (half of a character cut in two). */
function keepWhole(text: string): string {
  return /[\ud800-\udbff]$/.test(text) ? text.slice(0, -1) : text;
}

/**
 * `changes` on one line, each file as a command word (`shownCommandWord`) with the steps
 * that changed it: "package.json (by step S1), Makefile (by steps S1, S2)"; at most 5 files,
 * then how many more.
 */
export function describeChangedInRun(changes: readonly FileChangedInRun[]): string {
  const named = changes.slice(0, shownChanges).map(({ path, stepIds }) => {
    if (stepIds.length === 0) return `${shownCommandWord(path)} (on disk, since the run started: by a command or another program)`;
    const steps = stepIds.map(shownCommandWord).join(', ');
    return `${shownCommandWord(path)} (by step${stepIds.length === 1 ? '' : 's'} ${steps})`;
  });
  const more = changes.length - shownChanges;
  return more > 0 ? `${named.join(', ')} and ${more} more file${more === 1 ? '' : 's'}` : named.join(', ');
}

/** Most characters of a command as its question shows it (`shownCommand`): a longer one would have its end below the dialog's fold. */
export const maxShownCommandChars = 2000;

/** A command's words as its question shows them, each by `shownCommandWord`, separated by spaces. */
export function shownCommand(argv: readonly string[]): string {
  return argv.map(shownCommandWord).join(' ');
}

/**
 * Why `argv` cannot be asked about, or `undefined`: shown, it is longer than
 * `maxShownCommandChars`, so an approval would cover words the user could not see whole
 * beside the dialog's Run button (found by an outside attack: 120 long arguments put the
 * command's end and its working directory below the fold). Said to the model as what to do.
 */
export function commandTooLongToAsk(argv: readonly string[]): string | undefined {
  const length = shownCommand(argv).length;
  if (length <= maxShownCommandChars) return undefined;
  return (
    `The command is ${length} characters long as its question would show it; at most ${maxShownCommandChars} can be shown whole, so it cannot be asked about. ` +
    'Put the long part in a script file (write_file shows it in a diff) and run that, or run it as shorter commands.'
  );
}

/**
 * One word of a command as the user is shown it: a plain word as it is, any other as a JSON string with every invisible
 * character as its `\uXXXX` escape: controls, direction controls, and those that show nothing (`visibleControls`: a
 * zero-width space, a word joiner, a soft hyphen, tag characters), so `test\u200b` is never shown as `"test"`.
 */
export function shownCommandWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : visibleControls(JSON.stringify(word).replace(unsafeInJson, visibleEscape));
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
