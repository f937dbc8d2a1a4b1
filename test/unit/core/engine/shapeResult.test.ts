import assert from 'node:assert/strict';
import type { AgentChanges } from '../../../../src/core/text/agentChanges';
import { shapeResult } from '../../../../src/core/engine/shapeResult';
import { StepOutcome } from '../../../../src/core/engine/stepOutcome';
import { textCaps } from '../../../../src/core/text/capText';
import { makeStep } from '../../../support/randomPlans';

const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
const none: AgentChanges = { applied: [], rejected: [], failed: [] };

describe('shapeResult: the result an attempt produced, before checks and predicates', () => {
  it('passes a bare result on as it is, and unwraps an outcome with its changes', () => {
    assert.deepEqual(shapeResult(makeStep('a'), 'text'), { kind: 'result', result: 'text' });
    assert.deepEqual(shapeResult(makeStep('a'), new StepOutcome({ answer: 'x', changes: none }, none)), { kind: 'result', result: { answer: 'x', changes: none }, changes: none });
    const applied: AgentChanges = { applied: [{ operation: 'write_file', path: 'a' }], rejected: [{ operation: 'write_file', path: 'b', reason: 'no' }], failed: [] };
    assert.deepEqual(shapeResult(makeStep('a'), new StepOutcome('done', applied)), { kind: 'result', result: 'done', changes: applied });
  });

  it('every change rejected: rejected by the user, naming each change and reason', () => {
    const changes: AgentChanges = { applied: [], rejected: [{ operation: 'write_file', path: 'a.txt', reason: 'no' }, { operation: 'delete_file', path: 'b.txt', reason: 'keep' }], failed: [] };
    assert.deepEqual(shapeResult(makeStep('a', { outputSchema: schema }), new StepOutcome({ n: 1 }, changes)), {
      kind: 'rejected',
      reason: 'Rejected by you: every change of the step was rejected (write_file a.txt (no); delete_file b.txt (keep))',
    });
  });

  it('changes failed and none applied: a mismatch listing them', () => {
    const changes: AgentChanges = { applied: [], rejected: [], failed: [{ operation: 'edit_file', path: 'a.ts', reason: 'text not found' }] };
    assert.deepEqual(shapeResult(makeStep('a'), new StepOutcome('claimed', changes)), {
      kind: 'mismatch',
      diagnosis: "None of the step's file changes happened, so the step is not done.\nfailed: edit_file a.ts (text not found)\nFix what failed; do not ask again for a change the user rejected.",
    });
  });

  it('an unreadable structured answer is a mismatch with its problem', () => {
    assert.deepEqual(shapeResult(makeStep('a', { outputSchema: schema }), new StepOutcome(undefined, none, 'The step\'s result is not JSON: empty.')), {
      kind: 'mismatch',
      diagnosis: 'The step\'s result is not JSON: empty.',
    });
  });

  it('under an output schema: JSON text is parsed and checked; objects are checked as they are', () => {
    const step = makeStep('a', { outputSchema: schema });
    assert.deepEqual(shapeResult(step, '{"n": 2}'), { kind: 'result', result: { n: 2 } });
    assert.deepEqual(shapeResult(step, { n: 3 }), { kind: 'result', result: { n: 3 } });
    assert.deepEqual(shapeResult(step, new StepOutcome({ n: 4 }, none)), { kind: 'result', result: { n: 4 }, changes: none });
    assert.deepEqual(shapeResult(step, { n: 'four' }), { kind: 'mismatch', diagnosis: 'The result does not match the output schema: result.n: expected integer, got string.' });
    assert.deepEqual(shapeResult(step, ' '), { kind: 'mismatch', diagnosis: "The step's result is not JSON: The reply was empty; expected a JSON value." });
    const long = 'x'.repeat(textCaps.result + 1);
    assert.deepEqual(shapeResult(step, long), {
      kind: 'mismatch',
      diagnosis: `The step's result is ${long.length} characters long; at most ${textCaps.result} are read as JSON. Answer with a shorter JSON value.`,
    });
  });

  it('ignores an output schema on a step no model answers (validatePlan reports it)', () => {
    assert.deepEqual(shapeResult(makeStep('t', { kind: 'tool', tool: 'read_file', outputSchema: schema }), 'file text'), { kind: 'result', result: 'file text' });
    assert.deepEqual(shapeResult(makeStep('g', { kind: 'synthesis_gate', outputSchema: schema }), '{"n": 1}'), { kind: 'result', result: { n: 1 } });
  });
});
