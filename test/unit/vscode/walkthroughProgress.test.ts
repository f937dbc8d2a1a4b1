import assert from 'node:assert/strict';
import type * as WalkthroughModule from '../../../src/vscode/walkthroughProgress';
import { memoryMemento } from '../../fakes/memoryMemento';
import { requireWithVscode } from '../../fakes/requireWithVscode';

// A newcomer planned, reviewed, approved and undid before opening the walkthrough, and found every step unticked; a context
// key alone is gone after a reload.
describe('WalkthroughProgress', () => {
  let contexts: [string, unknown][];
  let load: () => typeof WalkthroughModule;
  beforeEach(() => {
    contexts = [];
    const commands = {
      executeCommand: (command: string, key: string, value: unknown) => {
        if (command === 'setContext') contexts.push([key, value]);
        return Promise.resolve();
      },
    };
    load = () => requireWithVscode<typeof WalkthroughModule>(require.resolve('../../../src/vscode/walkthroughProgress'), { commands });
  });

  it('sets the context key of each step done by the work itself, once, and keeps it for the next window', () => {
    const { WalkthroughProgress } = load();
    const state = memoryMemento();
    const progress = new WalkthroughProgress(state);
    assert.deepEqual(contexts, []);
    const base = { runId: 'r', seq: 1, time: 0 };
    progress.markRunEvent({ ...base, type: 'run_started', plan: { id: 'p', version: 1, objective: 'o', createdAt: '', agents: {}, steps: [] } });
    progress.markRunEvent({ ...base, type: 'request_answered', stepId: 'S1', kind: 'approval' });
    progress.markRunEvent({ ...base, type: 'request_answered', stepId: 'S1', kind: 'clarification' });
    progress.mark('undone');
    progress.mark('undone');
    assert.deepEqual(contexts, [
      ['taskPlanner.walkthrough.started', true],
      ['taskPlanner.walkthrough.answered', true],
      ['taskPlanner.walkthrough.undone', true],
    ]);
    contexts.length = 0;
    new WalkthroughProgress(state);
    const keys = (contexts as [string, unknown][]).map(([key]) => key);
    assert.deepEqual(keys.sort(), ['taskPlanner.walkthrough.answered', 'taskPlanner.walkthrough.started', 'taskPlanner.walkthrough.undone']);
  });

  it('ignores what the state holds that is no step of its own', async () => {
    const { WalkthroughProgress } = load();
    const state = memoryMemento();
    await state.update('taskPlanner.walkthroughDone', ['planned', 'constructor', 42]);
    new WalkthroughProgress(state);
    assert.deepEqual(contexts, [['taskPlanner.walkthrough.planned', true]]);
  });
});
