import assert from 'node:assert/strict';
import { takeInterruptedRuns } from '../../../src/vscode/interruptedRuns';
import { memoryMemento } from '../../fakes/memoryMemento';

/** This window journals every run. */
const everyRun = (): Promise<boolean> => Promise.resolve(true);

describe('takeInterruptedRuns: the runs a reload cut off, from workspace state', () => {
  it('gives each folder\'s recorded run once, clearing its record, and reads a key named twice once', async () => {
    const memento = memoryMemento({ a: { runId: 'run-a', objective: 'Add a flag' }, b: { runId: 'run-b', objective: 'Fix the test' } });
    assert.deepEqual(await takeInterruptedRuns(memento, ['a', 'b', 'a'], everyRun), [
      { runId: 'run-a', objective: 'Add a flag' },
      { runId: 'run-b', objective: 'Fix the test' },
    ]);
    assert.deepEqual(await takeInterruptedRuns(memento, ['a', 'b'], everyRun), [], 'a record is taken once');
  });

  it('names a run without a readable objective by its id, and skips a record that is not a run\'s', async () => {
    const memento = memoryMemento({ a: { runId: 'run-a', objective: 7 }, b: { objective: 'no id' }, c: 'text' });
    assert.deepEqual(await takeInterruptedRuns(memento, ['a', 'b', 'c', 'missing'], everyRun), [{ runId: 'run-a', objective: 'run-a' }]);
    assert.deepEqual(memento.get('b'), { objective: 'no id' }, 'what is not a run record is left as it was');
  });

  it("leaves the record of a run this window does not journal for the window that does (workspace state is shared by the workspace's windows)", async () => {
    const memento = memoryMemento({ a: { runId: 'run-mine', objective: 'Mine' }, b: { runId: 'run-theirs', objective: 'Theirs' } });
    const journaled = (runId: string): Promise<boolean> => Promise.resolve(runId === 'run-mine');
    assert.deepEqual(await takeInterruptedRuns(memento, ['a', 'b'], journaled), [{ runId: 'run-mine', objective: 'Mine' }]);
    assert.deepEqual(memento.get('b'), { runId: 'run-theirs', objective: 'Theirs' }, "another window's record was taken");
    assert.equal(memento.get('a'), undefined);
  });
});
