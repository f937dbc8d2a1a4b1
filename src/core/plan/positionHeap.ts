/**
 * A binary min-heap of positions (a plan's step positions, or the scheduler's ranks: 0 = its best candidate, see
 * `comparePriority`): `pop` returns the smallest in O(log n). Each is pushed at most once.
 */
export class PositionHeap {
  private readonly heap: number[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(id: number): void {
    const heap = this.heap;
    heap.push(id);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      // Stryker disable next-line EqualityOperator: positions are unique, never equal.
      if ((heap[index] as number) >= (heap[parent] as number)) break;
      [heap[index], heap[parent]] = [heap[parent] as number, heap[index] as number];
      index = parent;
    }
  }

  pop(): number | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length === 0 || last === undefined) return top;
    heap[0] = last;
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let best = index;
      // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end is undefined, which compares false; positions are unique.
      if (left < heap.length && (heap[left] as number) < (heap[best] as number)) best = left;
      // Stryker disable next-line ConditionalExpression,EqualityOperator: as above.
      if (right < heap.length && (heap[right] as number) < (heap[best] as number)) best = right;
      if (best === index) return top;
      [heap[index], heap[best]] = [heap[best] as number, heap[index] as number];
      index = best;
    }
  }

  /** Removes every id. */
  clear(): void {
    this.heap.length = 0;
  }
}
