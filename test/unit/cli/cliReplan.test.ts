import assert from 'node:assert/strict';
import { UsageError } from '../../../src/cli/cliIo';
import { cliReplanLimits } from '../../../src/cli/cliReplan';
import { defaultRunPolicy } from '../../../src/core/engine/runPolicy';

describe('cliReplanLimits', () => {
  it('takes every limit from the run policy\'s defaults when no flag is given', () => {
    assert.deepEqual(cliReplanLimits({ maxReplans: undefined, maxReplanAttempts: undefined, replanCooldown: undefined }), {
      maxTotalReplans: defaultRunPolicy.maxTotalReplans,
      maxReplanAttempts: defaultRunPolicy.maxReplanAttempts,
      replanCooldownMs: defaultRunPolicy.replanCooldownMs,
    });
  });

  it('reads whole numbers from 0 and a cooldown in seconds', () => {
    assert.deepEqual(cliReplanLimits({ maxReplans: '0', maxReplanAttempts: '4', replanCooldown: '1.5' }), { maxTotalReplans: 0, maxReplanAttempts: 4, replanCooldownMs: 1_500 });
  });

  it('refuses a negative, fractional, blank or huge value, naming the flag', () => {
    const refused = (flags: Partial<Record<'maxReplans' | 'maxReplanAttempts' | 'replanCooldown', string>>, message: RegExp) =>
      assert.throws(() => cliReplanLimits({ maxReplans: undefined, maxReplanAttempts: undefined, replanCooldown: undefined, ...flags }), (error: unknown) => error instanceof UsageError && message.test(error.message));
    refused({ maxReplans: '-1' }, /^--max-replans must be a whole number from 0 to 100, got "-1"\.$/);
    refused({ maxReplanAttempts: '1.5' }, /^--max-replan-attempts must be a whole number/);
    refused({ replanCooldown: ' ' }, /^--replan-cooldown must be a number of seconds from 0 to 600/);
    refused({ replanCooldown: '601' }, /^--replan-cooldown must be/);
  });
});
