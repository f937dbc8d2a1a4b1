import assert from 'node:assert/strict';
import { posix, win32 } from 'node:path';
import { leadsOutside } from '../../../src/shared/leadsOutside';

describe('leadsOutside', () => {
  it('is true for a path through "..", with either separator, and false for a name that starts with two dots', () => {
    for (const outside of ['..', '../x', '../../a/b', '..\\x']) assert.equal(leadsOutside(outside), true, outside);
    for (const inside of ['', 'x', '..notes.md', '...', '.hidden', 'a/..b', '..x/y']) assert.equal(leadsOutside(inside), false, inside);
  });

  it('agrees with path.relative on both platforms: a file named "..notes.md" in the folder is inside, its parent outside', () => {
    assert.equal(leadsOutside(posix.relative('/w', '/w/..notes.md')), false);
    assert.equal(leadsOutside(posix.relative('/w', '/notes.md')), true);
    assert.equal(leadsOutside(win32.relative('C:\\w', 'C:\\w\\..notes.md')), false);
    assert.equal(leadsOutside(win32.relative('C:\\w', 'C:\\notes.md')), true);
  });
});
