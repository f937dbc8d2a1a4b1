import assert from 'node:assert/strict';
import { failurePolicies, stepKinds } from '../../../src/core/plan/planSchema';
import { editablePolicies, editableStepKinds, fieldErrors, newStepSchema, stepPatchSchema } from '../../../src/shared/stepEditSchema';

describe('step edit schemas', () => {
  it('offers exactly the plan schema\'s step kinds and failure policies', () => {
    assert.deepEqual([...editableStepKinds], [...stepKinds]);
    assert.deepEqual([...editablePolicies], [...failurePolicies]);
  });

  it('accepts a full patch of a tool step', () => {
    const patch = { title: 'Read', kind: 'tool', tool: 'read_file', args: { path: 'a' }, dependsOn: ['S1'], onFailure: 'retry', maxAttempts: 3, critical: false, verification: 'result.length > 0', onVerificationFailure: 'skip', when: 'true', input: 'x' };
    assert.deepEqual(stepPatchSchema.parse(patch), patch);
  });

  it('reports one message per field', () => {
    const parsed = stepPatchSchema.safeParse({ title: '', maxAttempts: 0, onFailure: 'explode' });
    assert.equal(parsed.success, false);
    const errors = fieldErrors(parsed.error!);
    assert.equal(errors.title, 'Give the step a title.');
    assert.equal(errors.maxAttempts, 'At least one attempt.');
    assert.ok(errors.onFailure);
  });

  it('requires a tool for tool steps, and valid ids', () => {
    assert.equal(newStepSchema.safeParse({ id: 'S1', kind: 'tool', title: 'x' }).success, false);
    assert.equal(newStepSchema.safeParse({ id: 'S1', kind: 'tool', title: 'x', tool: 'list_files' }).success, true);
    assert.equal(newStepSchema.safeParse({ id: 'a b', kind: 'agent', title: 'x' }).success, false);
    assert.equal(stepPatchSchema.safeParse({ dependsOn: ['ok', 'not ok'] }).success, false);
  });
});
