import assert from 'node:assert/strict';
import { CoalescedCall, runUpdateIntervalMs } from '../../../src/shared/coalescedCall';
import { manualTimers } from '../../fakes/manualTimers';

describe('CoalescedCall: a view updated at most once per interval while a run streams its events', () => {
  it('calls at once with now, and a schedule right after waits the interval, shared by every schedule meanwhile', () => {
    const timers = manualTimers();
    const calls: number[] = [];
    const call = new CoalescedCall(() => calls.push(timers.now()), () => 30, timers);
    call.now();
    for (let event = 0; event < 5; event++) call.schedule();
    assert.equal(timers.pending(), 1);
    timers.advance(29);
    assert.deepEqual(calls, [0], 'not before the interval');
    timers.advance(1);
    assert.deepEqual(calls, [0, 30], 'once for the five');
  });

  it('a schedule long after the last call comes at once (on the next turn), not a whole interval later', () => {
    const timers = manualTimers();
    const calls: number[] = [];
    const call = new CoalescedCall(() => calls.push(timers.now()), () => 30, timers);
    call.now();
    timers.advance(100);
    call.schedule();
    timers.advance(0);
    assert.deepEqual(calls, [0, 100]);
  });

  it('now drops the scheduled call, whose work it does; cancel drops it without a call', () => {
    const timers = manualTimers();
    let calls = 0;
    const call = new CoalescedCall(() => calls++, () => 30, timers);
    call.schedule();
    call.now();
    timers.advance(100);
    assert.equal(calls, 1, 'the scheduled call went with now');
    call.schedule();
    call.cancel();
    timers.advance(100);
    assert.equal(calls, 1);
    assert.equal(timers.pending(), 0);
  });

  it('reads the interval when it schedules: a plan that grew waits longer', () => {
    const timers = manualTimers();
    const calls: number[] = [];
    let steps = 10;
    const call = new CoalescedCall(() => calls.push(timers.now()), () => runUpdateIntervalMs(steps), timers);
    call.now();
    steps = 1_000;
    call.schedule();
    timers.advance(199);
    assert.deepEqual(calls, [0]);
    timers.advance(1);
    assert.deepEqual(calls, [0, 200]);
  });

  it('waits 30 ms for plans of up to 150 steps, and a fifth of a millisecond per step beyond', () => {
    assert.deepEqual([0, 150, 151, 1_000, 5_000].map(runUpdateIntervalMs), [30, 30, 30.2, 200, 1_000]);
  });

  it('flush makes the scheduled call now, once, and does nothing when none is scheduled (the webview saving its state as it is hidden)', () => {
    const timers = manualTimers();
    const saved: string[] = [];
    let latest = 'first';
    const saves = new CoalescedCall(() => saved.push(latest), () => 500, timers);
    saves.flush();
    assert.deepEqual(saved, [], 'nothing was scheduled');
    saves.now();
    latest = 'second';
    saves.schedule();
    latest = 'third';
    saves.schedule();
    const { flush } = saves;
    flush();
    assert.deepEqual(saved, ['first', 'third'], 'the newest, at once, unbound as a listener calls it');
    timers.advance(1_000);
    assert.deepEqual(saved, ['first', 'third'], 'not again when its time would have come');
  });
});
