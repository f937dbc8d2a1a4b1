import type { CommandAllowList } from '../core/commandPorts';
import { allowRuleProblem, type CommandAllowRule } from '../core/tools/commandAllowRules';
import { UsageError } from './cliIo';

/**
 * One allow rule as written on the command line (`--allow-command`) or in the action's
 * `allow-commands` input: a JSON array of words (`["git", "commit", "-m", "a b"]`) when it
 * starts with `[`, else its words split on white space (`npm test`, `npm run lint ...`).
 * A rule `allowRuleProblem` refuses (an interpreter alone, `env`, `sudo`…) is a `UsageError`
 * naming it: a workflow never allows more than it says.
 */
export function parseAllowRule(text: string): CommandAllowRule {
  const trimmed = text.trim();
  let words: unknown;
  if (trimmed.startsWith('[')) {
    try {
      words = JSON.parse(trimmed);
    } catch {
      throw new UsageError(`--allow-command ${JSON.stringify(trimmed)} is not a JSON array of words.`);
    }
    if (!Array.isArray(words) || !words.every((word): word is string => typeof word === 'string')) {
      throw new UsageError(`--allow-command ${JSON.stringify(trimmed)} must be a JSON array of strings.`);
    }
  } else {
    words = trimmed === '' ? [] : trimmed.split(/\s+/);
  }
  const rule = words as string[];
  const problem = allowRuleProblem(rule);
  if (problem !== undefined) throw new UsageError(`--allow-command: ${problem}`);
  return rule;
}

/** The command allow list of `--allow-command` rules (each read by `parseAllowRule`); `undefined` when none is given. */
export function cliAllowList(texts: readonly string[] | undefined): CommandAllowList | undefined {
  if (texts === undefined || texts.length === 0) return undefined;
  const rules = texts.map(parseAllowRule);
  return { rules: () => rules };
}
