import assert from 'node:assert/strict';
import { downstreamSteps, resultsKeptFrom, upstreamSteps } from '../../../../src/core/plan/downstreamSteps';
import { makePlan, makeStep } from '../../../support/randomPlans';

// A → B → D, A → C, E alone; F depends on D and E.
const plan = makePlan([
  makeStep('A'),
  makeStep('B', { dependsOn: ['A'] }),
  makeStep('C', { dependsOn: ['A'] }),
  makeStep('D', { dependsOn: ['B'] }),
  makeStep('E'),
  makeStep('F', { dependsOn: ['D', 'E'] }),
]);

describe('downstreamSteps: what a run again from a step runs again', () => {
  it('is the step and everything that depends on it, through any number of steps', () => {
    assert.deepEqual([...downstreamSteps(plan, 'B')].sort(), ['B', 'D', 'F']);
    assert.deepEqual([...downstreamSteps(plan, 'A')].sort(), ['A', 'B', 'C', 'D', 'F']);
    assert.deepEqual([...downstreamSteps(plan, 'F')], ['F']);
  });

  it('is just the step for an id the plan does not have, and ends on a cycle', () => {
    assert.deepEqual([...downstreamSteps(plan, 'Z')], ['Z']);
    const cyclic = makePlan([makeStep('X', { dependsOn: ['Y'] }), makeStep('Y', { dependsOn: ['X'] })]);
    assert.deepEqual([...downstreamSteps(cyclic, 'X')].sort(), ['X', 'Y']);
  });

  it('keeps the results of the steps outside it', () => {
    const results = { A: 'a', B: 'b', C: 'c', D: 'd', E: 'e' };
    assert.deepEqual(resultsKeptFrom(plan, 'B', results, new Set()), { A: 'a', C: 'c', E: 'e' });
    assert.deepEqual(resultsKeptFrom(plan, 'E', results, new Set()), { A: 'a', B: 'b', C: 'c', D: 'd' });
    // A step whose changes Undo took back runs again, and what depends on it (a rerun said it "created" files Undo had removed).
    assert.deepEqual(resultsKeptFrom(plan, 'E', results, new Set(['B'])), { A: 'a', C: 'c' });
  });
});

describe('upstreamSteps: the steps whose work a step runs after', () => {
  it('is the step and everything it depends on, through any number of steps', () => {
    assert.deepEqual([...upstreamSteps(plan, 'F')].sort(), ['A', 'B', 'D', 'E', 'F']);
    assert.deepEqual([...upstreamSteps(plan, 'C')].sort(), ['A', 'C']);
    assert.deepEqual([...upstreamSteps(plan, 'A')], ['A']);
  });

  it('is just the step for an id the plan does not have, and ends on a cycle', () => {
    assert.deepEqual([...upstreamSteps(plan, 'Z')], ['Z']);
    const cyclic = makePlan([makeStep('X', { dependsOn: ['Y'] }), makeStep('Y', { dependsOn: ['X'] })]);
    assert.deepEqual([...upstreamSteps(cyclic, 'X')].sort(), ['X', 'Y']);
  });
});
