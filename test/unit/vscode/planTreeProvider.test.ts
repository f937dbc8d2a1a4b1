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

describe('the Plan view after a review that ends without a run (a newcomer\'s trial: Cancel left the cancelled plan\'s steps there)', () => {
  const { PlanTreeProvider: Provider } = requireWithVscode<{ PlanTreeProvider: new () => PlanTreeProvider }>(require.resolve('../../../src/vscode/planTreeProvider'), {
    EventEmitter: FakeEmitter,
    commands: { executeCommand: () => Promise.resolve(undefined) },
  });
  const done = stateOf([
    { type: 'run_started', plan },
    { type: 'step_started', stepId: 'S1', attempt: 1 },
    { type: 'step_completed', stepId: 'S1', result: 'ok' },
    { type: 'step_started', stepId: 'S2', attempt: 1 },
    { type: 'step_completed', stepId: 'S2', result: 'ok' },
    { type: 'run_completed' },
  ]);
  const reviewed = makePlan([makeStep('R1', { title: 'Something else' })], { id: 'plan-reviewed' });
  const labels = (tree: PlanTreeProvider): string[] => tree.getChildren().map((node) => `${node.label} · ${node.description}`);

  // The second newcomer's trial: the steps showed their changes undone, the view's title still "completed · …".
  it("says in its title what Undo took back of the run it shows", () => {
    const tree = new Provider();
    tree.follow(done);
    assert.match(tree.shownDescription() ?? '', /^completed · /);
    tree.setUndone(done.runId, { steps: new Set(['S1']), anyLeft: false });
    assert.match(tree.shownDescription() ?? '', /^completed · changes undone · /);
    tree.setUndone(done.runId, { steps: new Set(['S1']), anyLeft: true });
    assert.match(tree.shownDescription() ?? '', /^completed · some changes undone · /);
    tree.setUndone('another-run', { steps: new Set(['S1']), anyLeft: false });
    assert.match(tree.shownDescription() ?? '', /^completed · (?!changes undone)/, "another run's Undo is not this one's");
  });

  it('shows the last run again after Cancel, even when the plan was edited in the review', () => {
    const tree = new Provider();
    tree.follow(done);
    const before = labels(tree);
    tree.setPlan(reviewed);
    tree.setPlan({ ...reviewed, version: reviewed.version + 1 });
    assert.notDeepEqual(labels(tree), before);
    tree.reviewEnded(reviewed.id);
    assert.equal(tree.shownRun(), done);
    assert.deepEqual(labels(tree), before);
    // It follows the folder's runs as before the review.
    const again = { ...done, runId: 'run-2' };
    tree.follow(again);
    assert.equal(tree.shownRun(), again);
  });

  it('shows its empty state again when it showed nothing before', () => {
    const tree = new Provider();
    tree.setPlan(reviewed);
    tree.reviewEnded(reviewed.id);
    assert.equal(tree.currentPlan(), undefined);
    assert.deepEqual(tree.getChildren(), []);
  });

  it('leaves a run started from the review, and a later review, where they are', () => {
    const tree = new Provider();
    tree.follow(done);
    tree.setPlan(plan);
    tree.release();
    tree.follow(done);
    tree.reviewEnded(plan.id);
    assert.equal(tree.shownRun(), done, 'the run of the plan shows');
    const other = makePlan([makeStep('N1', { title: 'Newer request' })], { id: 'plan-newer' });
    tree.setPlan(reviewed);
    tree.setPlan(other);
    // The first review ends as the second one takes its place: the view stays on the second, and its Cancel goes back past both.
    tree.reviewEnded(reviewed.id);
    assert.equal(tree.currentPlan(), other);
    tree.reviewEnded(other.id);
    assert.equal(tree.shownRun(), done);
  });
});

describe("the Plan view and a chat agent's session plan (an outside attack: another agent's tool call hid what the user acts on)", () => {
  const { PlanTreeProvider: Provider } = requireWithVscode<{ PlanTreeProvider: new () => PlanTreeProvider }>(require.resolve('../../../src/vscode/planTreeProvider'), {
    EventEmitter: FakeEmitter,
    commands: { executeCommand: () => Promise.resolve(undefined) },
  });
  const session = { objective: 'Tidy the repo', status: 'active' as const, version: 1, steps: [{ id: 'S001', title: 'Sort imports', status: 'pending' as const, notes: [] }] };
  const labels = (tree: PlanTreeProvider): string[] => tree.getChildren().map((node) => String(node.label));

  it('attack: keeps a plan under review and a run waiting for an approval in view; shows the session plan otherwise', () => {
    const tree = new Provider();
    tree.setSessionPlan(session);
    assert.deepEqual(labels(tree), ['Tidy the repo', 'S001 Sort imports'], 'nothing else to show');
    tree.setPlan(plan);
    tree.setSessionPlan({ ...session, version: 2 });
    assert.deepEqual(labels(tree).slice(-2), ['1. Write notes', '2. Check them'], 'a plan under review stays');
    const waiting = stateOf([
      { type: 'run_started', plan },
      { type: 'step_started', stepId: 'S1', attempt: 1 },
      { type: 'approval_requested', stepId: 'S1', request: { id: 'S1@1', fingerprint: 'f', stepId: 'S1', kind: 'approval', prompt: 'write notes.md' } },
    ]);
    tree.release();
    tree.follow(waiting);
    assert.equal(waiting.steps['S1']?.status, 'awaiting_approval');
    tree.setSessionPlan({ ...session, version: 3 });
    assert.equal(tree.shownRun(), waiting);
    assert.ok(labels(tree).includes('1. Write notes'), `a run waiting for an approval stays: ${labels(tree).join(' | ')}`);
    const running = stateOf([{ type: 'run_started', plan }, { type: 'step_started', stepId: 'S1', attempt: 1 }]);
    tree.follow(running);
    tree.setSessionPlan({ ...session, version: 4 });
    assert.deepEqual(labels(tree), ['Tidy the repo', 'S001 Sort imports'], "a run going on gives way to its agent's todo list, as before");
  });
});
