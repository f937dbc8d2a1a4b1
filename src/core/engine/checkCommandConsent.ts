import type { Plan } from '../plan/planSchema';
import type { CommandRunner } from '../commandPorts';
import type { ApprovalRequest, Interaction } from '../interactionPorts';
import { shownCommandWord } from '../tools/commandApprovalText';
import { matchingAllowRule, type CommandAllowRule } from '../tools/commandAllowRules';

/** A `command` check's process as the user is asked about it: argv (no shell) and its workspace-relative directory (`''`: the root). */
export interface CheckCommand {
  argv: readonly string[];
  cwd: string;
  /**
   * The project's own program `argv[0]` was found to be when the user was asked
   * (`ProjectProgram.shown`: `.venv/bin/pytest`), shown in the question: the allowance
   * covers that program only, and a command whose program is then another one asks.
   */
  program?: string;
}

/**
 * The user's answer, given once when a run starts, to the plan's check commands: `allowed`
 * ones run without asking again; declined ones fail their check as not allowed. A check
 * command not among `commands` (one a repair plan added) asks like `run_command`.
 */
export interface CheckCommandConsent {
  allowed: boolean;
  commands: readonly CheckCommand[];
}

/** Most commands asked about at Start, and the longest one shown there, in characters; any other asks when it runs. */
export const startQuestionLimits = { commands: 20, commandChars: 400 } as const;

/**
 * The distinct `command` checks of `plan`'s steps that will run, in plan order (not
 * skipped, and without a result in `completed`: a resumed run's finished steps), as the
 * user is asked about them at Start: at most `startQuestionLimits.commands`, each shown
 * whole in at most `startQuestionLimits.commandChars` characters. A command left out (one
 * too many, or too long to be read in a question) is never allowed unseen: it asks when it runs.
 * A command one of the user's `allowRules` allows is not asked about: it runs without asking.
 */
export function planCheckCommands(plan: Plan, completed: Readonly<Record<string, unknown>> = {}, allowRules: readonly CommandAllowRule[] = []): CheckCommand[] {
  const seen = new Set<string>();
  const commands: CheckCommand[] = [];
  for (const step of plan.steps) {
    if (step.skipped || Object.hasOwn(completed, step.id)) continue;
    for (const check of step.checks ?? []) {
      if (check.kind !== 'command') continue;
      const command = { argv: check.argv, cwd: check.cwd ?? '' };
      const key = commandKey(command);
      if (seen.has(key) || describeCheckCommand(command).length > startQuestionLimits.commandChars) continue;
      if (matchingAllowRule(allowRules, { ...command, shell: false }) !== undefined) continue;
      seen.add(key);
      commands.push(command);
      if (commands.length === startQuestionLimits.commands) return commands;
    }
  }
  return commands;
}

/** What `consent` says about `command`: allowed, declined, or `undefined` when it was not among the commands asked about. */
export function consentFor(consent: CheckCommandConsent | undefined, command: CheckCommand): boolean | undefined {
  if (consent === undefined) return undefined;
  const key = commandKey(command);
  return consent.commands.some((asked) => commandKey(asked) === key) ? consent.allowed : undefined;
}

/**
 * The project's own program `command`'s consent was given for (`CheckCommand.program`), or
 * `undefined`: the one `PATH` gives, or a command not asked about.
 */
export function consentedProgram(consent: CheckCommandConsent | undefined, command: CheckCommand): string | undefined {
  const key = commandKey(command);
  return consent?.commands.find((asked) => commandKey(asked) === key)?.program;
}

/**
 * `commands` with the project's own program each one's `argv[0]` resolves to now
 * (`CommandRunner.describeProgram`: a virtual environment's, `node_modules/.bin`'s), so
 * the question at Start shows it and the allowance is bound to it.
 */
export async function withProjectPrograms(commands: readonly CheckCommand[], runner: CommandRunner | undefined): Promise<CheckCommand[]> {
  return Promise.all(
    commands.map(async (command) => {
      const program = await runner?.describeProgram?.(command.argv[0] ?? '', command.cwd);
      return program === undefined ? command : { ...command, program: program.shown };
    }),
  );
}

/**
 * One command as shown at Start: arguments with spaces or quotes quoted, text-direction controls made visible, then its
 * directory; a project's own program after its name (`pytest (.venv/bin/pytest) -q`).
 */
export function describeCheckCommand(command: CheckCommand): string {
  const word = shownCommandWord;
  const line = command.argv
    .map((arg, index) => (index === 0 && command.program !== undefined ? `${word(arg)} (${word(command.program)})` : word(arg)))
    .join(' ');
  return `${line} (in ${command.cwd === '' ? 'the workspace folder' : word(command.cwd)})`;
}

/** The question both hosts ask at Start, one command per line (`commands` from `planCheckCommands`, so bounded). */
export function checkCommandsQuestion(commands: readonly CheckCommand[]): string {
  const listed = commands.map((command) => `  ${describeCheckCommand(command)}`).join('\n');
  return `This plan runs these commands to check its work:\n${listed}\nAny other command asks you when it runs.\nAllow them for this run?`;
}

/**
 * An interaction that approves command requests without asking (the user allowed them at
 * Start), except one whose defining files this run changed (`changedInRun`) or whose
 * program is not the one shown at Start (`program`: the workspace's own `.venv/bin/git`
 * where the user was shown git from PATH): the user did not see that; everything else,
 * and those, go to `base` (each one that does is given to `onForward` first). Only for a
 * call that runs exactly a command `consentFor` says was allowed.
 */
export function approvingCommands(
  base: Interaction,
  program: string | undefined,
  onForward: (request: ApprovalRequest) => void = () => undefined,
): Interaction {
  return {
    requestApproval: (request, signal) => {
      // The project's own program only if it is the one shown at Start (`program`): a repository's git is not the git the user allowed.
      // Nor a helper of the workspace's that the program would run (`git lfs` running a repository's `git-lfs`).
      // Nor one that may have run before the run was interrupted: allowed once, it is asked about before it runs twice.
      const asIs = request.kind === 'command' && request.changedInRun === undefined && request.helper === undefined && request.mayHaveRun === undefined;
      if (asIs && request.program?.shown === program) {
        return Promise.resolve({ approved: true });
      }
      onForward(request);
      return base.requestApproval(request, signal);
    },
    askClarification: (request, signal) => base.askClarification(request, signal),
    requestReview: (request, signal) => base.requestReview(request, signal),
    requestManualStep: (request, signal) => base.requestManualStep(request, signal),
  };
}

function commandKey(command: CheckCommand): string {
  return JSON.stringify([command.cwd, ...command.argv]);
}
