import assert from 'node:assert/strict';
import { collapseBlankLines } from '../../../../src/core/text/collapseBlankLines';

describe('collapseBlankLines', () => {
  it('keeps up to two blank lines in a row and replaces a longer run by two around how many were left out', () => {
    assert.equal(collapseBlankLines('a\n\n\nb'), 'a\n\n\nb');
    assert.equal(collapseBlankLines('a\n\n\n\nb'), 'a\n\n… (1 more blank lines left out)\n\nb');
    assert.equal(collapseBlankLines(`Which?${'\n'.repeat(3000)}type yes`), 'Which?\n\n… (2997 more blank lines left out)\n\ntype yes');
  });

  it('counts lines of only white space as blank, at the start and the end too, and keeps other lines as they are', () => {
    assert.equal(collapseBlankLines(' \n\t\n  \n \nx  '), '\n… (2 more blank lines left out)\n\nx  ');
    assert.equal(collapseBlankLines('x\n\n\n\n'), 'x\n\n… (2 more blank lines left out)\n');
    assert.equal(collapseBlankLines('one\ntwo'), 'one\ntwo');
  });
});
