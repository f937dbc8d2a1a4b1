/**
 * A binary heap of step ids: `pop` returns the smallest by `compare` (the scheduler's
 * best candidate) in O(log n). Ids are expected to be pushed at most once.
 */
export class ReadyQueue {
  private readonly heap: string[] = [];

  constructor(private readonly compare: (a: string, b: string) => number) {}

  get size(): number {
    return this.heap.length;
  }

  push(id: string): void {
    const heap = this.heap;
    heap.push(id);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.compare(heap[index] as string, heap[parent] as string) >= 0) break;
      [heap[index], heap[parent]] = [heap[parent] as string, heap[index] as string];
      index = parent;
    }
  }

  pop(): string | undefined {
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
      if (left < heap.length && this.compare(heap[left] as string, heap[best] as string) < 0) best = left;
      if (right < heap.length && this.compare(heap[right] as string, heap[best] as string) < 0) best = right;
      if (best === index) return top;
      [heap[index], heap[best]] = [heap[best] as string, heap[index] as string];
      index = best;
    }
  }

  /** Removes every id. */
  clear(): void {
    this.heap.length = 0;
  }
}
