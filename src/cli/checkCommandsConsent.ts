import { checkCommandsQuestion, planCheckCommands, withProjectPrograms, type CheckCommandConsent } from '../core/engine/checkCommandConsent';
import type { Plan } from '../core/plan/planSchema';
import type { CommandRunner } from '../core/commandPorts';
import type { CliIo } from './cliIo';

/**
 * Asks once, before a run starts, whether the plan's check commands may run: with `--yes`
 * they are allowed (and listed on stderr); on a terminal the answer decides; without one
 * they are not allowed and the message says how to allow them. A declined command's check
 * fails as not allowed; the run itself starts either way. `undefined` for a plan without
 * check commands (steps with a result in `completed`, a resumed run's, do not count).
 * A command whose program is the project's own (`runner.describeProgram`) is shown and
 * allowed with that program. Without a terminal but with allow rules (`hasAllowRules`:
 * `--allow-command`), no blanket answer is given: each check command runs if a rule allows
 * it and fails as not allowed otherwise.
 */
export async function checkCommandsConsent(
  plan: Plan,
  io: CliIo,
  yes: boolean,
  signal: AbortSignal,
  completed: Readonly<Record<string, unknown>> = {},
  runner?: CommandRunner,
  hasAllowRules = false,
): Promise<CheckCommandConsent | undefined> {
  const commands = await withProjectPrograms(planCheckCommands(plan, completed), runner);
  if (commands.length === 0) return undefined;
  const question = checkCommandsQuestion(commands);
  if (yes) {
    io.err(`${question} Yes (--yes).`);
    return { allowed: true, commands };
  }
  if (!io.interactive && hasAllowRules) {
    io.err(`${question} There is no terminal to ask: those your --allow-command rules allow will run, the checks of the others will fail as not allowed.`);
    return undefined;
  }
  if (!io.interactive) {
    io.err(`${question} No: there is no terminal to ask, so their checks will fail as not allowed. Run with --yes to allow them.`);
    return { allowed: false, commands };
  }
  const answer = (await io.ask(`${question} [y]es / [n]o: `, signal)).toLowerCase();
  const allowed = answer === 'y' || answer === 'yes';
  if (!allowed) io.err('Not allowed: the checks that run these commands will fail as not allowed.');
  return { allowed, commands };
}
