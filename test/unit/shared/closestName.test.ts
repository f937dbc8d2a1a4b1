import assert from 'node:assert/strict';
import { closestName } from '../../../src/shared/closestName';

describe('closestName', () => {
  it('names the closest within the edits allowed, letter case ignored, the first of equals', () => {
    assert.equal(closestName('concurency', ['concurrency', 'config'], 2), 'concurrency');
    assert.equal(closestName('dependson', ['dependsOn', 'depends'], 2), 'dependsOn');
    assert.equal(closestName('ab', ['ax', 'ay'], 1), 'ax');
    assert.equal(closestName('mood', ['tool', 'model'], 1), undefined);
    assert.equal(closestName('mood', ['tool', 'model'], 2), 'tool');
  });

  it('compares no name longer than 64 characters, so a hostile field name costs little', () => {
    assert.equal(closestName('x'.repeat(65), ['x'.repeat(65)], 2), undefined);
    assert.equal(closestName('x'.repeat(64), ['x'.repeat(63)], 2), 'x'.repeat(63));
  });
});
