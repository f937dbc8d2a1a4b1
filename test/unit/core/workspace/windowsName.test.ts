import assert from 'node:assert/strict';
import { windowsName } from '../../../../src/core/workspace/windowsName';

describe('windowsName', () => {
  it('drops the trailing dots and spaces Windows drops, and keeps the rest', () => {
    assert.deepEqual(['.git.', '.env ', 'a. .', 'id_rsa...', 'a.b', ' a', '.x', 'a'].map(windowsName), ['.git', '.env', 'a', 'id_rsa', 'a.b', ' a', '.x', 'a']);
  });

  it('keeps a name made only of dots and spaces, and the empty name, as they are', () => {
    assert.deepEqual(['.', '..', ' . ', ''].map(windowsName), ['.', '..', ' . ', '']);
  });

  it('reads a long run of dots and spaces in linear time', () => {
    assert.equal(windowsName(`a${'. '.repeat(100_000)}`), 'a');
  });
});
