import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ReadyQueue } from '../../../../src/core/engine/readyQueue';

describe('ReadyQueue', () => {
  it('pops in comparator order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 10_000 })), (numbers) => {
        const queue = new ReadyQueue((a, b) => Number(a) - Number(b));
        for (const number of numbers) queue.push(String(number));
        const popped: number[] = [];
        while (queue.size > 0) popped.push(Number(queue.pop()));
        assert.deepEqual(popped, [...numbers].sort((a, b) => a - b));
        assert.equal(queue.pop(), undefined);
      }),
    );
  });
});
