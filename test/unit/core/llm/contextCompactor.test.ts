import assert from 'node:assert/strict';
import { buildStepPrompt, compactContext, defaultStepPromptBudget } from '../../../../src/core/llm/contextCompactor';
import type { LlmChatRequest, LlmChatResponse } from '../../../../src/core/llm/llmTypes';
import { countTokens } from '../../../../src/core/llm/tokenCount';
import type { LlmClient } from '../../../../src/core/ports';
import { makeStep } from '../../../support/randomPlans';

const signal = new AbortController().signal;
const scripted = (answer: (request: LlmChatRequest) => string | Error): LlmClient & { requests: LlmChatRequest[] } => {
  const requests: LlmChatRequest[] = [];
  return {
    model: 'fake',
    requests,
    async chat(request): Promise<LlmChatResponse> {
      requests.push(request);
      const text = answer(request);
      if (text instanceof Error) throw text;
      return { text, toolCalls: [], usage: { promptTokens: 100, completionTokens: 20 }, usageReported: true, model: 'fake' };
    },
  };
};
const longResult = (index: number): string => `Step ${index} found ${'details about the module and its exports '.repeat(40)}`;

describe('compactContext', () => {
  it('appends a fact while the summary fits its budget', async () => {
    const result = await compactContext('[S001] Read: ok', { stepId: 'S002', title: 'Write', result: { written: 'a.ts' } }, { budgetTokens: 200, signal });
    assert.equal(result.method, 'append');
    assert.equal(result.summary, '[S001] Read: ok\n[S002] Write: {"written":"a.ts"}');
    assert.equal(result.beforeTokens, result.afterTokens);
  });

  it('asks the model to summarise when the budget is exceeded', async () => {
    const llm = scripted(() => 'S001-S010: modules read; exports listed.');
    let summary = '';
    const results = [];
    for (let index = 1; index <= 10; index++) {
      const result = await compactContext(summary, { stepId: `S${index}`, title: `Step ${index}`, result: longResult(index) }, { budgetTokens: 300, llm, signal, objective: 'Document modules' });
      results.push(result);
      summary = result.summary;
    }
    const compacted = results.find((result) => result.method === 'llm');
    assert.ok(compacted, 'the model was asked once the budget was exceeded');
    assert.ok(compacted.beforeTokens > 300 && compacted.afterTokens <= 300);
    assert.deepEqual(compacted.usage, { promptTokens: 100, completionTokens: 20 });
    assert.ok(results.some((result) => result.method === 'append'));
    assert.match(String(llm.requests[0]?.messages[0]?.content), /Document modules/);
  });

  it('falls back deterministically, keeping the newest facts, when the model fails or rambles', async () => {
    for (const llm of [scripted(() => new Error('HTTP 500')), scripted(() => 'word '.repeat(2_000)), undefined]) {
      let summary = '';
      let last;
      for (let index = 1; index <= 30; index++) {
        last = await compactContext(summary, { stepId: `S${index}`, title: `Step ${index}`, result: longResult(index) }, { budgetTokens: 400, signal, ...(llm ? { llm } : {}) });
        summary = last.summary;
        assert.ok(countTokens(summary) <= 400);
      }
      assert.equal(last?.method, 'fallback');
      assert.match(summary, /\[S30\] Step 30/);
      assert.doesNotMatch(summary, /\[S1\] /);
      if (llm) assert.ok(last?.fallbackReason);
    }
  });

  it('keeps even a single huge fact within budget', async () => {
    const result = await compactContext('', { stepId: 'S1', title: 'Huge', result: 'x '.repeat(50_000) }, { budgetTokens: 100, signal });
    assert.ok(countTokens(result.summary) <= 100);
  });
});

describe('buildStepPrompt', () => {
  const plan = (size: number) => ({ steps: Array.from({ length: size }, (_, index) => makeStep(`S${String(index + 1).padStart(3, '0')}`, { dependsOn: index > 0 ? [`S${String(index).padStart(3, '0')}`] : [], title: `Do part ${index + 1} of the work` })) });

  it('carries objective, outline with statuses, summary, dependency results and input', () => {
    const prompt = buildStepPrompt({ objective: 'Ship it', plan: plan(3), statuses: { S001: 'completed', S002: 'running' }, summary: '[S001] done', step: { id: 'S002', title: 't', dependsOn: ['S001'] }, depends: { S001: { files: ['a.ts'] } }, input: 'Do part 2' });
    assert.match(prompt.text, /## Objective\nShip it/);
    assert.match(prompt.outline, /3 steps: 1 completed, 1 running, 1 pending/);
    assert.match(prompt.outline, /→ S002 \[running\]/);
    assert.match(prompt.text, /## What happened so far\n\[S001\] done/);
    assert.match(prompt.dependencies, /### S001\n\{"files":\["a\.ts"\]\}/);
    assert.match(prompt.text, /## Your step: S002\nDo part 2$/);
  });

  it('stays bounded however long the plan, the summary and the results are', () => {
    const limit = Object.values(defaultStepPromptBudget).reduce((sum, value) => sum + value, 0) + 60;
    for (const size of [10, 100, 1_000]) {
      const steps = plan(size);
      const last = steps.steps.at(-1)!;
      const depends = Object.fromEntries(steps.steps.slice(-4).map((step) => [step.id, 'result text '.repeat(5_000)]));
      const prompt = buildStepPrompt({ objective: 'goal '.repeat(1_000), plan: steps, statuses: {}, summary: 'fact '.repeat(10_000), step: { ...last, dependsOn: Object.keys(depends) }, depends, input: 'input '.repeat(10_000) });
      assert.ok(prompt.tokens <= limit, `${size} steps: ${prompt.tokens} > ${limit}`);
      assert.match(prompt.outline, new RegExp(`→ ${last.id}`));
    }
  });

  it('shows the step, its dependencies and dependents first when the outline is cut', () => {
    const steps = plan(300);
    const prompt = buildStepPrompt({ objective: 'o', plan: steps, statuses: {}, summary: '', step: { id: 'S150', title: 't', dependsOn: ['S149'] }, depends: {}, input: 'i', budget: { outline: 80 } });
    assert.match(prompt.outline, /S149[\s\S]*→ S150[\s\S]*S151/);
    assert.match(prompt.outline, /more steps not shown/);
    assert.match(prompt.dependencies, /### S149\n\(no result\)/);
  });
});
