// Two "Plan task"s at once: the first request, answered after the second, must not take the second one's review without
// a word (a newcomer's trial: the plan they asked for last was replaced by the first one's, and nothing said so).
import * as assert from 'node:assert/strict';
import { FakeOpenAiServer, planReply } from '../fakes/fakeOpenAiServer';
import { forgetFakeModel, useFakeModel } from './fakeModelSettings';
import { activatedApi, until } from './shownRuns';

describe('Plan task, twice at once', function () {
  this.timeout(60_000);
  const server = new FakeOpenAiServer();
  const step = (title: string) => ({ id: 'S1', title, kind: 'agent', dependsOn: [], input: title });

  before(async () => {
    await useFakeModel(server);
  });

  after(async () => {
    await forgetFakeModel();
    await server.close();
  });

  /** Plans `first`, answered after `second` (planned once the first request reached the model); what each gave and what was asked. */
  async function race(first: string, second: string, showIt: boolean) {
    const asked: string[] = [];
    const whenOvertaken = (objective: string): Promise<boolean> => {
      asked.push(objective);
      return Promise.resolve(showIt);
    };
    const before = server.chatRequests.length;
    server.enqueue({ ...planReply([step('Do the first thing')]), delayMs: 1_500 }, planReply([step('Do the second thing')]));
    const api = await activatedApi();
    const firstPlanned = api.planTask(first, { accept: false, whenOvertaken });
    await until('the first request reached the model', () => server.chatRequests.length > before);
    const secondPlanned = await api.planTask(second, { accept: false, whenOvertaken });
    assert.equal(api.currentPlan()?.objective, second, `the second plan, answered first, is shown: ${secondPlanned.error ?? ''}`);
    const late = await firstPlanned;
    return { api, asked, late, secondPlanned };
  }

  it('attack: the first plan, come last, is not shown in place of the second one unasked; the user is told, and nothing is lost', async () => {
    const { api, asked, late, secondPlanned } = await race('Write the first notes', 'Write the second notes', false);
    assert.deepEqual(asked, ['Write the first notes'], 'the user was asked about the late plan, once');
    assert.equal(api.currentPlan()?.objective, 'Write the second notes', 'the late plan replaced the one asked for last');
    assert.equal(late.plan?.objective, 'Write the first notes');
    assert.equal(late.run, undefined, 'a plan not shown is not started');
    assert.deepEqual(secondPlanned.plan?.steps.map((shown) => shown.title), ['Do the second thing']);
  });

  it('"Show it" reviews the late plan; a planning that no later one overtook asks nothing', async () => {
    const { api, asked } = await race('Write the third notes', 'Write the fourth notes', true);
    assert.deepEqual(asked, ['Write the third notes']);
    assert.equal(api.currentPlan()?.objective, 'Write the third notes');
    const alone: string[] = [];
    server.enqueue(planReply([step('Alone')]));
    await api.planTask('Write the fifth notes', { accept: false, whenOvertaken: (objective) => (alone.push(objective), Promise.resolve(false)) });
    assert.deepEqual(alone, []);
    assert.equal(api.currentPlan()?.objective, 'Write the fifth notes');
  });
});
