import assert from 'node:assert/strict';
import '../../fakes/vscodeL10n';
import { RunInProgressError, tellRunInProgress, type RunInProgressUi } from '../../../src/vscode/runInProgress';

/** A UI that answers the warning with `pick` and records what was said and run. */
function recording(pick: string | undefined) {
  const seen = { warned: [] as { message: string; actions: string[] }[], executed: [] as [string, string][] };
  let answered: Promise<unknown> = Promise.resolve();
  const ui: RunInProgressUi = {
    warn: (message, ...actions) => {
      seen.warned.push({ message, actions });
      const answer = Promise.resolve(pick);
      answered = answer;
      return answer;
    },
    execute: (command, runId) => void seen.executed.push([command, runId]),
  };
  return { ui, seen, answered: async () => (await answered, await Promise.resolve()) };
}

describe('tellRunInProgress ("A run is already in progress" offers to show or cancel that run)', () => {
  const message = 'A run is already in progress: wait for it to finish or cancel it first.';

  it('offers Show that run and Cancel that run, and cancels exactly the run that goes on', async () => {
    const { ui, seen, answered } = recording('Cancel that run');
    assert.equal(tellRunInProgress(new RunInProgressError(message, 'run-7'), ui), true);
    await answered();
    assert.deepEqual(seen.warned, [{ message: `Task Planner: ${message}`, actions: ['Show that run', 'Cancel that run'] }]);
    assert.deepEqual(seen.executed, [['taskPlanner.cancelRun', 'run-7']]);
  });

  it('shows that run in the Plan view on Show that run, and does nothing when the message is closed', async () => {
    const shown = recording('Show that run');
    tellRunInProgress(new RunInProgressError(message, 'run-7'), shown.ui);
    await shown.answered();
    assert.deepEqual(shown.seen.executed, [['taskPlanner.openRun', 'run-7']]);
    const closed = recording(undefined);
    tellRunInProgress(new RunInProgressError(message, 'run-7'), closed.ui);
    await closed.answered();
    assert.deepEqual(closed.seen.executed, []);
  });

  it('offers no button while the run that goes on has no id yet (it is still asking before its start)', async () => {
    const { ui, seen, answered } = recording(undefined);
    assert.equal(tellRunInProgress(new RunInProgressError(message, undefined), ui), true);
    await answered();
    assert.deepEqual(seen.warned, [{ message: `Task Planner: ${message}`, actions: [] }]);
  });

  it("knows the error by its name, as the other bundle's copy of its class throws it", async () => {
    const { ui, seen, answered } = recording(undefined);
    const copy = Object.assign(new Error(message), { name: 'RunInProgressError', runId: 'run-8' });
    assert.equal(tellRunInProgress(copy, ui), true);
    await answered();
    assert.deepEqual(seen.warned[0]?.actions, ['Show that run', 'Cancel that run']);
  });

  it('says nothing of another error, leaving it to the caller', () => {
    const { ui, seen } = recording(undefined);
    assert.equal(tellRunInProgress(new Error(message), ui), false);
    assert.equal(tellRunInProgress('A run is already in progress', ui), false);
    assert.deepEqual(seen.warned, []);
  });
});
