import assert from 'node:assert/strict';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { LlmChatRequest, LlmContentPart } from '../../../../src/core/llm/llmTypes';
import { planningStrategies } from '../../../../src/core/session/planningPrompt';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

const decompose = 'break the goal into concrete sub-problems before assigning tools to each one';

async function agentRequest(options: { strategy?: (typeof planningStrategies)[number]; tools?: string[] }): Promise<LlmChatRequest> {
  const step = makeStep('S001', {
    agent: options.tools ? 'worker' : 'default',
    attachments: [
      { kind: 'file', ref: 'spec.md' },
      { kind: 'file', ref: 'src/a.ts#L2-L2', text: 'const selected = 1;' },
      { kind: 'link', ref: 'https://example.com/issue/7' },
      { kind: 'image', ref: 'https://example.com/screen.png' },
    ],
  });
  const plan = makePlan([step], options.tools ? { agents: { worker: { prompt: 'You work.', tools: options.tools } } } : {});
  const llm = scriptedLlm(['done']);
  const result = await runPlan(plan, {
    llm,
    tools: builtinTools(),
    workspace: createMemoryWorkspace({ 'spec.md': 'The spec says: be brief.', 'src/a.ts': 'a\nconst selected = 1;\n' }),
    clock: new ManualClock(),
    ...(options.strategy ? { strategy: options.strategy } : {}),
  }).result;
  assert.equal(result.status, 'completed');
  const request = llm.requests.find((candidate) => candidate.messages[0]?.role === 'system' && String(candidate.messages[0].content).includes('ONE step'));
  assert.ok(request, 'the agent was called');
  return request;
}

function userParts(request: LlmChatRequest): LlmContentPart[] {
  const user = request.messages[1];
  assert.equal(user?.role, 'user');
  assert.ok(Array.isArray(user.content), 'the step prompt carries parts');
  return user.content;
}

describe('an agent step gets its attachments and the run\'s strategy', () => {
  it('puts the files, the selected text and the links into its prompt, and the image as an image part', async () => {
    const parts = userParts(await agentRequest({}));
    const text = parts[0]?.type === 'text' ? parts[0].text : '';
    assert.match(text, /do S001\n[\s\S]*Attachments of this step/);
    assert.ok(text.includes('"untrusted_data":"The spec says: be brief."'), text);
    assert.ok(text.includes('- Selection in src/a.ts, lines 2-2:\n{"file":"src/a.ts","lines":"2-2","untrusted_data":"const selected = 1;"}'), text);
    assert.ok(text.includes('- Link: https://example.com/issue/7'), text);
    assert.deepEqual(parts.slice(1), [{ type: 'image', url: 'https://example.com/screen.png' }]);
  });

  for (const strategy of planningStrategies) {
    it(`gives an agent with the planning tools their instructions for ${strategy}`, async () => {
      const system = String((await agentRequest({ strategy })).messages[0]?.content);
      assert.match(system, /## Session plan/);
      assert.equal(system.includes(decompose), strategy === 'goal_decompose_route_synthesise');
      assert.equal(system.includes('Strategy: plan, act, reflect.'), strategy === 'plan_act_reflect');
    });
  }

  it('gives an agent without the planning tools the strategy alone', async () => {
    const system = String((await agentRequest({ strategy: 'goal_decompose_route_synthesise', tools: ['read_file'] })).messages[0]?.content);
    assert.ok(system.startsWith('You work.\n\nStrategy: goal, decompose, route, synthesise.'), system);
    assert.ok(system.includes(decompose));
    assert.doesNotMatch(system, /planning_setup_plan/);
  });

  it('adds nothing for react to an agent without the planning tools', async () => {
    const system = String((await agentRequest({ tools: ['read_file'] })).messages[0]?.content);
    assert.ok(system.startsWith('You work.\n\nYou carry out ONE step'), system);
  });
});
