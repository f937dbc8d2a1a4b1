import assert from 'node:assert/strict';
import '../../fakes/vscodeL10n';
import { initialRunState } from '../../../src/core/engine/reduceRunEvent';
import type { Plan } from '../../../src/core/plan/planSchema';
import { readFileTool } from '../../../src/core/tools/readFileTool';
import type { Tool } from '../../../src/core/tools/tool';
import { PanelSession } from '../../../src/core/view/panelSession';
import { planPanelActions, type PanelActionDeps } from '../../../src/vscode/planPanelActions';
import type { PlanPanel } from '../../../src/vscode/planPanel';
import { deferred } from '../../support/deferred';
import { makePlan, makeStep } from '../../support/randomPlans';

const tools = [readFileTool] as Tool[];
const first = makePlan([makeStep('A', { kind: 'tool', tool: 'read_file', args: { path: 'a.txt' }, agent: undefined, input: undefined })]);
const other = makePlan([makeStep('X', { kind: 'tool', tool: 'read_file', args: { path: 'x.txt' }, agent: undefined, input: undefined })], { id: 'plan-other' });

/** The plan panel as its actions see it (session, notices, refresh), over a real `PanelSession`; and what reached the Plan tree. */
function harness() {
  const session = new PanelSession('s1', tools);
  session.setPlan(first);
  const notices: { level: string; text: string }[] = [];
  const treePlans: Plan[] = [];
  let disposed = false;
  const panel = {
    session,
    get isDisposed() {
      return disposed;
    },
    refresh: () => undefined,
    notify: (level: string, text: string) => void notices.push({ level, text }),
  } as unknown as PlanPanel;
  // Each Regenerate the planner is asked for answers when the test resolves it (all of them at once).
  const answers: ReturnType<typeof deferred<Plan | undefined>>[] = [];
  const regeneration = { resolve: (plan: Plan | undefined) => answers.forEach((answer) => answer.resolve(plan)) };
  const deps = {
    runs: {},
    pending: {},
    tree: { setPlan: (plan: Plan) => void treePlans.push(plan) },
    regenerate: () => {
      const answer = deferred<Plan | undefined>();
      answers.push(answer);
      return answer.promise;
    },
    regenerateBlockedReason: () => undefined,
    decideReview: () => false,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  } as unknown as PanelActionDeps;
  const actions = planPanelActions(deps);
  return { session, panel, notices, treePlans, actions, regeneration, asked: () => answers.length, dispose: () => (disposed = true) };
}

/** What the planner answers a Regenerate of `first` with. */
const regenerated = (): Plan => ({ ...first, version: 2, steps: [makeStep('A', { kind: 'tool', tool: 'read_file', args: { path: 'regenerated.txt' }, agent: undefined, input: undefined })] });

describe('attack: the plan panel while Regenerate is under way', () => {
  it('attack: another plan shown for review while Regenerate of the first runs is not replaced by that regeneration', async () => {
    const { session, panel, actions, regeneration, treePlans, notices } = harness();
    const asked = actions.regenerate({ type: 'regenerate', plan: { id: first.id, version: first.version }, feedback: 'read another file' }, panel);
    // "Plan task" shows a new plan in the panel meanwhile.
    session.setPlan(other);
    regeneration.resolve(regenerated());
    await asked;
    assert.equal(session.currentPlan(), other);
    assert.deepEqual(treePlans, []);
    assert.ok(notices.some((notice) => /not shown/.test(notice.text)), JSON.stringify(notices));
  });

  it('attack: a run the panel follows, started while Regenerate ran, is not dropped from the panel when Regenerate ends', async () => {
    const { session, panel, actions, regeneration, treePlans } = harness();
    const asked = actions.regenerate({ type: 'regenerate', plan: { id: first.id, version: first.version }, feedback: 'read another file' }, panel);
    session.showRun({ ...initialRunState('run-1'), plan: first }, true);
    regeneration.resolve(regenerated());
    await asked;
    assert.equal(session.isFollowingRun(), true);
    assert.equal(session.runId(), 'run-1');
    assert.deepEqual(treePlans, []);
  });

  it('attack: Regenerate ending after the panel was closed puts no plan in the Plan tree', async () => {
    const { panel, actions, regeneration, treePlans, dispose } = harness();
    const asked = actions.regenerate({ type: 'regenerate', plan: { id: first.id, version: first.version }, feedback: 'read another file' }, panel);
    dispose();
    regeneration.resolve(regenerated());
    await asked;
    assert.deepEqual(treePlans, []);
  });

  it('attack: a second Regenerate while one runs is refused without asking the planner again', async () => {
    const { panel, actions, regeneration, notices, asked } = harness();
    const one = actions.regenerate({ type: 'regenerate', plan: { id: first.id, version: first.version }, feedback: 'read another file' }, panel);
    const two = actions.regenerate({ type: 'regenerate', plan: { id: first.id, version: first.version }, feedback: 'no, a third one' }, panel);
    assert.equal(asked(), 1);
    regeneration.resolve(regenerated());
    await Promise.all([one, two]);
    assert.ok(notices.some((notice) => notice.level === 'error' && /already/.test(notice.text)), JSON.stringify(notices));
  });

  it('a Regenerate nothing overtook shows its plan and puts it in the Plan tree', async () => {
    const { session, panel, actions, regeneration, treePlans } = harness();
    const asked = actions.regenerate({ type: 'regenerate', plan: { id: first.id, version: first.version }, feedback: 'read another file' }, panel);
    regeneration.resolve(regenerated());
    await asked;
    assert.equal(session.currentPlan()?.steps[0]?.args?.['path'], 'regenerated.txt');
    assert.deepEqual(treePlans, [session.currentPlan()]);
  });
});
