import assert from 'node:assert/strict';
import { coalescedWrite, type WriteTimers } from '../../../webview/coalescedWrite';

/** Timers that fire only when told, in the order they were set. */
function manualTimers(): WriteTimers & { fire(): void; pending(): number } {
  const timers = new Map<number, () => void>();
  let next = 0;
  return {
    setTimeout: (callback) => {
      timers.set(++next, callback);
      return next;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
    fire() {
      const due = [...timers.values()];
      timers.clear();
      for (const callback of due) callback();
    },
    pending: () => timers.size,
  };
}

describe('coalescedWrite: the webview state saved at most every half second', () => {
  it('writes only the newest of the values given before it is due, once, when it is due', () => {
    const timers = manualTimers();
    const written: number[] = [];
    const saves = coalescedWrite((value: number) => written.push(value), 500, timers);
    for (const value of [1, 2, 3]) saves.write(value);
    assert.deepEqual(written, [], 'nothing is written before the delay');
    assert.equal(timers.pending(), 1, 'one wait for all three');
    timers.fire();
    assert.deepEqual(written, [3]);
    timers.fire();
    assert.deepEqual(written, [3], 'nothing more to write');
  });

  it('a value given after a write waits for a new delay: none is lost', () => {
    const timers = manualTimers();
    const written: string[] = [];
    const saves = coalescedWrite((value: string) => written.push(value), 500, timers);
    saves.write('a');
    timers.fire();
    saves.write('b');
    assert.equal(timers.pending(), 1);
    timers.fire();
    assert.deepEqual(written, ['a', 'b']);
  });

  it('flush writes the kept value at once and cancels its wait; a flush with nothing kept writes nothing', () => {
    const timers = manualTimers();
    const written: string[] = [];
    const saves = coalescedWrite((value: string) => written.push(value), 500, timers);
    saves.flush();
    assert.deepEqual(written, []);
    saves.write('hidden');
    saves.flush();
    assert.deepEqual(written, ['hidden']);
    assert.equal(timers.pending(), 0, 'the wait went with the flush');
    saves.flush();
    assert.deepEqual(written, ['hidden'], 'written once');
  });

  it('writes a kept undefined or null as given, not as nothing to write', () => {
    const timers = manualTimers();
    const written: unknown[] = [];
    const saves = coalescedWrite((value: unknown) => written.push(value), 500, timers);
    saves.write(undefined);
    saves.flush();
    saves.write(null);
    timers.fire();
    assert.deepEqual(written, [undefined, null]);
  });
});
