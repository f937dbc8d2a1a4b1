import assert from 'node:assert/strict';
import { errorMessage } from '../../../src/shared/errorMessage';

describe('errorMessage', () => {
  it('gives an error its message alone, without its name or stack', () => {
    assert.equal(errorMessage(new Error('the file is gone')), 'the file is gone');
    assert.equal(errorMessage(new RangeError('too far')), 'too far');
  });

  it('gives an error subclass with its own name its message', () => {
    class JournalError extends Error {
      override name = 'JournalError';
    }
    assert.equal(errorMessage(new JournalError('event 3 is missing')), 'event 3 is missing');
  });

  it('gives anything else that was thrown its String form', () => {
    assert.equal(errorMessage('cancelled by the user'), 'cancelled by the user');
    assert.equal(errorMessage(42), '42');
    assert.equal(errorMessage(undefined), 'undefined');
    assert.equal(errorMessage({ message: 'not an Error' }), '[object Object]');
  });
});
