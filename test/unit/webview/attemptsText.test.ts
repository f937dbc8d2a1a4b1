import assert from 'node:assert/strict';
import { attemptsText } from '../../../webview/attemptsText';

describe('attemptsText', () => {
  it('says only the attempts a completed step made, since no other will come (a first-try pass read "1 / 3")', () => {
    assert.equal(attemptsText({ status: 'completed', attempts: 1, maxAttempts: 3 }), '1');
    assert.equal(attemptsText({ status: 'completed', attempts: 2, maxAttempts: 3 }), '2');
  });

  it('says of how many at most while another attempt may come or when the step ran out of them', () => {
    assert.equal(attemptsText({ status: 'running', attempts: 2, maxAttempts: 3 }), '2 of 3');
    assert.equal(attemptsText({ status: 'failed', attempts: 3, maxAttempts: 3 }), '3 of 3');
    assert.equal(attemptsText({ status: 'failed', attempts: 1, maxAttempts: 1 }), '1', 'one attempt at most: nothing to compare');
  });

  it('says nothing of a step that made no attempt yet (a trial read "0 of 3" and "0")', () => {
    assert.equal(attemptsText({ status: 'pending', attempts: 0, maxAttempts: 3 }), '');
    assert.equal(attemptsText({ status: 'skipped', attempts: 0, maxAttempts: 1 }), '');
  });
});
