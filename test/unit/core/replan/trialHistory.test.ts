import assert from 'node:assert/strict';
import type { RunEventBody } from '../../../../src/core/engine/runEvents';
import { createTrialCollector, describeApproach } from '../../../../src/core/replan/trialHistory';
import type { TrialRecord } from '../../../../src/core/engine/replanRecord';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan = makePlan([
  makeStep('read', { kind: 'tool', tool: 'read_file', args: { path: 'data.json' } }),
  makeStep('write', { agent: 'writer', input: 'Write summary.txt' }),
]);

function feed(events: (RunEventBody & { time: number })[]): TrialRecord[] {
  const trials: TrialRecord[] = [];
  const observe = createTrialCollector(plan, trials);
  events.forEach((event, index) => observe({ runId: 'r1', seq: index + 1, ...event }));
  return trials;
}

describe('createTrialCollector', () => {
  it('records a failed attempt with its approach, the output since it started, its error, when it ended and how long it took', () => {
    const trials = feed([
      { type: 'step_started', stepId: 'write', attempt: 1, time: 1_000 },
      { type: 'step_output', stepId: 'write', text: 'Reading ', time: 1_100 },
      { type: 'step_output', stepId: 'read', text: 'other step ', time: 1_150 },
      { type: 'step_output', stepId: 'write', text: 'the data…', time: 1_200 },
      { type: 'step_failed', stepId: 'write', attempt: 1, error: 'model gave up', disposition: 'fail', time: 1_500 },
    ]);
    assert.deepEqual(trials, [
      { stepId: 'write', title: 'Step write', approach: 'agent writer with input: Write summary.txt', attempt: 1, output: 'Reading the data…', error: 'model gave up', time: 1_500, durationMs: 500 },
    ]);
  });

  it('starts each attempt with empty output and no diagnosis, and keeps the diagnosis of the attempt that failed verification', () => {
    const trials = feed([
      { type: 'step_started', stepId: 'write', attempt: 1, time: 0 },
      { type: 'step_output', stepId: 'write', text: 'first try', time: 10 },
      { type: 'verification_failed', stepId: 'write', attempt: 1, diagnosis: 'summary.txt is empty', time: 20 },
      { type: 'step_failed', stepId: 'write', attempt: 1, error: 'verification failed', disposition: 'retry', time: 30 },
      { type: 'step_started', stepId: 'write', attempt: 2, time: 100 },
      { type: 'step_failed', stepId: 'write', attempt: 2, error: 'timed out', disposition: 'fail', time: 150 },
    ]);
    assert.deepEqual(trials.map((trial) => [trial.attempt, trial.output, trial.diagnosis, trial.durationMs]), [[1, 'first try', 'summary.txt is empty', 30], [2, '', undefined, 50]]);
    assert.equal(Object.hasOwn(trials[1]!, 'diagnosis'), false);
  });

  it('keeps only the last 4000 characters of a long output', () => {
    const trials = feed([
      { type: 'step_started', stepId: 'write', attempt: 1, time: 0 },
      { type: 'step_output', stepId: 'write', text: `${'a'.repeat(3_000)}`, time: 1 },
      { type: 'step_output', stepId: 'write', text: `${'b'.repeat(3_000)}`, time: 2 },
      { type: 'step_failed', stepId: 'write', attempt: 1, error: 'x', disposition: 'fail', time: 3 },
    ]);
    assert.equal(trials[0]?.output, `${'a'.repeat(1_000)}${'b'.repeat(3_000)}`);
  });

  it('records a step the plan does not know by its id, and output seen without a start', () => {
    const trials = feed([
      { type: 'step_output', stepId: 'ghost', text: 'orphan output', time: 5 },
      { type: 'step_failed', stepId: 'ghost', attempt: 1, error: 'x', disposition: 'fail', time: 9 },
    ]);
    assert.deepEqual(trials, [{ stepId: 'ghost', title: 'ghost', approach: '(unknown step)', attempt: 1, output: 'orphan output', error: 'x', time: 9, durationMs: 0 }]);
  });
});

describe('describeApproach', () => {
  it('names the tool and its arguments, the agent and its input, or the kind and its instructions', () => {
    assert.equal(describeApproach(makeStep('a', { kind: 'tool', tool: 'read_file', args: { path: 'a.ts' } })), 'tool read_file with args {"path":"a.ts"}');
    assert.equal(describeApproach(makeStep('a', { kind: 'tool', tool: undefined, args: undefined })), 'tool (none) with args {}');
    assert.equal(describeApproach(makeStep('a', { agent: undefined, input: undefined, title: 'Plan it' })), 'agent default with input: Plan it');
    assert.equal(describeApproach(makeStep('a', { kind: 'manual', agent: undefined, input: 'Sign the release' })), 'manual: Sign the release');
    assert.equal(describeApproach(makeStep('a', { kind: 'human_review', agent: undefined, input: undefined, title: 'Review it' })), 'human_review: Review it');
  });
});
