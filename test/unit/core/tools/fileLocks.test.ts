import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { KeyedLock } from '../../../../src/core/tools/fileLocks';

/** Work that runs until the test ends it, noting when it starts. */
function gate(log: string[], name: string): { work: () => Promise<string>; end: () => void } {
  let end: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  return {
    work: async () => {
      log.push(`${name} starts`);
      await ended;
      log.push(`${name} ends`);
      return name;
    },
    end: () => end(),
  };
}

/** Lets every pending promise callback run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('KeyedLock (fileLocks)', () => {
  it('runs the work of one key one at a time, in call order, and never two at once however the turns are handed on', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const [a, b, c] = [gate(log, 'A'), gate(log, 'B'), gate(log, 'C')];
    const runs = [lock.run('f', undefined, a.work), lock.run('f', undefined, b.work)];
    await settle();
    assert.deepEqual(log, ['A starts']);
    a.end();
    await settle();
    assert.deepEqual(log, ['A starts', 'A ends', 'B starts']);
    // C arrives while B holds the file: it waits for B, though A's turn has ended.
    runs.push(lock.run('f', undefined, c.work));
    await settle();
    assert.deepEqual(log, ['A starts', 'A ends', 'B starts']);
    b.end();
    await settle();
    c.end();
    assert.deepEqual(await Promise.all(runs), ['A', 'B', 'C']);
    assert.deepEqual(log, ['A starts', 'A ends', 'B starts', 'B ends', 'C starts', 'C ends']);
  });

  it('runs the work of different keys side by side', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const [a, b] = [gate(log, 'A'), gate(log, 'B')];
    const runs = [lock.run('a.txt', undefined, a.work), lock.run('b.txt', undefined, b.work)];
    await settle();
    assert.deepEqual(log, ['A starts', 'B starts']);
    a.end();
    b.end();
    await Promise.all(runs);
  });

  it('hands the turn on when work fails, and passes the failure to its caller', async () => {
    const lock = new KeyedLock();
    const failing = lock.run('f', undefined, () => Promise.reject(new Error('disk full')));
    const next = lock.run('f', undefined, () => Promise.resolve('written'));
    await assert.rejects(failing, /disk full/);
    assert.equal(await next, 'written');
  });

  it('forgets a key once its work has ended, so the lock holds only keys in use', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const [a, b] = [gate(log, 'A'), gate(log, 'B')];
    const runs = [lock.run('f', undefined, a.work), lock.run('g', undefined, b.work), lock.run('f', undefined, () => Promise.resolve('C'))];
    await settle();
    assert.equal(lock.size, 2);
    a.end();
    b.end();
    await Promise.all(runs);
    assert.equal(lock.size, 0);
  });

  it('never starts work whose signal was aborted before its turn, and rejects with the reason', async () => {
    const lock = new KeyedLock();
    let started = false;
    const aborted = AbortSignal.abort(new Error('the step was stopped'));
    await assert.rejects(
      lock.run('f', aborted, async () => {
        started = true;
      }),
      /the step was stopped/,
    );
    assert.equal(started, false);
  });

  it('stops waiting when the signal aborts during the wait, without starting the work; later callers still wait for the holder', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const holder = gate(log, 'A');
    const controller = new AbortController();
    const first = lock.run('f', undefined, holder.work);
    const waiting = lock.run('f', controller.signal, async () => {
      log.push('B starts');
    });
    const third = gate(log, 'C');
    const last = lock.run('f', undefined, third.work);
    await settle();
    controller.abort(new Error('stopped while waiting'));
    await assert.rejects(waiting, /stopped while waiting/);
    await settle();
    assert.deepEqual(log, ['A starts']);
    holder.end();
    await settle();
    third.end();
    await Promise.all([first, last]);
    assert.deepEqual(log, ['A starts', 'A ends', 'C starts', 'C ends']);
    assert.equal(lock.size, 0);
  });

  it('leaves no listener on a long-lived signal once the turn came (a run changes many files under one signal)', async () => {
    const lock = new KeyedLock();
    const controller = new AbortController();
    const log: string[] = [];
    const holder = gate(log, 'A');
    const first = lock.run('f', controller.signal, holder.work);
    const second = lock.run('f', controller.signal, () => Promise.resolve('B'));
    await settle();
    assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
    holder.end();
    assert.deepEqual(await Promise.all([first, second]), ['A', 'B']);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
    // Aborting now, after every turn came, rejects nothing and starts nothing.
    controller.abort();
    assert.equal(await lock.run('g', undefined, () => Promise.resolve('after')), 'after');
  });
});
