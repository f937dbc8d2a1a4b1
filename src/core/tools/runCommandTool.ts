import { z } from 'zod';
import { WorkspaceError } from '../workspace/workspaceError';
import { needsApproval, requireApproval } from './approvals';
import { argumentLeftToAsk, describeAllowRule, matchingAllowRule } from './commandAllowRules';
import { pathArgumentNotCovered } from './argumentPaths';
import {
  commandTooLongToAsk,
  describeChangedInRun,
  describeProgramHelper,
  describeProjectProgram,
  projectProgramOrigin,
  shownCommandWord,
  shownRepositoryPrograms,
} from './commandApprovalText';
import { changedDefiningFiles, definingFilesChangedSince } from './commandDefiningFiles';
import { classifyCommandEnd, classifyStartFailure } from './commandFailure';
import { StepFailure } from './stepFailure';
import type { CommandResult, CommandRunner, ProgramHelper } from '../commandPorts';
import { errorMessage } from '../../shared/errorMessage';
import { workspacePath } from './fileChange';
import type { Tool } from './tool';
import { outputPercentReader } from './outputPercent';
import { helperLookup } from './programHelpers';
import { withoutPrivateKeys } from '../workspace/credentialFiles';
import { keptFileOutputStream, withoutKeptFileLines } from './keptFileOutput';
import { caseFold } from '../workspace/caseFold';

/** Defaults and limits of `run_command`: milliseconds and bytes. */
export const commandDefaults = { timeoutMs: 120_000, maxTimeoutMs: 600_000, maxOutputBytes: 64 * 1024, maxOutputLimit: 1024 * 1024 } as const;

const inputSchema = z.strictObject({
  argv: z.array(z.string()).min(1).describe('Program and arguments, e.g. ["npm", "test"]. Run directly, without a shell: no pipes, globs or variables.'),
  cwd: z.string().optional().describe('Workspace-relative working directory (default: the workspace root).'),
  timeoutMs: z
    .int()
    .min(1)
    .max(commandDefaults.maxTimeoutMs)
    .optional()
    .describe(`Kill the command after this many milliseconds (default ${commandDefaults.timeoutMs}).`),
  maxOutputBytes: z
    .int()
    .min(256)
    .max(commandDefaults.maxOutputLimit)
    .optional()
    .describe(`Output kept per stream; the middle of longer output is dropped (default ${commandDefaults.maxOutputBytes}).`),
  stdin: z
    .string()
    .max(1024 * 1024)
    .optional()
    .describe('Text given to the command on standard input.'),
  allowFailure: z.boolean().optional().describe('Return the result instead of failing when the command exits non-zero (default false).'),
});

/**
 * `run_command`: runs a program after the user approved its exact argv and working
 * directory (always, whatever the approval policy), or without asking when one of the
 * user's allow rules (`ctx.allowedCommands`, read now) allows it, as the step's output says
 * (it also says which argument keeps a rule ending in `...` from allowing it). A command
 * whose defining file (`changedDefiningFiles`: its `package.json`, Makefile, script) this
 * run changed asks whatever allows it, the request naming the files (`changedInRun`)
 * so that an allowance given at Start does not answer it either; so does a git command whose repository's own
 * configuration names programs git runs for it (`describeRepositoryPrograms`), the request showing them. Without `allowFailure` a non-zero exit
 * or a timeout fails the tool with the output's tail in the message, as a `StepFailure` that
 * only a time-out, a signal or a network error leaves retryable (`classifyCommandEnd`: a
 * missing program, a usage error or failing tests say so and what to do); a program that
 * cannot be started (`classifyStartFailure`) is not retryable either.
 */
export const runCommandTool: Tool<z.infer<typeof inputSchema>, CommandResult> = {
  name: 'run_command',
  description: 'Run a program in the workspace (argv, no shell) after the user approves the exact command line. Has a timeout and an output cap; API keys and tokens are removed from its environment. Fails on a non-zero exit unless allowFailure is true.',
  inputSchema,
  effects: 'command',
  async run(ctx, input, signal) {
    const runner = ctx.commandRunner;
    if (!runner) throw new Error('run_command is not available here: no command runner is configured for this run.');
    if ((input.argv[0] ?? '').trim() === '') throw new Error('run_command needs a program name in argv[0].');
    const cwd = workspacePath(ctx, input.cwd ?? '');
    const stat = await ctx.workspace.stat(cwd, signal);
    if (stat?.type !== 'directory') throw new WorkspaceError('not_directory', cwd, `The working directory ${cwd || '.'} does not exist or is not a directory`);
    const shownCwd = await runner.describeCwd(cwd);
    // The project's own program (`.venv/bin/mypy`), shown and bound to: a rule for the one on PATH does not allow it.
    const program = await runner.describeProgram?.(input.argv[0] ?? '', cwd);
    const rules = ctx.allowedCommands?.rules() ?? [];
    const ruled = { argv: input.argv, cwd, shell: false, ...(program ? { program: program.shown } : {}) };
    const rule = matchingAllowRule(rules, ruled);
    if (program !== undefined) {
      const name = input.argv[0] ?? '';
      ctx.output?.(`Runs ${describeProjectProgram(name, program)}, from ${projectProgramOrigin(program)}.\n`);
      const pathRule = rule === undefined ? matchingAllowRule(rules, { argv: input.argv, cwd, shell: false }) : undefined;
      if (pathRule !== undefined) {
        ctx.output?.(
          `Asks: the rule "${describeAllowRule(pathRule)}" is for the ${name} on PATH; this ${name} comes from ${projectProgramOrigin(program)} (${program.shown}).\n`,
        );
      }
    }
    // What a rule cannot vouch for: the helper git or cargo runs for the subcommand, and input fed to the command.
    const helper = await programHelper(runner, input.argv, cwd, rule === undefined ? '' : describeAllowRule(rule));
    if (helper.project !== undefined) {
      ctx.output?.(`Runs ${describeProgramHelper(input.argv, helper.project)}, from ${projectProgramOrigin(helper.project)}.\n`);
    }
    // What a repository's own git configuration makes git run for it (a diff driver, a filter, a hook): shown, never a rule's to allow.
    const repositoryPrograms = (await runner.describeRepositoryPrograms?.(input.argv, cwd)) ?? [];
    if (repositoryPrograms.length > 0) {
      ctx.output?.(`Runs what this repository's own git configuration names: ${shownRepositoryPrograms(repositoryPrograms)}.\n`);
    }
    const repositoryNotCovered =
      repositoryPrograms.length === 0 ? undefined : repositoryProgramsNotCovered;
    // Empty input feeds the command nothing, as none does: nothing to show or to ask about.
    const stdin = input.stdin === '' ? undefined : input.stdin;
    // A rule reads words, not where they lead: a path through a link out of the workspace, or a file kept from the model.
    const pathNotCovered = rule === undefined ? undefined : await pathArgumentNotCovered(ctx.workspace, cwd, input.argv.slice(1), signal);
    const notCovered =
      rule === undefined
        ? []
        : [helper.notCovered, repositoryNotCovered, stdin === undefined ? undefined : stdinNotCovered, pathNotCovered].filter((why) => why !== undefined);
    const leftToAsk = rule === undefined ? argumentLeftToAsk(rules, ruled) : notCovered.length > 0 ? notCovered.join('; ') : undefined;
    // Said before the question, so the user knows why an allowed command asks.
    if (leftToAsk !== undefined) ctx.output?.(`Asks: ${leftToAsk}.\n`);
    // Started before the run was interrupted: it may have run, so it asks whatever allowed it (no rule, no --yes).
    const mayHaveRun = ctx.commandLog?.mayHaveRun(input.argv, cwd) ?? false;
    if (mayHaveRun) ctx.output?.('Asks: this step started the same command before the run was interrupted, so it may already have run.\n');
    // A file that decides what the command runs changed in this run: what the user allowed may no longer be what runs.
    const byStep = await changedDefiningFiles(ctx.workspace, { argv: input.argv, cwd }, ctx.filesChangedInRun?.() ?? [], signal);
    // And one changed on disk since the run started, which no step reports (a command's `git checkout other -- package.json`).
    const onDisk = ctx.runStartedAt === undefined ? [] : await definingFilesChangedSince(ctx.workspace, { argv: input.argv, cwd }, ctx.runStartedAt, signal);
    const changedInRun = [...byStep, ...onDisk.filter((change) => !byStep.some((known) => caseFold(known.path) === caseFold(change.path)))];
    if (changedInRun.length > 0) {
      ctx.output?.(`Asks: this run changed ${describeChangedInRun(changedInRun)}, which the command reads to decide what it runs.\n`);
    }
    // Run without anyone shown it: its rule is for the programs on the user's PATH, and so is every program it starts.
    const unseen = rule !== undefined && notCovered.length === 0 && !mayHaveRun && changedInRun.length === 0;
    if (unseen) {
      const allowed = `Runs without asking: allowed by the rule "${describeAllowRule(rule)}".`;
      ctx.logger.info(`${ctx.stepId}: ${allowed}`);
      ctx.output?.(`${allowed}\n`);
    } else if (
      // Commands ask under every policy; asking `needsApproval` keeps that rule in one place, where the review reads it too.
      // Stryker disable next-line ConditionalExpression: `needsApproval` is true for every command, so the condition cannot be told from `true`.
      needsApproval(runCommandTool.effects, ctx.approvalPolicy)
    ) {
      const tooLong = commandTooLongToAsk(input.argv);
      if (tooLong !== undefined) throw new StepFailure(tooLong, false);
      await requireApproval(
        ctx,
        {
          kind: 'command',
          stepId: ctx.stepId,
          title: ctx.stepTitle,
          argv: [...input.argv],
          cwd: shownCwd,
          shell: false,
          ...(mayHaveRun ? { mayHaveRun } : {}),
          ...(changedInRun.length > 0 ? { changedInRun } : {}),
          ...(program ? { program } : {}),
          ...(helper.project ? { helper: helper.project } : {}),
          ...(repositoryPrograms.length > 0 ? { repositoryPrograms } : {}),
          ...(stdin === undefined ? {} : { stdin }),
          ...(leftToAsk === undefined ? {} : { notAllowedBecause: leftToAsk }),
          // Made a rule, these words would allow them in the workspace folder alone, so another file than the one shown
          // (`./run.sh` asked in `tools`: the root's run.sh).
          ...(ruleOnlyInRoot(program ? [program.shown, ...input.argv.slice(1)] : input.argv, ruled) ? { noRuleHere: true as const } : {}),
        },
        `running ${JSON.stringify(input.argv)} in ${shownCwd}`,
        signal,
      );
    }
    const timeoutMs = input.timeoutMs ?? commandDefaults.timeoutMs;
    // Journaled before it starts: a run resumed after a crash then knows it may have run.
    await ctx.commandLog?.starting(input.argv, cwd);
    const running = `running ${input.argv.join(' ')}`;
    ctx.progress?.(running);
    // The program's own percentage in its output (pytest, a progress bar) is the step's; otherwise it stays unknown.
    const percentIn = outputPercentReader();
    // What streams to the step (its journal, the screen, a repair plan's prompt) leaves out what the result leaves out.
    const streamed = keptFileOutputStream(input.argv);
    const ran = await runner
      .run(
        {
          argv: input.argv,
          // The program shown, and nothing else: a project folder that appeared while the question was open is not looked in.
          ...(program ? { program: program.path } : { programOnPath: true as const }),
          cwd,
          timeoutMs,
          maxOutputBytes: input.maxOutputBytes ?? commandDefaults.maxOutputBytes,
          ...(input.stdin !== undefined ? { stdin: input.stdin } : {}),
          ...(unseen ? { withoutProjectPrograms: true } : {}),
          // What the user was shown git would run: the runner starts git only while the repository names nothing else.
          ...(repositoryPrograms.length > 0 ? { repositoryPrograms } : {}),
          ...(ctx.output || ctx.progress
            ? {
                onOutput: (text: string) => {
                  const shown = streamed.write(text);
                  if (shown !== '') ctx.output?.(shown);
                  const percent = percentIn(text);
                  if (percent !== undefined) ctx.progress?.(running, percent);
                },
              }
            : {}),
        },
        signal,
      )
      .catch((error: unknown) => {
        // A program that is not there or cannot be executed stays so: another attempt would not start it either.
        const failure = signal.aborted ? undefined : classifyStartFailure(error);
        if (failure === undefined) throw error;
        throw new StepFailure(`${errorMessage(error)}${failure.diagnosis === undefined ? '' : ` ${failure.diagnosis}`}`, failure.transient, failure.notRetried);
      });
    const rest = streamed.end();
    if (rest !== '') ctx.output?.(rest);
    signal.throwIfAborted();
    // What the command printed goes to the model; a private key in it does not (a key file a search went through, a key pasted into a config),
    // nor the lines of a file tools keep from the model that the command named no file for (`git log -p` over a committed .env, `rg '' .`).
    const forModel = (text: string): string => withoutKeptFileLines(withoutPrivateKeys(text), input.argv);
    const result = { ...ran, stdout: forModel(ran.stdout), stderr: forModel(ran.stderr) };
    if (!input.allowFailure && (result.timedOut || result.exitCode !== 0)) {
      const how = result.timedOut
        ? `timed out after ${timeoutMs} ms and was killed`
        : result.exitCode === null
          ? `was killed by ${result.signal}`
          : `exited with code ${result.exitCode}`;
      const tail = (result.stderr.trim() || result.stdout.trim()).slice(-2000);
      // Each word as the approval showed it: quoted where it holds a space or a quote (the words ran together otherwise).
      const words = input.argv.slice(1).map(shownCommandWord);
      const shown = [program ? describeProjectProgram(input.argv[0] ?? '', program) : shownCommandWord(input.argv[0] ?? ''), ...words];
      // Only a time-out, a signal or a network error is worth another attempt (docs/architecture.md §4).
      const failure = classifyCommandEnd(input.argv, result);
      const said = failure.diagnosis === undefined ? '.' : `: ${failure.diagnosis}`;
      throw new StepFailure(`Command ${shown.join(' ')} ${how}${said}${tail ? `\n${tail}` : ''}`, failure.transient, failure.notRetried);
    }
    return program ? { ...result, program: program.shown } : result;
  },
};

/** Why an allow rule does not answer a git command whose repository's own configuration names programs git runs for it. */
const repositoryProgramsNotCovered = "this repository's own git configuration names programs git runs for it, which an allow rule does not cover";

/** Why an allow rule does not answer a command given input. */
const stdinNotCovered = 'it is given input, which an allow rule does not cover';

/**
 * The helper `argv`'s program runs for its subcommand (`git-lfs` for `git lfs`), found the
 * way `argv[0]` is (`describeProgram`): `project` when it is one of the project's own, and
 * `notCovered`, why the allow rule `rule` (as shown) does not answer the command, when it
 * is that or a file in the working folder (`git x/y` runs `./git-x/y`).
 */
async function programHelper(
  runner: CommandRunner,
  argv: readonly string[],
  cwd: string,
  rule: string,
): Promise<{ project?: ProgramHelper; notCovered?: string }> {
  const lookup = helperLookup(argv);
  if (lookup === undefined) return {};
  const program = shownCommandWord(lookup.program);
  if (lookup.inFolder) {
    return { notCovered: `${program} runs the file ${shownCommandWord(lookup.name)} in the working directory for it, which an allow rule does not cover` };
  }
  const found = await runner.describeProgram?.(lookup.name, cwd);
  if (found === undefined) return {};
  const project = { ...found, name: lookup.name };
  const name = shownCommandWord(lookup.name);
  const where = `${projectProgramOrigin(found)} (${shownCommandWord(found.shown)})`;
  return { project, notCovered: `the rule "${rule}" is for the ${name} on PATH; this ${name} comes from ${where}` };
}

/** Whether a rule of exactly `words` would allow `ruled` in the workspace folder but not in its own folder. */
function ruleOnlyInRoot(words: readonly string[], ruled: { argv: readonly string[]; cwd: string; shell: boolean; program?: string }): boolean {
  return matchingAllowRule([words], ruled) === undefined && matchingAllowRule([words], { ...ruled, cwd: '' }) !== undefined;
}
