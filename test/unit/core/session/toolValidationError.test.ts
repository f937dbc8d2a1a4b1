import assert from 'node:assert/strict';
import { ToolValidationError } from '../../../../src/core/session/toolValidationError';

describe('ToolValidationError', () => {
  it('is an Error that names itself in logs and stack traces, with the message for the model', () => {
    const error = new ToolValidationError('Step S9 does not exist; call planning_read_plan for the ids.');
    assert.ok(error instanceof Error);
    assert.equal(String(error), 'ToolValidationError: Step S9 does not exist; call planning_read_plan for the ids.');
  });
});
