import assert from 'node:assert/strict';
import { toolContextFor } from '../../../../../src/core/engine/executors/toolContextFor';
import { resolveRunOptions } from '../../../../../src/core/engine/resolveRunOptions';
import { initialRunState } from '../../../../../src/core/engine/reduceRunEvent';
import type { StepState } from '../../../../../src/core/engine/runEvents';
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

  it('names as unrelated changes of a file the steps that changed it which this step does not depend on and which did not fail or get skipped', () => {
    // A → B → W; C and D and E stand apart; F changed another file.
    const plan = makePlan([
      makeStep('A'),
      makeStep('B', { dependsOn: ['A'] }),
      makeStep('C'),
      makeStep('D'),
      makeStep('E'),
      makeStep('F'),
      makeStep('W', { dependsOn: ['B'] }),
    ]);
    const changed = (id: string, status: StepState['status'], file = 'f.txt'): [string, StepState] => [id, { id, status, attempts: 1, filesChanged: [file] }];
    const state = {
      ...initialRunState('r1'),
      steps: Object.fromEntries([
        changed('A', 'completed'), changed('B', 'completed'), changed('C', 'completed'), changed('D', 'running'), changed('E', 'failed'),
        changed('F', 'completed', 'g.txt'), changed('W', 'running'),
      ]),
    };
    const clock = new ManualClock();
    const options = resolveRunOptions(plan, { clock });
    const context = toolContextFor({
      runId: 'r1', step: plan.steps[6]!, plan, attempt: 1, depends: {}, signal: new AbortController().signal, output: () => undefined, progress: () => undefined,
      compacted: () => undefined, state: () => state, commandLog: { mayHaveRun: () => false, starting: async () => undefined }, withheld: () => undefined,
      interaction: options.interaction, options,
    });
    const ids = (path: string): string[] => (context.unrelatedChanges?.(path) ?? []).map(({ id }) => id);
    assert.deepEqual(ids('f.txt'), ['C', 'D']);
    assert.deepEqual(context.unrelatedChanges?.('g.txt'), [{ id: 'F', title: plan.steps[5]!.title }]);
    assert.deepEqual(ids('h.txt'), []);
    state.steps.E = { id: 'E', status: 'skipped', attempts: 1, filesChanged: ['f.txt'] };
    state.steps.C = { id: 'C', status: 'awaiting_approval', attempts: 1, filesChanged: ['f.txt'] };
    assert.deepEqual(ids('f.txt'), ['C', 'D'], 'read when asked');
  });
});
