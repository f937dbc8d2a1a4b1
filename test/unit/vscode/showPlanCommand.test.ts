import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type * as ShowPlanModule from '../../../src/vscode/showPlanCommand';
import type { RunState } from '../../../src/core/engine/runEvents';
import type { Plan } from '../../../src/core/plan/planSchema';
import { requireWithVscode } from '../../fakes/requireWithVscode';
import { makePlan, makeStep } from '../../support/randomPlans';

// A newcomer's trial (2026-12): right after Reload Window, Show plan said "No plan yet" for about three seconds while the
// Plan view was showing the run the reload cut off.
describe('Show plan right after a reload', () => {
  let messages: { message: string; items: string[] }[];
  let executed: string[];
  let answer: string | undefined;
  let load: () => typeof ShowPlanModule;
  beforeEach(() => {
    messages = [];
    executed = [];
    answer = undefined;
    const api = {
      window: {
        activeTextEditor: undefined,
        showInformationMessage: (message: string, ...items: string[]) => (messages.push({ message, items }), Promise.resolve(answer)),
        withProgress: (_options: unknown, task: (progress: { report: () => void }) => Thenable<unknown>) => task({ report: () => undefined }),
      },
      ProgressLocation: { Window: 10 },
      commands: { executeCommand: (command: string) => (executed.push(command), Promise.resolve(undefined)) },
    };
    load = () => requireWithVscode<typeof ShowPlanModule>(require.resolve('../../../src/vscode/showPlanCommand'), api);
  });

  const log = { warn: () => undefined } as unknown as vscode.LogOutputChannel;
  const flowShowing = (shown: unknown[]) => ({
    panels: { panel: () => undefined, show: (plan?: Plan) => shown.push(['show', plan?.id]) },
    showRun: (state: RunState, live: boolean) => shown.push(['showRun', state.runId, live]),
  });

  it('waits for the run the reload left to be shown, then shows it, not "no plan yet"', async () => {
    const { showPlan } = load();
    const plan = makePlan([makeStep('A')]);
    let shownPlan: Plan | undefined = undefined;
    let shownRun: RunState | undefined = undefined;
    let restore: () => void = () => undefined;
    const restored = new Promise<void>((resolve) => (restore = resolve));
    const shown: unknown[] = [];
    const flow = flowShowing(shown);
    const done = showPlan(flow as never, { plan: () => shownPlan, run: () => shownRun, executing: () => undefined, restored: () => restored }, log);
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(messages, [], 'nothing said while the view is being restored');
    shownPlan = plan;
    shownRun = { runId: 'r1', plan, status: 'interrupted', steps: {} } as unknown as RunState;
    restore();
    await done;
    assert.deepEqual(messages, []);
    assert.deepEqual(shown, [['showRun', 'r1', false]]);
  });

  it('with nothing shown but runs kept, points at the Runs view instead of saying there is no plan', async () => {
    const { showPlan } = load();
    answer = 'Show runs';
    const shown: unknown[] = [];
    const current = { plan: () => undefined, run: () => undefined, executing: () => undefined, restored: () => Promise.resolve(), hasRuns: () => Promise.resolve(true) };
    await showPlan(flowShowing(shown) as never, current, log);
    assert.equal(messages.length, 1);
    assert.doesNotMatch(messages[0]!.message, /no plan yet/i);
    assert.match(messages[0]!.message, /Runs view/);
    assert.deepEqual(messages[0]!.items, ['Show runs', 'Plan task']);
    assert.deepEqual(executed, ['taskPlanner.runs.focus']);
  });

  it('says there is no plan yet when there is none and no run', async () => {
    const { showPlan } = load();
    const current = { plan: () => undefined, run: () => undefined, executing: () => undefined, restored: () => Promise.resolve(), hasRuns: () => Promise.resolve(false) };
    await showPlan(flowShowing([]) as never, current, log);
    assert.equal(messages.length, 1);
    assert.match(messages[0]!.message, /no plan yet/);
  });
});
