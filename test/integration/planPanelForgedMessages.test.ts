// The plan panel's webview assumed hostile or stale: what its messages can make the editor do.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TaskPlannerApi } from './testBuild/testExtension';
import type { Plan } from '../../src/core/plan/planSchema';
import type { PanelViewModel } from '../../src/shared/panelViewModel';
import { planOfStep, until } from './shownRuns';

/** A plan of one step that lists the workspace's files: it changes nothing and needs no model. */
const listingPlan = (id: string, title: string): Plan =>
  planOfStep(id, `Look at the workspace (${id})`, { id: 'list', title, tool: 'list_files', args: {} });

describe('plan panel: forged and stale messages from the webview', function () {
  this.timeout(60_000);
  let api: TaskPlannerApi;
  const review = (planId: string, planVersion: number) => (): PanelViewModel | undefined => {
    const model = api.planPanel.model();
    return model?.mode === 'review' && model.review.planId === planId && model.review.planVersion === planVersion ? model : undefined;
  };
  const lastNotice = () => api.planPanel.posted().findLast((message) => message.type === 'notice');

  before(async () => {
    const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
    assert.ok(extension);
    api = await extension.activate();
    await vscode.workspace.getConfiguration('taskPlanner').update('llm.provider', 'heuristic', vscode.ConfigurationTarget.Workspace);
  });

  afterEach(() => api.planPanel.close());

  after(async () => {
    await vscode.workspace.getConfiguration('taskPlanner').update('llm.provider', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('Start of the version the user saw, after an edit made another version, starts nothing and says why', async () => {
    api.planPanel.show(listingPlan('stale-start', 'List the files'));
    const seen = await until('version 1 under review', review('stale-start', 1));
    await api.planPanel.send({ type: 'edit', edit: { type: 'updateStep', stepId: 'list', patch: { title: 'List the files, edited elsewhere' } } });
    await until('version 2 under review', review('stale-start', 2));
    await api.planPanel.send({ type: 'start', version: seen.version });
    const notice = lastNotice();
    assert.ok(notice?.type === 'notice' && notice.level === 'error', 'a Start of a stale version was not refused');
    assert.match(notice.text, /changed after you pressed Start; nothing was started.*version 2/);
    assert.equal(api.planPanel.model()?.mode, 'review', 'a run started');
    assert.equal(api.isRunning(), false, 'a run started');
  });

  it("Start with a review of another plan's snapshot, after another plan replaced it in the panel, starts nothing", async () => {
    api.planPanel.show(listingPlan('reviewed-plan', 'List the files'));
    const seen = await until('the reviewed plan', review('reviewed-plan', 1));
    api.planPanel.show(listingPlan('replacing-plan', 'List the files, of another plan'));
    await until('the replacing plan', review('replacing-plan', 1));
    await api.planPanel.send({ type: 'start', version: seen.version });
    const notice = lastNotice();
    assert.ok(notice?.type === 'notice' && notice.level === 'error', 'the replacing plan started on a Start of the one reviewed');
    assert.equal(api.isRunning(), false);
    assert.equal(api.planPanel.model()?.mode, 'review');
  });

  it('Start of a snapshot version the panel never posted starts nothing', async () => {
    api.planPanel.show(listingPlan('unposted-start', 'List the files'));
    const seen = await until('the plan under review', review('unposted-start', 1));
    await api.planPanel.send({ type: 'start', version: seen.version + 1_000 });
    const notice = lastNotice();
    assert.ok(notice?.type === 'notice' && notice.level === 'error', 'a Start of a snapshot never shown was not refused');
    assert.equal(api.isRunning(), false);
    assert.equal(api.planPanel.model()?.mode, 'review');
  });

  it('Start of the version shown, pressed twice at once, runs the plan once', async () => {
    api.planPanel.show(listingPlan('twice-start', 'List the files'));
    const seen = await until('the plan under review', review('twice-start', 1));
    await Promise.all([api.planPanel.send({ type: 'start', version: seen.version }), api.planPanel.send({ type: 'start', version: seen.version })]);
    const done = await until('the completed run', () => {
      const model = api.planPanel.model();
      return model?.mode === 'run' && model.run.status === 'completed' ? model.run : undefined;
    });
    await until('no run going on', () => !api.isRunning());
    const runs = new Set(api.planPanel.posted().flatMap((message) => (message.type === 'snapshot' && message.model.mode === 'run' ? [message.model.run.runId] : [])));
    assert.deepEqual([...runs], [done.runId], 'Start pressed twice ran the plan twice');
  });
});
