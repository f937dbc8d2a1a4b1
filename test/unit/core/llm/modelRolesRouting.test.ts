import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { runPlan } from '../../../../src/core/engine/runPlan';
import { executeWithReplanning } from '../../../../src/core/replan/executeWithReplanning';
import { planRequest } from '../../../../src/core/planner/planRequest';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import { createOpenAiClient } from '../../../../src/node/openAiClient';
import { FakeOpenAiServer, type FakeRequest } from '../../../fakes/fakeOpenAiServer';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makePlan, makeStep } from '../../../support/randomPlans';

const roles = { planner: 'plan-model', agent: 'agent-model', reviewer: 'review-model', compaction: 'compact-model' };

/** Which role a request was for, from what it asks (never from its `model` field, which is what the test checks). */
function purpose(request: FakeRequest): string {
  const text = JSON.stringify(request.body?.messages ?? []);
  if (text.includes('you keep its working memory')) return 'compaction';
  if (request.body?.response_format !== undefined && request.body.response_format.json_schema?.name === 'step_review') return 'reviewer';
  if (text.includes('You carry out ONE step')) return 'agent';
  return 'planner';
}

describe('model roles: each request goes to its role\'s model on the one endpoint (fake OpenAI server)', function () {
  let server: FakeOpenAiServer;
  const clock = new ManualClock();
  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.close());

  it('a run whose planner, agent, reviewer and compaction models differ sends each request to the right model', async () => {
    const long = 'The build passes and the parser handles nested lists. '.repeat(20);
    server.on((request) => purpose(request) === 'compaction', { kind: 'message', content: 'S1 done: parser ok.' });
    server.on((request) => purpose(request) === 'reviewer', { kind: 'message', content: JSON.stringify({ verdict: 'pass' }) });
    server.on((request) => purpose(request) === 'agent', { kind: 'message', content: long });
    server.on((request) => purpose(request) === 'planner', {
      kind: 'message',
      content: JSON.stringify({
        objective: 'Fix the parser',
        steps: [
          { id: 'S1', title: 'Fix it', kind: 'agent', agent: 'direct', dependsOn: [], input: 'Fix the parser.' },
          { id: 'S2', title: 'Test it', kind: 'agent', agent: 'direct', dependsOn: ['S1'], input: 'Test the parser.' },
          { id: 'S3', title: 'Report', kind: 'agent', agent: 'direct', dependsOn: ['S2'], input: 'Report.' },
        ],
      }),
    });
    const llm = createOpenAiClient({ baseURL: server.baseURL, model: 'base-model', clock });
    const tools = createToolRegistry([readFileTool]);
    const signal = new AbortController().signal;
    const planned = await planRequest('Fix the parser', { llm, models: roles, tools, signal, clock });
    const planned2 = { ...planned.plan, steps: planned.plan.steps.map((step) => (step.id === 'S3' ? { ...step, review: true, model: 'base-model' } : step)) };
    const result = await executeWithReplanning(planned2, planned2.objective, {
      llm,
      models: roles,
      tools,
      clock,
      store: createMemoryRunStore(),
      workspace: createMemoryWorkspace({}),
      agentLimits: { summaryBudgetTokens: 16 },
    });
    assert.equal(result.status, 'completed', result.metadata.reason);
    const seen = server.chatRequests.map((request) => `${purpose(request)}→${request.body?.model ?? ''}`);
    assert.deepEqual(seen, [
      'planner→plan-model',
      'agent→agent-model',
      'agent→agent-model',
      'compaction→compact-model',
      'agent→base-model',
      'reviewer→review-model',
    ]);
  });

  it('refuses to start a plan whose step names a model the run has not set up, naming those it has', async () => {
    const llm = createOpenAiClient({ baseURL: server.baseURL, model: 'base-model', clock });
    const plan = makePlan([makeStep('S1', { kind: 'agent', agent: 'direct', input: 'x', model: 'gpt-9-ultra' })]);
    const result = await runPlan(plan, { llm, models: { agent: 'agent-model' }, clock, workspace: createMemoryWorkspace({}) }).result;
    assert.equal(result.status, 'failed');
    assert.match(result.metadata.reason ?? '', /S1.*"gpt-9-ultra", which is not set up for this run; set up: "base-model", "agent-model"/);
    assert.equal(server.chatRequests.length, 0);
  });
});
