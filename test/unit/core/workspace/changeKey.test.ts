import assert from 'node:assert/strict';
import { changeKey, foldedPath } from '../../../../src/core/workspace/changeKey';

// The promise: two changes of one file on disk take one key, however the root and path name it.
describe('changeKey', () => {
  it('gives nested roots one key for one file: /w with sub/x.txt and /w/sub with x.txt', () => {
    assert.equal(changeKey('/w', 'sub/x.txt'), changeKey('/w/sub', 'x.txt'));
    assert.equal(changeKey('/w/', 'sub/x.txt'), '/w/sub/x.txt');
    assert.equal(changeKey('/', 'x.txt'), '/x.txt');
  });

  it('gives Windows roots written with either separator, in any case, one key', () => {
    assert.equal(changeKey('C:\\Work\\', 'Sub/X.txt'), changeKey('c:/work/sub', 'x.txt'));
    assert.equal(changeKey('C:\\Work', 'a.txt'), 'c:/work/a.txt');
  });

  it('folds the letter case and the Unicode form of the path, which a case-insensitive disk does not tell apart', () => {
    assert.equal(changeKey('/w', 'README.md'), changeKey('/w', 'readme.md'));
    assert.equal(changeKey('/w', 'caf\u0065\u0301.txt'), changeKey('/w', 'caf\u00e9.txt'));
    assert.equal(foldedPath('Caf\u0065\u0301/A.TXT'), 'caf\u00e9/a.txt');
  });

  it('keeps different files apart', () => {
    assert.notEqual(changeKey('/w', 'a.txt'), changeKey('/w', 'b.txt'));
    assert.notEqual(changeKey('/w', 'x.txt'), changeKey('/w/sub', 'x.txt'));
    assert.notEqual(changeKey('/w1', 'x.txt'), changeKey('/w', '1x.txt'));
  });
});
