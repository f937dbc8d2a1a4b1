import assert from 'node:assert/strict';
import { stepFailureLines } from '../../../webview/stepFailureLines';

describe('stepFailureLines: what the run table says about a step\'s failures', () => {
  it('says once that an earlier attempt failed when the step completed after a retry', () => {
    const check = 'Check 1 (command `npm test`) failed: exit code 1, expected 0';
    assert.deepEqual(stepFailureLines({ status: 'completed', attempts: 2, error: check, diagnosis: check }), [{ kind: 'earlier', text: `An earlier attempt failed: ${check}` }]);
  });

  it('shows a failed step\'s error, and its diagnosis only when it says something else', () => {
    assert.deepEqual(stepFailureLines({ status: 'failed', attempts: 1, error: 'same', diagnosis: 'same' }), [{ kind: 'error', text: 'same' }]);
    assert.deepEqual(stepFailureLines({ status: 'failed', attempts: 2, error: 'Verification failed', diagnosis: 'result.items is empty' }), [
      { kind: 'error', text: 'Verification failed' },
      { kind: 'diagnosis', text: 'Diagnosis: result.items is empty' },
    ]);
    assert.deepEqual(stepFailureLines({ status: 'running', attempts: 1, diagnosis: 'retrying' }), [{ kind: 'diagnosis', text: 'Diagnosis: retrying' }]);
    assert.deepEqual(stepFailureLines({ status: 'completed', attempts: 1 }), []);
  });

  it('says the failure a step makes another attempt after as that attempt\'s, not in red as the attempt under way (a trial)', () => {
    const check = 'Check 1 (contents of `src/cli.js`) failed: no "remove"';
    for (const status of ['running', 'awaiting_approval', 'pending'] as const) {
      assert.deepEqual(stepFailureLines({ status, attempts: 2, error: check, diagnosis: check }), [{ kind: 'earlier', text: `Attempt 1 failed: ${check}` }], status);
    }
    assert.deepEqual(stepFailureLines({ status: 'skipped', attempts: 2, error: check }), [{ kind: 'error', text: check }]);
  });

  it('says a failure the page gives in full elsewhere by its first line, and where the rest is (a test run\'s output was shown three times)', () => {
    const output = `Check 1 (command \`npm test\`) failed: exit code 1, expected 0; last output:\n${'not ok 1 - adds\n'.repeat(20)}`;
    assert.deepEqual(stepFailureLines({ status: 'failed', attempts: 1, error: output }, 'Failures'), [
      { kind: 'error', text: 'Check 1 (command `npm test`) failed: exit code 1, expected 0; last output:… (in full under Failures)' },
    ]);
    assert.deepEqual(stepFailureLines({ status: 'failed', attempts: 1, error: 'exit 1' }, 'Failures'), [{ kind: 'error', text: 'exit 1' }], 'a short one is said as it is');
    assert.deepEqual(stepFailureLines({ status: 'failed', attempts: 1, error: output }), [{ kind: 'error', text: output }]);
  });
});
