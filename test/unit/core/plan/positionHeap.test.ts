import assert from 'node:assert/strict';
import fc from 'fast-check';
import { PositionHeap } from '../../../../src/core/plan/positionHeap';

describe('PositionHeap', () => {
  it('pops the smallest rank first', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 10_000 })), (ranks) => {
        const queue = new PositionHeap();
        for (const rank of ranks) queue.push(rank);
        const popped: number[] = [];
        while (queue.size > 0) popped.push(queue.pop() as number);
        assert.deepEqual(popped, [...ranks].sort((a, b) => a - b));
        assert.equal(queue.pop(), undefined);
      }),
    );
  });

  it('is empty after clear, and takes ranks again', () => {
    const queue = new PositionHeap();
    for (const rank of [5, 1, 3]) queue.push(rank);
    queue.clear();
    assert.equal(queue.size, 0);
    assert.equal(queue.pop(), undefined);
    queue.push(7);
    assert.equal(queue.pop(), 7);
  });
});
