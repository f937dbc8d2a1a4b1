import assert from 'node:assert/strict';
import { toolContextFor } from '../../../../../src/core/engine/executors/toolContextFor';
import { resolveRunOptions } from '../../../../../src/core/engine/resolveRunOptions';
import { initialRunState } from '../../../../../src/core/engine/reduceRunEvent';
import type { CommandRunner } from '../../../../../src/core/commandPorts';
import { ManualClock } from '../../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../../support/randomPlans';

describe('toolContextFor', () => {
  it('scopes the run options to the step, passing optional ports only when configured', () => {
    const plan = makePlan([makeStep('S1', { title: 'Read it' })]);
    const clock = new ManualClock();
    const output = (): void => undefined;
    const progress = (): void => undefined;
    const commandLog = { mayHaveRun: () => false, starting: async () => undefined };
    const withheld = (): void => undefined;
    const base = { runId: 'r1', step: plan.steps[0]!, plan, attempt: 1, depends: {}, signal: new AbortController().signal, output, progress, compacted: () => undefined, state: () => initialRunState('r1'), commandLog, withheld };
    const interaction = resolveRunOptions(plan, { clock }).interaction;
    const without = toolContextFor({ ...base, interaction, options: resolveRunOptions(plan, { clock, approvalPolicy: 'always' }) });
    assert.deepEqual([without.runId, without.stepId, without.stepTitle, without.approvalPolicy, without.clock, without.output, without.progress, without.withheld], ['r1', 'S1', 'Read it', 'always', clock, output, progress, withheld]);
    assert.equal('commandRunner' in without, false);
    assert.equal('checkpoints' in without, false);
    const runner = { run: async () => { throw new Error('unused'); } } as unknown as CommandRunner;
    const withRunner = toolContextFor({ ...base, interaction, options: resolveRunOptions(plan, { clock, commandRunner: runner }) });
    assert.equal(withRunner.commandRunner, runner);
    assert.equal(withRunner.commandLog, commandLog);
  });
});
