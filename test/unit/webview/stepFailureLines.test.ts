import assert from 'node:assert/strict';
import { stepFailureLines } from '../../../webview/stepFailureLines';

describe('stepFailureLines: what the run table says about a step\'s failures', () => {
  it('says once that an earlier attempt failed when the step completed after a retry', () => {
    const check = 'Check 1 (command `npm test`) failed: exit code 1, expected 0';
    assert.deepEqual(stepFailureLines({ status: 'completed', error: check, diagnosis: check }), [{ kind: 'earlier', text: `An earlier attempt failed: ${check}` }]);
  });

  it('shows a failed step\'s error, and its diagnosis only when it says something else', () => {
    assert.deepEqual(stepFailureLines({ status: 'failed', error: 'same', diagnosis: 'same' }), [{ kind: 'error', text: 'same' }]);
    assert.deepEqual(stepFailureLines({ status: 'failed', error: 'Verification failed', diagnosis: 'result.items is empty' }), [
      { kind: 'error', text: 'Verification failed' },
      { kind: 'diagnosis', text: 'Diagnosis: result.items is empty' },
    ]);
    assert.deepEqual(stepFailureLines({ status: 'running', diagnosis: 'retrying' }), [{ kind: 'diagnosis', text: 'Diagnosis: retrying' }]);
    assert.deepEqual(stepFailureLines({ status: 'completed' }), []);
  });
});
