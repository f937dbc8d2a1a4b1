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

  it('attack: gives one key to the spellings a case-insensitive disk opens as one file (ſ, the Kelvin sign, ı)', () => {
    // Two parallel edit_file steps on notes.md and noteſ.md both said "edited" on a case-folding disk, and one edit was lost.
    assert.equal(changeKey('/w', 'note\u017F.md'), changeKey('/w', 'notes.md'));
    assert.equal(changeKey('/w', '\u212Aey.txt'), changeKey('/w', 'key.txt'));
    assert.equal(changeKey('/w', 'L\u0131ST.md'), changeKey('/w', 'list.md'));
  });

  it('keeps different files apart', () => {
    assert.notEqual(changeKey('/w', 'a.txt'), changeKey('/w', 'b.txt'));
    assert.notEqual(changeKey('/w', 'x.txt'), changeKey('/w/sub', 'x.txt'));
    assert.notEqual(changeKey('/w1', 'x.txt'), changeKey('/w', '1x.txt'));
  });
});
