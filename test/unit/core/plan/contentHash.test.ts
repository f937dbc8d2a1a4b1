import assert from 'node:assert/strict';
import { contentHash } from '../../../../src/core/plan/contentHash';

describe('contentHash', () => {
  it('is 8 hex digits, the same for the same text and different for different text', () => {
    assert.match(contentHash('Add a README'), /^[0-9a-f]{8}$/);
    assert.equal(contentHash('Add a README'), contentHash('Add a README'));
    assert.notEqual(contentHash('Add a README'), contentHash('Add a README.'));
  });
});
