import assert from 'node:assert/strict';
import type { Instruction } from '../../../../src/core/capabilities/capabilityCatalogue';
import type { LlmChatRequest } from '../../../../src/core/llm/llmTypes';
import { countTokens } from '../../../../src/core/llm/tokenCount';
import { planRequest } from '../../../../src/core/planner/planRequest';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { ManualClock } from '../../../fakes/manualClock';
import { scriptedLlm } from '../../../fakes/scriptedLlm';

const tools = createToolRegistry(builtinTools());
const clock = new ManualClock(Date.UTC(2026, 0, 2));
const agents: Instruction = { kind: 'agents', path: 'AGENTS.md', directory: '', applyTo: [], text: 'Run the tests with `python3 -m pytest -q`.', bytes: 42 };
const skill = {
  name: 'release-notes',
  description: 'How release notes are written here.',
  tags: [],
  source: '.github/skills/release-notes/SKILL.md',
  text: 'Newest first.',
  bytes: 13,
};
const plan = JSON.stringify({
  objective: 'x',
  steps: [{ id: 'S1', title: 'Run the tests', kind: 'tool', tool: 'run_command', args: { argv: ['python3', '-m', 'pytest', '-q'] }, dependsOn: [] }],
});
const system = (request: LlmChatRequest | undefined): string => String(request?.messages.find((message) => message.role === 'system')?.content ?? '');

describe('planRequest: the project\'s conventions reach the planner and the model critique (issue 29)', () => {
  it('tells the planner and the critic what AGENTS.md says (its test command), and the critic the skills', async () => {
    const llm = scriptedLlm([plan, JSON.stringify({ findings: [] })]);
    await planRequest('Run the tests', {
      llm,
      tools,
      signal: new AbortController().signal,
      clock,
      instructions: [agents],
      skills: [skill],
      modelCritique: true,
    });
    assert.equal(llm.requests.length, 2);
    const [planner, critic] = llm.requests.map(system);
    assert.match(planner ?? '', /## Project conventions\n.*\n\n### AGENTS\.md\nRun the tests with `python3 -m pytest -q`\./);
    assert.match(critic ?? '', /### AGENTS\.md\nRun the tests with `python3 -m pytest -q`\./);
    assert.match(critic ?? '', /- release-notes: How release notes are written here\./);
  });

  it('keeps them within their budget: a huge AGENTS.md adds at most its share to the prompts', async () => {
    const huge = { ...agents, text: `Run the tests with \`python3 -m pytest -q\`. ${'Keep lines short. '.repeat(30_000)}` };
    const llm = scriptedLlm([plan, JSON.stringify({ findings: [] })]);
    await planRequest('Run the tests', { llm, tools, signal: new AbortController().signal, clock, instructions: [huge], modelCritique: true });
    const bare = scriptedLlm([plan, JSON.stringify({ findings: [] })]);
    await planRequest('Run the tests', { llm: bare, tools, signal: new AbortController().signal, clock, modelCritique: true });
    for (const index of [0, 1]) {
      const added = countTokens(system(llm.requests[index])) - countTokens(system(bare.requests[index]));
      assert.ok(added > 100 && added <= 2_050, `request ${index}: ${added} tokens added`);
      assert.match(system(llm.requests[index]), /python3 -m pytest -q/);
    }
  });

  it('critiques under the workspace\'s trust, with and without a model', async () => {
    const untrusted = await planRequest('Run `npm test`', { llm: undefined, tools, signal: new AbortController().signal, clock, trusted: false });
    assert.ok(untrusted.critique.issues.some((issue) => issue.check === 'refused_untrusted'), JSON.stringify(untrusted.plan.steps));
    const llm = scriptedLlm([plan]);
    const modelled = await planRequest('Run the tests', { llm, tools, signal: new AbortController().signal, clock, trusted: false });
    assert.deepEqual(modelled.critique.issues.filter((issue) => issue.check === 'refused_untrusted').map((issue) => issue.stepId), ['S1']);
  });
});
