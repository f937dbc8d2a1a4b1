import assert from 'node:assert/strict';
import { foldRunEvents } from '../../../src/core/engine/reduceRunEvent';
import { interruptedRunState } from '../../../src/core/engine/interruptedRunState';
import { stampEvent, type RunEventBody, type RunState } from '../../../src/core/engine/runEvents';
import type { PlanTreeProvider } from '../../../src/vscode/planTreeProvider';
import { requireWithVscode } from '../../fakes/requireWithVscode';
import { makePlan, makeStep } from '../../support/randomPlans';

class FakeEmitter<T> {
  private readonly listeners: ((value: T) => void)[] = [];
  readonly event = (listener: (value: T) => void): { dispose(): void } => {
    this.listeners.push(listener);
    return { dispose: () => undefined };
  };
  fire(value: T): void {
    for (const listener of this.listeners) listener(value);
  }
  dispose(): void {
    this.listeners.length = 0;
  }
}

const plan = makePlan([makeStep('S1', { title: 'Write notes' }), makeStep('S2', { title: 'Check them', dependsOn: ['S1'] })]);

function stateOf(bodies: RunEventBody[]): RunState {
  return foldRunEvents(bodies.map((body, index) => stampEvent(body, 'run-1', index + 1, 1_000_000 + index * 1000)));
}

describe('the Plan view offers Resume run for the run it shows when that run can go on', () => {
  const contexts: unknown[][] = [];
  const { PlanTreeProvider: Provider } = requireWithVscode<{ PlanTreeProvider: new () => PlanTreeProvider }>(require.resolve('../../../src/vscode/planTreeProvider'), {
    EventEmitter: FakeEmitter,
    commands: {
      executeCommand: (command: string, ...args: unknown[]) => {
        if (command === 'setContext') contexts.push(args);
        return Promise.resolve(undefined);
      },
    },
  });
  const started = stateOf([{ type: 'run_started', plan }, { type: 'step_started', stepId: 'S1', attempt: 1 }]);

  it('a run the reload cut off, or one cancelled, sets the key once; a run going on, a plan under review or a completed run clears it', () => {
    contexts.length = 0;
    const tree = new Provider();
    tree.setRun(started, false);
    assert.deepEqual(contexts, [], 'a run going on offers no Resume');
    tree.setRun(interruptedRunState(started, 'The window was reloaded.', 2_000_000), true);
    tree.follow(interruptedRunState(started, 'The window was reloaded.', 2_000_001));
    assert.deepEqual(contexts, [['taskPlanner.shownRunResumable', true]], 'set once, not at every snapshot');
    tree.setPlan(plan);
    assert.deepEqual(contexts.at(-1), ['taskPlanner.shownRunResumable', false], 'a plan under review is not a run to resume');
    tree.setRun(stateOf([{ type: 'run_started', plan }, { type: 'run_cancelled', reason: 'Cancelled by you' }]), true);
    assert.deepEqual(contexts.at(-1), ['taskPlanner.shownRunResumable', true]);
    const done = stateOf([
      { type: 'run_started', plan },
      { type: 'step_started', stepId: 'S1', attempt: 1 },
      { type: 'step_completed', stepId: 'S1', result: 'ok' },
      { type: 'step_started', stepId: 'S2', attempt: 1 },
      { type: 'step_completed', stepId: 'S2', result: 'ok' },
      { type: 'run_completed' },
    ]);
    tree.setRun(done, true);
    assert.deepEqual(contexts.at(-1), ['taskPlanner.shownRunResumable', false]);
    assert.equal(contexts.length, 4);
  });
});
