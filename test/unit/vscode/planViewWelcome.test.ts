import assert from 'node:assert/strict';
import type { PlanViewWelcome } from '../../../src/vscode/planViewWelcome';
import { requireWithVscode } from '../../fakes/requireWithVscode';

describe('PlanViewWelcome: when the Plan view may say "No plan yet"', () => {
  const contexts: unknown[][] = [];
  const { PlanViewWelcome: Welcome } = requireWithVscode<{ PlanViewWelcome: new (empty: () => boolean) => PlanViewWelcome }>(
    require.resolve('../../../src/vscode/planViewWelcome'),
    { commands: { executeCommand: (command: string, ...args: unknown[]) => (command === 'setContext' && contexts.push(args), Promise.resolve(undefined)) } },
  );

  it('not before the run a reload cut off was looked for, nor while the view shows it (it flashed over that run on reload)', () => {
    contexts.length = 0;
    let empty = true;
    const welcome = new Welcome(() => empty);
    welcome.changed();
    assert.deepEqual(contexts, [], 'before the run was looked for');
    empty = false;
    welcome.restored();
    assert.deepEqual(contexts, [], 'the view shows the interrupted run');
    welcome.changed();
    assert.deepEqual(contexts, []);
    empty = true;
    welcome.changed();
    assert.deepEqual(contexts, [['taskPlanner.planViewRestored', true]], 'the view became empty: its welcome may show');
    welcome.changed();
    assert.equal(contexts.length, 1, 'set once');
  });

  it('at once when nothing was found to show', () => {
    contexts.length = 0;
    new Welcome(() => true).restored();
    assert.deepEqual(contexts, [['taskPlanner.planViewRestored', true]]);
  });
});

describe('PlanViewWelcome: which empty state the Plan view shows', () => {
  // After a reload the Plan view said "No plan yet" while the Runs view listed six runs.
  it('says where the kept runs are, not "no plan yet", once it knows runs are kept', async () => {
    const contexts: unknown[][] = [];
    const { PlanViewWelcome: Welcome } = requireWithVscode<{
      PlanViewWelcome: new (empty: () => boolean, hasRuns?: () => Promise<boolean>) => PlanViewWelcome;
    }>(require.resolve('../../../src/vscode/planViewWelcome'), {
      commands: { executeCommand: (command: string, ...args: unknown[]) => (command === 'setContext' && contexts.push(args), Promise.resolve(undefined)) },
    });
    new Welcome(() => true, () => Promise.resolve(true)).restored();
    new Welcome(() => true, () => Promise.resolve(false)).restored();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const runs = contexts.filter(([key]) => key === 'taskPlanner.planViewRuns');
    assert.deepEqual(runs, [
      ['taskPlanner.planViewRuns', 'kept'],
      ['taskPlanner.planViewRuns', 'none'],
    ]);
  });
});
