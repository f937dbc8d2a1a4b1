import assert from 'node:assert/strict';
import { initialRunState } from '../../../src/core/engine/reduceRunEvent';
import type { RunState } from '../../../src/core/engine/runEvents';
import type { Plan } from '../../../src/core/plan/planSchema';
import { readFileTool } from '../../../src/core/tools/readFileTool';
import type { Tool } from '../../../src/core/tools/tool';
import { PanelSession } from '../../../src/core/view/panelSession';
import type { ShownPlan, WebviewMessage } from '../../../src/shared/panelProtocol';
import type { PlanPanel } from '../../../src/vscode/planPanel';
import type * as PlanPanelActions from '../../../src/vscode/planPanelActions';
import type { PanelActionDeps } from '../../../src/vscode/planPanelActions';
import { requireWithVscode } from '../../fakes/requireWithVscode';
import { deferred } from '../../support/deferred';
import { makePlan, makeStep } from '../../support/randomPlans';

// Every action names what the webview showed when the user acted (the plan version under review, the run); the
// panel may have moved on before the message arrives (a run started from the Plan tree, a Regenerate, another plan).

const commands: unknown[][] = [];
const { planPanelActions } = requireWithVscode<typeof PlanPanelActions>(require.resolve('../../../src/vscode/planPanelActions'), {
  commands: {
    executeCommand: (...args: unknown[]) => {
      commands.push(args);
      return Promise.resolve(undefined);
    },
  },
});

const tools = [readFileTool] as Tool[];
const readStep = (id: string, path: string) => makeStep(id, { kind: 'tool', tool: 'read_file', args: { path }, agent: undefined, input: undefined });
const first = makePlan([readStep('A', 'a.txt')]);
const other = makePlan([readStep('X', 'x.txt')], { id: 'plan-other' });
const shownOf = (plan: Plan): ShownPlan => ({ id: plan.id, version: plan.version });
const running = (runId: string, plan: Plan): RunState => ({ ...initialRunState(runId), plan });
const ended = (runId: string, plan: Plan): RunState => ({ ...initialRunState(runId), plan, status: 'completed' });

/**
 * The panel as its actions see it over a real `PanelSession` reviewing `first`, with what reached the runner: runs
 * started and cancelled, Undos asked for (each answers when the test says), and whether the panel was closed.
 */
function harness() {
  const session = new PanelSession('s1', tools);
  session.setPlan(first);
  const notices: { level: string; text: string }[] = [];
  const started: Plan[] = [];
  const cancelled: string[] = [];
  const undos: { runId: string; done: ReturnType<typeof deferred<void>> }[] = [];
  // The steps whose waiting prompt was looked up (to mark Done or open): run-2's step A waits for the user.
  const promptsLookedUp: string[] = [];
  // What the host answered each form's edit request.
  const answers: { request: number; taken: boolean }[] = [];
  let disposed = false;
  let snapshotVersion = 0;
  // What `PlanPanel.post` does with each review snapshot it posts: Start from it starts the plan it showed.
  const post = (): number => {
    snapshotVersion += 1;
    if (session.isReviewing()) session.reviewShown(snapshotVersion);
    return snapshotVersion;
  };
  const panel = {
    session,
    get isDisposed() {
      return disposed;
    },
    isFollowingRun: () => session.isFollowingRun(),
    follows: (runId: string) => session.isFollowingRun() && session.runId() === runId,
    refresh: () => void post(),
    notify: (level: string, text: string) => void notices.push({ level, text }),
    answerEdit: (request: number, taken: boolean) => void answers.push({ request, taken }),
    dispose: () => (disposed = true),
  } as unknown as PlanPanel;
  const deps = {
    runs: {
      start: (plan: Plan) => {
        started.push(plan);
        return new Promise(() => undefined);
      },
      limitNextRun: () => undefined,
      // Only a run that executes can be cancelled; in these tests, one the panel follows.
      cancel: (runId: string) => {
        if (!(session.isFollowingRun() && session.runId() === runId)) return false;
        cancelled.push(runId);
        return true;
      },
      changes: {
        undoAsked: async (runId: string) => {
          const done = deferred<void>();
          undos.push({ runId, done });
          await done.promise;
          return { runId, report: { overwritable: [] }, text: 'Restored 1 file.', undone: {} };
        },
      },
    },
    pending: {
      ofStep: (stepId: string) => {
        promptsLookedUp.push(stepId);
        return [{ key: { runId: 'run-2', stepId, requestId: 'r1' } }];
      },
    },
    tree: { setPlan: () => undefined },
    regenerate: () => new Promise(() => undefined),
    regenerateBlockedReason: () => undefined,
    decideReview: () => false,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  } as unknown as PanelActionDeps;
  const actions = planPanelActions(deps);
  return { session, panel, notices, started, cancelled, undos, promptsLookedUp, answers, actions, post, closed: () => disposed };
}

const refusal = (notices: { level: string; text: string }[]): string | undefined => notices.find((notice) => notice.level === 'error')?.text;

describe('attack: plan panel actions about what the panel no longer shows', () => {
  beforeEach(() => (commands.length = 0));

  it('attack: a review Cancel arriving after the panel switched to a live run neither cancels that run nor closes the panel', async () => {
    const { session, panel, actions, cancelled, notices, closed } = harness();
    const message: WebviewMessage<'cancelReview'> = { type: 'cancelReview', plan: shownOf(first) };
    // The Plan tree's Retry starts a run of the plan; the panel follows it before the webview's Cancel arrives.
    session.showRun(running('run-1', first), true);
    await actions.cancelReview(message, panel);
    assert.deepEqual(cancelled, []);
    assert.equal(closed(), false);
    assert.match(refusal(notices) ?? '', /Cancel was for the plan you reviewed.*run/);
  });

  it('attack: a review Cancel arriving after another plan was shown for review does not end that review', async () => {
    const { session, panel, actions, closed, notices } = harness();
    session.setPlan(other);
    await actions.cancelReview({ type: 'cancelReview', plan: shownOf(first) }, panel);
    assert.equal(closed(), false);
    assert.match(refusal(notices) ?? '', /another plan/);
  });

  it('a review Cancel of the plan under review closes the panel, whichever version of it shows now', async () => {
    const { session, panel, actions, closed } = harness();
    assert.equal(session.applyEdit({ type: 'skipStep', stepId: 'A' }).ok, true);
    await actions.cancelReview({ type: 'cancelReview', plan: shownOf(first) }, panel);
    assert.equal(closed(), true);
  });

  it('attack: Cancel run of the run shown, arriving after the panel followed another run, cancels neither', async () => {
    const { session, panel, actions, cancelled, notices } = harness();
    session.showRun(running('run-1', first), true);
    session.showRun(running('run-2', first), true);
    await actions.cancelRun({ type: 'cancelRun', runId: 'run-1' }, panel);
    assert.deepEqual(cancelled, []);
    assert.match(refusal(notices) ?? '', /another run/);
  });

  it('attack: Cancel run arriving after the run ended does not close the panel showing its results', async () => {
    const { session, panel, actions, cancelled, closed, notices } = harness();
    session.showRun(ended('run-1', first), false);
    await actions.cancelRun({ type: 'cancelRun', runId: 'run-1' }, panel);
    assert.deepEqual(cancelled, []);
    assert.equal(closed(), false);
    assert.match(notices.at(-1)?.text ?? '', /already ended/);
  });

  it('Cancel run of the run the panel follows cancels it', async () => {
    const { session, panel, actions, cancelled } = harness();
    session.showRun(running('run-1', first), true);
    await actions.cancelRun({ type: 'cancelRun', runId: 'run-1' }, panel);
    assert.deepEqual(cancelled, ['run-1']);
  });

  it('attack: Start clicked twice on the same snapshot starts one run', async () => {
    const { panel, actions, started, post, notices } = harness();
    const version = post();
    await actions.start({ type: 'start', version }, panel);
    await actions.start({ type: 'start', version }, panel);
    assert.deepEqual(started, [first]);
    assert.match(notices.at(-1)?.text ?? '', /already pressed/);
  });

  it('attack: a step edit made on version 1, arriving after Regenerate showed version 2, is refused and leaves version 2 as it is', async () => {
    const { session, panel, actions, notices } = harness();
    const edit: WebviewMessage<'edit'> = {
      type: 'edit',
      plan: shownOf(first),
      edit: { type: 'updateStep', stepId: 'A', patch: { title: 'Typed on version 1' } },
    };
    const regenerated = session.setRegenerated({ ...first, version: 2, steps: [readStep('A', 'regenerated.txt')] }, 'read another file');
    await actions.edit(edit, panel);
    assert.equal(session.currentPlan(), regenerated);
    assert.match(refusal(notices) ?? '', /version 2 now, not version 1/);
  });

  it("attack: a form's Save refused after another change made a newer version is answered refused, so the form keeps what was typed", async () => {
    const { session, panel, actions, answers } = harness();
    const typed = { type: 'updateStep' as const, stepId: 'A', patch: { title: 'Typed into the form' } };
    // A Skip clicked just before made version 2; the form's Save was made on version 1 (the form used to close on seeing
    // version 2, taking it for its own edit, and what was typed went with it).
    assert.equal(session.applyEdit({ type: 'skipStep', stepId: 'A' }).ok, true);
    await actions.edit({ type: 'edit', plan: shownOf(first), edit: typed, request: 7 }, panel);
    assert.deepEqual(answers, [{ request: 7, taken: false }]);
    await actions.edit({ type: 'edit', plan: { id: first.id, version: 2 }, edit: typed, request: 8 }, panel);
    assert.deepEqual(answers.at(-1), { request: 8, taken: true });
    assert.equal(session.currentPlan()?.steps[0]?.title, 'Typed into the form');
  });

  it('attack: Regenerate feedback given on one plan, arriving after another plan was shown, does not regenerate that plan', async () => {
    const { session, panel, actions, notices } = harness();
    session.setPlan(other);
    await actions.regenerate({ type: 'regenerate', plan: shownOf(first), feedback: 'fewer steps' }, panel);
    assert.equal(session.isRegenerating(), false);
    assert.match(refusal(notices) ?? '', /another plan/);
  });

  it('attack: "Go back to version 1" of one plan, arriving after another plan was shown, does not change that plan', async () => {
    const { session, panel, actions, notices } = harness();
    session.setPlan(other);
    await actions.restoreVersion({ type: 'restoreVersion', plan: { id: first.id, version: 3 }, version: 1 }, panel);
    assert.equal(session.currentPlan(), other);
    assert.match(refusal(notices) ?? '', /another plan/);
  });

  it('attack: Undo run of the run shown, arriving after the panel shows another finished run, undoes neither', async () => {
    const { session, panel, actions, undos, notices } = harness();
    session.showRun(ended('run-1', first), false);
    session.showRun(ended('run-2', first), false);
    await actions.undoRun({ type: 'undoRun', runId: 'run-1' }, panel);
    assert.deepEqual(undos, []);
    assert.match(refusal(notices) ?? '', /another run/);
  });

  it('attack: Undo run clicked twice undoes the run once', async () => {
    const { session, panel, actions, undos, notices } = harness();
    session.showRun(ended('run-1', first), false);
    const one = actions.undoRun({ type: 'undoRun', runId: 'run-1' }, panel);
    const two = actions.undoRun({ type: 'undoRun', runId: 'run-1' }, panel);
    await new Promise((settle) => setImmediate(settle));
    assert.equal(undos.length, 1);
    for (const undo of undos) undo.done.resolve();
    await Promise.all([one, two]);
    assert.ok(
      notices.some((notice) => /already under way/.test(notice.text)),
      JSON.stringify(notices),
    );
    // Once it is done, Undo may be asked again (it says what is left to restore).
    await Promise.all([
      actions.undoRun({ type: 'undoRun', runId: 'run-1' }, panel),
      (async () => {
        await new Promise((settle) => setImmediate(settle));
        undos.at(-1)?.done.resolve();
      })(),
    ]);
    assert.equal(undos.length, 2);
  });

  it('attack: Undo from here and Run from here of a step of the run shown act on no other run shown since', async () => {
    const { session, panel, actions, notices } = harness();
    session.showRun(ended('run-1', first), false);
    session.showRun(ended('run-2', first), false);
    await actions.undoFromHere({ type: 'undoFromHere', runId: 'run-1', stepId: 'A' }, panel);
    await actions.runFromHere({ type: 'runFromHere', runId: 'run-1', stepId: 'A' }, panel);
    await actions.resumeRun({ type: 'resumeRun', runId: 'run-1' }, panel);
    assert.deepEqual(commands, []);
    assert.equal(notices.filter((notice) => /another run/.test(notice.text)).length, 3);
  });

  it('attack: Run from here or Resume clicked twice asks for one new run of the run shown', async () => {
    const { session, panel, actions, notices } = harness();
    session.showRun(ended('run-1', first), false);
    // The second click comes before the new run shows (its command settles when that run ends).
    void actions.runFromHere({ type: 'runFromHere', runId: 'run-1', stepId: 'A' }, panel);
    void actions.runFromHere({ type: 'runFromHere', runId: 'run-1', stepId: 'A' }, panel);
    void actions.resumeRun({ type: 'resumeRun', runId: 'run-1' }, panel);
    assert.deepEqual(
      commands.map(([command]) => command),
      ['taskPlanner.runFromHere'],
    );
    assert.equal(notices.filter((notice) => /already being resumed or run again/.test(notice.text)).length, 2);
    await new Promise((settle) => setImmediate(settle));
  });

  it('attack: Done on a step that is yours to do (or Open of a request), sent from a run the panel no longer shows, acts on nothing in the run shown now', async () => {
    const { session, panel, actions, notices, promptsLookedUp } = harness();
    session.showRun(running('run-1', first), true);
    // Run from here made a new run of the same plan, waiting on the same step id.
    session.showRun(running('run-2', first), true);
    const message: WebviewMessage<'markManualStep'> = { type: 'markManualStep', runId: 'run-1', stepId: 'A', done: true };
    await actions.markManualStep(message, panel);
    await actions.openApproval({ type: 'openApproval', runId: 'run-1', stepId: 'A' }, panel);
    assert.deepEqual(promptsLookedUp, []);
    assert.match(refusal(notices) ?? '', /another run/);
  });
});
