import assert from 'node:assert/strict';
import { criticalHaltReason, reasonBesideFailures } from '../../../../src/core/engine/criticalHalt';

describe('criticalHalt', () => {
  it('says which critical step stopped the run, and its failure', () => {
    assert.equal(criticalHaltReason('S1', 'File not found: a.txt'), 'Critical step S1 failed: File not found: a.txt');
    assert.equal(criticalHaltReason('S1', undefined), 'Critical step S1 failed');
    assert.equal(criticalHaltReason('S1', ''), 'Critical step S1 failed');
  });

  it('beside the failures shown, names only the step; any other reason, or a step not shown, stays whole', () => {
    const shown = new Set(['S1']);
    assert.equal(reasonBesideFailures(criticalHaltReason('S1', 'boom\nline 2'), shown), 'Critical step S1 failed.');
    assert.equal(reasonBesideFailures(criticalHaltReason('S1', undefined), shown), 'Critical step S1 failed.');
    // Its failure is not shown there (more failures than the summary lists): said in the reason, as before.
    assert.equal(reasonBesideFailures(criticalHaltReason('S2', 'boom'), shown), 'Critical step S2 failed: boom');
    assert.equal(reasonBesideFailures('Cancelled by you.', shown), 'Cancelled by you.');
    // Only our own opening counts: a reason that quotes it further on is left alone.
    assert.equal(reasonBesideFailures('Replanning failed: Critical step S1 failed: boom', shown), 'Replanning failed: Critical step S1 failed: boom');
    assert.equal(reasonBesideFailures('Critical step S1 failedly: boom', shown), 'Critical step S1 failedly: boom');
  });
});
