import assert from 'node:assert/strict';
import { progressIntervalMs, progressThrottle, type ProgressReport } from '../../../../src/core/engine/progressThrottle';
import { ManualClock } from '../../../fakes/manualClock';

function throttled(): { clock: ManualClock; sent: ProgressReport[]; throttle: ReturnType<typeof progressThrottle> } {
  const clock = new ManualClock(1_000);
  const sent: ProgressReport[] = [];
  return { clock, sent, throttle: progressThrottle(clock, (report) => sent.push(report)) };
}

describe('progressThrottle: a chatty step cannot flood the run', () => {
  it('a new line goes at once, every time (turns, tool calls, commands started are stages)', () => {
    const { sent, throttle } = throttled();
    throttle.report('turn 1 of 12');
    throttle.report('turn 1 of 12: read_file');
    throttle.report('turn 2 of 12');
    assert.deepEqual(sent, [{ message: 'turn 1 of 12' }, { message: 'turn 1 of 12: read_file' }, { message: 'turn 2 of 12' }]);
  });

  it('a repeat of the last report is dropped', () => {
    const { sent, throttle } = throttled();
    throttle.report('running pytest', 10);
    throttle.report('running pytest', 10.7);
    throttle.report('running pytest', 10);
    assert.deepEqual(sent, [{ message: 'running pytest', percent: 10 }]);
  });

  it('a thousand percentages in one interval send none at once, then the latest when the interval ends; a later one after that goes at once', async () => {
    const { clock, sent, throttle } = throttled();
    throttle.report('running pytest');
    for (let index = 1; index <= 1000; index++) throttle.report('running pytest', index / 10);
    assert.deepEqual(sent, [{ message: 'running pytest' }]);
    await clock.advance(progressIntervalMs - 1);
    assert.equal(sent.length, 1, 'nothing before the interval ends');
    await clock.advance(1);
    assert.deepEqual(sent.at(-1), { message: 'running pytest', percent: 100 }, 'the last percentage is not lost');
    assert.equal(sent.length, 2);
    assert.equal(clock.pendingCount, 0, 'nothing left waiting');
    await clock.advance(progressIntervalMs);
    throttle.report('running pytest', 40);
    assert.deepEqual(sent.at(-1), { message: 'running pytest', percent: 40 });
  });

  it('a new line meanwhile goes at once and drops the held percentage of the line before', async () => {
    const { clock, sent, throttle } = throttled();
    throttle.report('calling a', 10);
    throttle.report('calling a', 50);
    throttle.report('calling b');
    await clock.advance(progressIntervalMs * 3);
    assert.deepEqual(sent, [{ message: 'calling a', percent: 10 }, { message: 'calling b' }]);
  });

  it('a percentage held behind a new line waits for that line\'s own interval', async () => {
    const { clock, sent, throttle } = throttled();
    throttle.report('calling a', 10);
    throttle.report('calling a', 20);
    await clock.advance(progressIntervalMs - 100);
    throttle.report('calling b', 5);
    throttle.report('calling b', 60);
    await clock.advance(100);
    assert.deepEqual(sent.at(-1), { message: 'calling b', percent: 5 }, 'not sooner than an interval after "calling b"');
    await clock.advance(progressIntervalMs - 100);
    assert.deepEqual(sent.at(-1), { message: 'calling b', percent: 60 });
  });

  it('nothing is sent after close, held or new', async () => {
    const { clock, sent, throttle } = throttled();
    throttle.report('running make', 10);
    throttle.report('running make', 90);
    throttle.close();
    throttle.report('running make again');
    await clock.advance(progressIntervalMs * 2);
    assert.deepEqual(sent, [{ message: 'running make', percent: 10 }]);
    assert.equal(clock.pendingCount, 0);
  });

  it('a value that is not a number is no percentage, never a guess', () => {
    const { sent, throttle } = throttled();
    throttle.report('calling x', Number.NaN);
    throttle.report('calling y', 250);
    assert.deepEqual(sent, [{ message: 'calling x' }, { message: 'calling y', percent: 100 }]);
  });
});
