import assert from 'node:assert/strict';
import { fieldErrors, newStepSchema, stepPatchSchema } from '../../../src/shared/stepEditSchema';
import { failurePolicies, stepKinds } from '../../../src/shared/vocabulary';

describe('step edit schemas', () => {
  it('accepts exactly the plan schema\'s step kinds and failure policies', () => {
    for (const kind of stepKinds) assert.equal(stepPatchSchema.safeParse({ kind, ...(kind === 'tool' ? { tool: 'read_file' } : {}) }).success, true, kind);
    for (const policy of failurePolicies) assert.equal(stepPatchSchema.safeParse({ onFailure: policy, onVerificationFailure: policy }).success, true, policy);
    assert.equal(stepPatchSchema.safeParse({ kind: 'dance' }).success, false);
    assert.equal(stepPatchSchema.safeParse({ onVerificationFailure: 'explode' }).success, false);
  });

  it('accepts a full patch of a tool step', () => {
    const patch = { title: 'Read', kind: 'tool', tool: 'read_file', args: { path: 'a' }, dependsOn: ['S1'], onFailure: 'retry', maxAttempts: 3, critical: false, verification: 'result.length > 0', onVerificationFailure: 'skip', when: 'true', input: 'x' };
    assert.deepEqual(stepPatchSchema.parse(patch), patch);
  });

  it('reports one message per field', () => {
    const parsed = stepPatchSchema.safeParse({ title: '', maxAttempts: 0, onFailure: 'explode' });
    assert.equal(parsed.success, false);
    const errors = fieldErrors(parsed.error);
    assert.equal(errors.title, 'Give the step a title.');
    assert.equal(errors.maxAttempts, 'At least one attempt.');
    assert.ok(errors.onFailure);
  });

  it('requires a tool for tool steps, and valid ids', () => {
    assert.equal(newStepSchema.safeParse({ id: 'S1', kind: 'tool', title: 'x' }).success, false);
    assert.equal(newStepSchema.safeParse({ id: 'S1', kind: 'tool', title: 'x', tool: 'list_files' }).success, true);
    assert.equal(newStepSchema.safeParse({ id: 'a b', kind: 'agent', title: 'x' }).success, false);
    assert.equal(stepPatchSchema.safeParse({ dependsOn: ['ok', 'not ok'] }).success, false);
    const reserved = newStepSchema.safeParse({ id: '__proto__', kind: 'agent', title: 'x' });
    assert.equal(reserved.success, false);
    assert.deepEqual(fieldErrors(reserved.error), { id: 'This id is reserved; choose another id.' });
  });
});
