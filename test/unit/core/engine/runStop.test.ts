import assert from 'node:assert/strict';
import { RunStop } from '../../../../src/core/engine/runStop';

describe('RunStop', () => {
  it('settles a race as its work does while the run goes on', async () => {
    const stop = new RunStop();
    assert.equal(await stop.race(async () => 'done'), 'done');
    await assert.rejects(stop.race(async () => Promise.reject(new Error('work failed'))), /work failed/);
  });

  it('rejects every pending race with the reason of the first stop, even work that never ends', async () => {
    const stop = new RunStop();
    const hung = [stop.race(() => new Promise<never>(() => undefined)), stop.race(() => new Promise<never>(() => undefined))];
    stop.stop(new Error('halted'));
    stop.stop(new Error('second stop'));
    for (const race of hung) await assert.rejects(race, /halted/);
    assert.equal(stop.signal.aborted, true);
    assert.equal((stop.signal.reason as Error).message, 'halted');
  });

  it('does not start work once stopped', async () => {
    const stop = new RunStop();
    stop.stop(new Error('cancelled'));
    let started = false;
    await assert.rejects(
      stop.race(async () => {
        started = true;
      }),
      /cancelled/,
    );
    assert.equal(started, false);
  });
});
