import assert from 'node:assert/strict';
import { cleanModelRoles, configuredModels, maxModelNameLength, modelNameProblem, withModel } from '../../../../src/core/llm/modelRoles';
import { scriptedLlm } from '../../../fakes/scriptedLlm';

describe('modelRoles: a model per role, names only', () => {
  it('accepts provider-style names and refuses empty, long, address-like, spaced and control-laden ones', () => {
    for (const name of ['gpt-4o-mini', 'openai/gpt-4.1', 'llama3:8b', 'qwen2.5-coder:7b-instruct', 'a'.repeat(maxModelNameLength)]) assert.equal(modelNameProblem(name), undefined, name);
    assert.match(modelNameProblem('  ') ?? '', /cannot be empty/);
    assert.match(modelNameProblem('a'.repeat(maxModelNameLength + 1)) ?? '', /at most 200 characters/);
    assert.match(modelNameProblem('https://evil.example/v1') ?? '', /a name, not an address/);
    assert.match(modelNameProblem('gpt-4o --base-url x') ?? '', /no spaces or control characters/);
    assert.match(modelNameProblem('gpt\u001b[31m') ?? '', /no spaces or control characters/);
    assert.match(modelNameProblem('gpt\u202e4o') ?? '', /no spaces or control characters/);
  });

  it('keeps each usable role trimmed, drops blanks, and reports (then drops) an unusable name', () => {
    const problems: string[] = [];
    const roles = cleanModelRoles({ planner: ' o3 ', agent: '', reviewer: 'http://x/v1', compaction: 'gpt-5-nano' }, (role, problem) => problems.push(`${role}: ${problem}`));
    assert.deepEqual(roles, { planner: 'o3', compaction: 'gpt-5-nano' });
    assert.deepEqual(problems, ['reviewer: a model name is a name, not an address; the address is the base URL setting']);
    assert.deepEqual(cleanModelRoles({ agent: 'https://x' }), {});
  });

  it('lists the models a run may use once each, the default first', () => {
    assert.deepEqual(configuredModels('gpt-4o-mini', {}), ['gpt-4o-mini']);
    assert.deepEqual(configuredModels('gpt-4o-mini', { planner: 'o3', agent: 'gpt-4o-mini', reviewer: 'o3', compaction: 'gpt-5-nano' }), ['gpt-4o-mini', 'o3', 'gpt-5-nano']);
  });

  it('withModel names the model on each request unless the request already names one: the outermost choice wins', async () => {
    const llm = scriptedLlm(['ok']);
    const signal = new AbortController().signal;
    assert.equal(withModel(llm, undefined), llm);
    assert.equal(withModel(llm, 'scripted-model'), llm);
    const agent = withModel(llm, 'agent-model');
    assert.equal(agent.model, 'agent-model');
    const compaction = withModel(agent, 'compact-model');
    assert.equal(compaction.model, 'compact-model');
    await agent.chat({ messages: [], signal });
    await compaction.chat({ messages: [], signal });
    await compaction.chat({ messages: [], signal, model: 'chosen' });
    assert.deepEqual(llm.requests.map((request) => request.model), ['agent-model', 'compact-model', 'chosen']);
  });
});
