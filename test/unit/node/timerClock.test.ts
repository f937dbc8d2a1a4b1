import assert from 'node:assert/strict';
import { mock } from 'node:test';
import { timerClock } from '../../../src/node/timerClock';

/** Lets settled promises run their callbacks. */
const settle = (): Promise<void> => new Promise((resolve) => queueMicrotask(resolve));

/** A signal that counts the abort listeners added and removed by hand. */
function countingSignal(): { signal: AbortSignal; controller: AbortController; listeners: () => number } {
  const controller = new AbortController();
  let count = 0;
  const { signal } = controller;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = (...args: Parameters<AbortSignal['addEventListener']>) => {
    if (args[0] === 'abort') count++;
    add(...args);
  };
  signal.removeEventListener = (...args: Parameters<AbortSignal['removeEventListener']>) => {
    if (args[0] === 'abort') count--;
    remove(...args);
  };
  return { signal, controller, listeners: () => count };
}

describe('timerClock', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000 }));
  afterEach(() => mock.timers.reset());

  it('tells the wall time in milliseconds', () => {
    assert.equal(timerClock.now(), 1_000);
    mock.timers.tick(250);
    assert.equal(timerClock.now(), 1_250);
  });

  it('sleeps exactly the given time, and a negative time not at all', async () => {
    let woke = false;
    void timerClock.sleep(500).then(() => (woke = true));
    mock.timers.tick(499);
    await settle();
    assert.equal(woke, false);
    mock.timers.tick(1);
    await settle();
    assert.equal(woke, true);

    let now = false;
    void timerClock.sleep(-5).then(() => (now = true));
    mock.timers.tick(0);
    await settle();
    assert.equal(now, true);
  });

  it('rejects with the abort reason, at once when already aborted, and stops the timer', async () => {
    const aborted = new AbortController();
    aborted.abort(new Error('run cancelled'));
    await assert.rejects(timerClock.sleep(100, aborted.signal), /run cancelled/);

    const { signal, controller, listeners } = countingSignal();
    let woke = false;
    const sleeping = timerClock.sleep(100, signal).then(() => (woke = true));
    assert.equal(listeners(), 1);
    controller.abort(new Error('step timed out'));
    await assert.rejects(sleeping, /step timed out/);
    mock.timers.tick(100);
    await settle();
    assert.equal(woke, false);
  });

  it('leaves no listener on the signal once it woke', async () => {
    const { signal, listeners } = countingSignal();
    const sleeping = timerClock.sleep(10, signal);
    mock.timers.tick(10);
    await sleeping;
    assert.equal(listeners(), 0);
  });
});
