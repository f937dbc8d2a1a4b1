import assert from 'node:assert/strict';
import { outputPercentReader } from '../../../../src/core/tools/outputPercent';

describe('outputPercentReader: the progress a program prints of itself', () => {
  it("reads pytest's percentage closing each line, the latest of a chunk", () => {
    const read = outputPercentReader();
    assert.equal(read('tests/test_a.py ........                 [ 12%]\ntests/test_b.py ....                     [ 45%]\n'), 45);
    assert.equal(read('tests/test_c.py ..........................[100%]\n'), 100);
  });

  it('reads a progress bar redrawn in place (tqdm, pip)', () => {
    const read = outputPercentReader();
    assert.equal(read('\r 10%|█         | 1/10'), 10);
    assert.equal(read('\r 70%|███████   | 7/10'), 70);
  });

  it('reads a line cut between two chunks once it is whole', () => {
    const read = outputPercentReader();
    assert.equal(read('tests/test_a.py ....   [ 3'), undefined);
    assert.equal(read('3%]\n'), 33);
  });

  it('a percentage anywhere else says nothing of how far the command is', () => {
    const read = outputPercentReader();
    assert.equal(read('Name      Stmts   Miss  Cover\nsrc/a.py     10      2    80%\n'), undefined);
    assert.equal(read('50% of the disk is used\n[ 45%] of something else here\n'), undefined);
    assert.equal(read('[250%]\n'), undefined);
    assert.equal(read('nothing\n'), undefined);
  });

  it('keeps at most a bounded piece of an endless line between chunks', () => {
    const read = outputPercentReader();
    for (let index = 0; index < 100; index++) assert.equal(read('x'.repeat(10_000)), undefined);
    assert.equal(read(' [ 50%]\n'), 50);
  });
});
