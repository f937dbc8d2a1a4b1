import { defaultRunPolicy, maxReplanCooldownMs, type ReplanLimits } from '../core/engine/runPolicy';
import { UsageError } from './cliIo';

/** The replanning flags of `plan`, `run` and `resume`, as given. */
export interface CliReplanOptions {
  /** `--max-replans N`: repair plans per run in all (0 turns replanning off). */
  maxReplans: string | undefined;
  /** `--max-replan-attempts N`: repair plans asked for because of the same step. */
  maxReplanAttempts: string | undefined;
  /** `--replan-cooldown SECONDS`: the wait before each repair plan is asked for. */
  replanCooldown: string | undefined;
}

/** The replanning limits from the flags (absent: the defaults of `defaultRunPolicy`); a bad value is a `UsageError`. */
export function cliReplanLimits(options: CliReplanOptions): ReplanLimits {
  const cooldownSeconds = atLeastZero(options.replanCooldown, '--replan-cooldown', 'number of seconds', maxReplanCooldownMs / 1000);
  return {
    maxTotalReplans: atLeastZero(options.maxReplans, '--max-replans', 'whole number', 100) ?? defaultRunPolicy.maxTotalReplans,
    maxReplanAttempts: atLeastZero(options.maxReplanAttempts, '--max-replan-attempts', 'whole number', 100) ?? defaultRunPolicy.maxReplanAttempts,
    replanCooldownMs: cooldownSeconds === undefined ? defaultRunPolicy.replanCooldownMs : Math.round(cooldownSeconds * 1000),
  };
}

function atLeastZero(text: string | undefined, flag: string, what: 'whole number' | 'number of seconds', most: number): number | undefined {
  if (text === undefined) return undefined;
  const value = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(value) || value < 0 || value > most || (what === 'whole number' && !Number.isInteger(value))) {
    throw new UsageError(`${flag} must be a ${what} from 0 to ${most}, got "${text}".`);
  }
  return value;
}
