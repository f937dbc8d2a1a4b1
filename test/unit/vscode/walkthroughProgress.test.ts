import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as WalkthroughModule from '../../../src/vscode/walkthroughProgress';
import { memoryMemento } from '../../fakes/memoryMemento';
import { requireWithVscode } from '../../fakes/requireWithVscode';

// A newcomer planned, reviewed, approved and undid before opening the walkthrough, and found every step unticked; a context
// key alone is gone after a reload.
describe('WalkthroughProgress', () => {
  let contexts: [string, unknown][];
  let ticked: unknown[];
  let load: () => typeof WalkthroughModule;
  beforeEach(() => {
    contexts = [];
    ticked = [];
    const commands = {
      executeCommand: (command: string, key: string, value: unknown) => {
        if (command === 'setContext') contexts.push([key, value]);
        if (command === 'welcome.markStepComplete') ticked.push(key);
        return Promise.resolve();
      },
    };
    load = () => requireWithVscode<typeof WalkthroughModule>(require.resolve('../../../src/vscode/walkthroughProgress'), { commands });
  });

  it('sets the context key of each step done by the work itself, once, and keeps it for the next window', () => {
    const { WalkthroughProgress } = load();
    const state = memoryMemento();
    const progress = new WalkthroughProgress(state, 'pub.ext');
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
    new WalkthroughProgress(state, 'pub.ext');
    const keys = (contexts as [string, unknown][]).map(([key]) => key);
    assert.deepEqual(keys.sort(), ['taskPlanner.walkthrough.answered', 'taskPlanner.walkthrough.started', 'taskPlanner.walkthrough.undone']);
  });

  it('ignores what the state holds that is no step of its own', async () => {
    const { WalkthroughProgress } = load();
    const state = memoryMemento();
    await state.update('taskPlanner.walkthroughDone', ['planned', 'constructor', 42]);
    new WalkthroughProgress(state, 'pub.ext');
    assert.deepEqual(contexts, [['taskPlanner.walkthrough.planned', true]]);
  });

  // A newcomer set up a model, planned, started, approved and undid, then opened the walkthrough: all five steps unticked.
  // VS Code registers the walkthrough when first needed; a context key that already holds then counts as seen and ticks
  // nothing in that window, so each step is also ticked by VS Code's own command, by its full id.
  it('ticks each step in VS Code itself by its id, the model step once a model plans, whenever the walkthrough is registered', () => {
    const { WalkthroughProgress } = load();
    const state = memoryMemento();
    const progress = new WalkthroughProgress(state, 'pub.ext');
    progress.markPlanner('heuristic');
    assert.deepEqual(ticked, []);
    progress.markPlanner('openai');
    progress.markPlanner('vscode');
    progress.mark('planned');
    const base = { runId: 'r', seq: 1, time: 0 };
    progress.markRunEvent({ ...base, type: 'run_started', plan: { id: 'p', version: 1, objective: 'o', createdAt: '', agents: {}, steps: [] } });
    progress.markRunEvent({ ...base, type: 'request_answered', stepId: 'S1', kind: 'approval' });
    progress.mark('undone');
    progress.mark('undone');
    assert.deepEqual(ticked, [
      'pub.ext#gettingStarted#setUpModel',
      'pub.ext#gettingStarted#planTask',
      'pub.ext#gettingStarted#review',
      'pub.ext#gettingStarted#approve',
      'pub.ext#gettingStarted#undo',
    ]);
  });

  it('keeps the step ids it ticks those of package.json\'s walkthrough', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { walkthroughs: { id: string; steps: { id: string }[] }[] } };
    const { WalkthroughProgress } = load();
    const progress = new WalkthroughProgress(memoryMemento(), 'pub.ext');
    progress.markPlanner('openai');
    for (const step of ['planned', 'started', 'answered', 'undone'] as const) progress.mark(step);
    const walkthrough = manifest.contributes.walkthroughs[0]!;
    assert.deepEqual(ticked, walkthrough.steps.map((step) => `pub.ext#${walkthrough.id}#${step.id}`));
  });
});
