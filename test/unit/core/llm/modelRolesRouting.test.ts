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
        // A chain long enough that the rolling summary overflows and is compacted by its model.
        steps: [
          ...Array.from({ length: 12 }, (_, index) => ({
            id: `S${index + 1}`,
            title: `Fix part ${index + 1}`,
            kind: 'agent',
            agent: 'direct',
            dependsOn: index === 0 ? [] : [`S${index}`],
            input: `Fix part ${index + 1} of the parser.`,
          })),
          { id: 'R1', title: 'Report', kind: 'agent', agent: 'direct', dependsOn: ['S12'], input: 'Report the result.' },
        ],
      }),
    });
    const llm = createOpenAiClient({ baseURL: server.baseURL, model: 'base-model', clock });
    const tools = createToolRegistry([readFileTool]);
    const signal = new AbortController().signal;
    const planned = await planRequest('Fix the parser', { llm, models: roles, tools, signal, clock });
    const planned2 = { ...planned.plan, steps: planned.plan.steps.map((step) => (step.id === 'R1' ? { ...step, review: true, model: 'base-model' } : step)) };
    const result = await executeWithReplanning(planned2, planned2.objective, {
      llm,
      models: roles,
      tools,
      clock,
      store: createMemoryRunStore(),
      workspace: createMemoryWorkspace({}),
      agentLimits: { summaryBudgetTokens: 64 },
    });
    assert.equal(result.status, 'completed', result.metadata.reason);
    const seen = server.chatRequests.map((request) => ({ role: purpose(request), model: request.body?.model ?? '', text: JSON.stringify(request.body?.messages ?? []) }));
    /** The step R1 names its own model; every other request goes to its role's. */
    const expected = (request: { role: string; text: string }): string =>
      request.role === 'agent' && request.text.includes('Report the result.') ? 'base-model' : (roles as Record<string, string>)[request.role] ?? '';
    assert.deepEqual(seen.filter((request) => request.model !== expected(request)).map((request) => `${request.role}→${request.model}`), []);
    const counts = new Map<string, number>();
    for (const request of seen) counts.set(request.role, (counts.get(request.role) ?? 0) + 1);
    assert.deepEqual(
      { planner: counts.get('planner'), agent: counts.get('agent'), reviewer: counts.get('reviewer'), compactedAtLeastOnce: (counts.get('compaction') ?? 0) >= 1 },
      { planner: 1, agent: 13, reviewer: 1, compactedAtLeastOnce: true },
    );
    assert.deepEqual(seen.filter((request) => request.model === 'base-model').map((request) => request.role), ['agent'], 'only R1 runs on the model it names');
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
