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

describe('compactContext: what the summary keeps and why', () => {
  it('appends one line per fact, the result on one line and cut to a quarter of the budget, after the trimmed summary', async () => {
    const spaced = await compactContext('  [S1] Read: ok \n', { stepId: 'S2', title: 'Write', result: 'line one\n\n  line two' }, { budgetTokens: 200, signal });
    assert.equal(spaced.summary, '[S1] Read: ok\n[S2] Write: line one line two');
    const first = await compactContext(' \n ', { stepId: 'S1', title: 'Read', result: undefined }, { budgetTokens: 200, signal });
    assert.equal(first.summary, '[S1] Read: (no result)');
    const long = await compactContext('', { stepId: 'S1', title: 'Read', result: 'word '.repeat(500) }, { budgetTokens: 400, signal });
    assert.match(long.summary, /^\[S1\] Read: (word )+…$/);
    assert.ok(countTokens(long.summary.replace('[S1] Read: ', '')) <= 100, long.summary);
    assert.ok(countTokens(long.summary) > 90);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    assert.equal((await compactContext('', { stepId: 'S1', title: 'Odd', result: circular }, { budgetTokens: 200, signal })).summary, '[S1] Odd: [object Object]');
  });

  it('appends a fact that fills the budget exactly', async () => {
    const line = '[S1] Read: ok';
    const result = await compactContext('', { stepId: 'S1', title: 'Read', result: 'ok' }, { budgetTokens: Math.max(16, countTokens(line)), signal, llm: scripted(() => 'never asked') });
    assert.equal(result.method, 'append');
  });

  it('asks the model for at most three quarters of the budget, with the notes as they are, and keeps its trimmed summary and cost', async () => {
    const llm = scripted(() => '  short summary \n');
    const previous = Array.from({ length: 30 }, (_, index) => `[S${index}] Step: ${'fact '.repeat(10)}`).join('\n');
    const result = await compactContext(previous, { stepId: 'S99', title: 'Last', result: 'done' }, { budgetTokens: 100, signal, llm, objective: 'Ship it' });
    assert.deepEqual([result.method, result.summary, result.afterTokens], ['llm', 'short summary', countTokens('short summary')]);
    const request = llm.requests[0]!;
    assert.equal(request.maxTokens, 75);
    assert.deepEqual(request.messages.map((message) => message.role), ['system', 'user']);
    assert.match(String(request.messages[0]?.content), /^You maintain the working memory of an agent executing a plan for: Ship it\. Rewrite the notes below into at most 75 tokens\./);
    assert.equal(request.messages[1]?.content, `${previous.trim()}\n[S99] Last: done`, 'the notes, the summary trimmed');
    assert.ok(!('costUsd' in result), 'no cost when the model reports none');
    const priced: LlmClient = { model: 'p', chat: async () => ({ text: 'short', toolCalls: [], usage: { promptTokens: 1, completionTokens: 1 }, usageReported: true, model: 'p', costUsd: 0.002 }) };
    assert.equal((await compactContext(previous, { stepId: 'S99', title: 'Last', result: 'done' }, { budgetTokens: 100, signal, llm: priced })).costUsd, 0.002);
    const plain = scripted(() => 'short');
    await compactContext(previous, { stepId: 'S99', title: 'Last', result: 'done' }, { budgetTokens: 100, signal, llm: plain });
    assert.match(String(plain.requests[0]?.messages[0]?.content), /executing a plan\. Rewrite/);
  });

  it('takes a model summary of exactly the budget', async () => {
    let exact = '';
    for (let words = 1; countTokens(exact) < 100; words++) exact = Array.from({ length: words }, (_, index) => `w${index}`).join(' ');
    assert.equal(countTokens(exact), 100);
    const previous = 'fact '.repeat(400);
    const result = await compactContext(previous, { stepId: 'S1', title: 'T', result: 'x' }, { budgetTokens: 100, signal, llm: scripted(() => exact) });
    assert.equal(result.method, 'llm');
  });

  it('says why the model summary was not used', async () => {
    const previous = 'fact '.repeat(400);
    const fact = { stepId: 'S1', title: 'T', result: 'x' };
    const empty = await compactContext(previous, fact, { budgetTokens: 100, signal, llm: scripted(() => '  ') });
    assert.equal(empty.fallbackReason, 'the model returned an empty summary');
    const long = await compactContext(previous, fact, { budgetTokens: 100, signal, llm: scripted(() => 'word '.repeat(300)) });
    assert.equal(long.fallbackReason, "the model's summary had 300 tokens, over the budget of 100");
    const failed = await compactContext(previous, fact, { budgetTokens: 100, signal, llm: scripted(() => new Error('HTTP 500')) });
    assert.equal(failed.fallbackReason, 'the model could not summarise (HTTP 500)');
    assert.ok(!('fallbackReason' in (await compactContext(previous, fact, { budgetTokens: 100, signal }))), 'no model, no reason');
  });

  it('passes on a cancellation instead of falling back', async () => {
    const controller = new AbortController();
    const llm = scripted(() => {
      controller.abort();
      return new Error('aborted');
    });
    await assert.rejects(compactContext('fact '.repeat(400), { stepId: 'S1', title: 'T', result: 'x' }, { budgetTokens: 100, signal: controller.signal, llm }), /aborted/);
  });

  it('falls back to as many of the newest lines as fit, oldest first, and cuts a newest line too long alone', async () => {
    const lines = Array.from({ length: 40 }, (_, index) => `[S${index}] Step ${index}: ${'note '.repeat(index % 5 + 1)}`.trim());
    const result = await compactContext(lines.join('\n'), { stepId: 'S40', title: 'Last', result: 'done' }, { budgetTokens: 100, signal });
    const all = [...lines, '[S40] Last: done'];
    const kept = result.summary.split('\n');
    assert.deepEqual(kept, all.slice(-kept.length), 'the newest lines, in order');
    assert.ok(countTokens(result.summary) <= 100);
    assert.ok(countTokens(all.slice(-kept.length - 1).join('\n')) > 100, 'one more line would not fit');
    assert.equal(result.afterTokens, countTokens(result.summary));
    const huge = await compactContext('[S0] small', { stepId: 'S1', title: 'Huge', result: 'x' }, { budgetTokens: 16, signal });
    assert.ok(countTokens(huge.summary) <= 16);
    const lone = await compactContext('', { stepId: 'S1', title: 'word '.repeat(100), result: 'x' }, { budgetTokens: 16, signal });
    assert.match(lone.summary, /^\[S1\] (word )+…$/);
  });
});

describe('buildStepPrompt: the parts of a step prompt', () => {
  const steps = ['S1', 'S2', 'S3', 'S4', 'S5'].map((id, index) => makeStep(id, { title: `Title ${id}`, dependsOn: index === 3 ? ['S2'] : [] }));

  it('leaves out an empty summary and no dependencies, trims the texts, and counts statuses in plan order', () => {
    const prompt = buildStepPrompt({ objective: '  Ship it  ', plan: { steps }, statuses: { S1: 'completed', S3: 'failed' }, summary: '  ', step: { id: 'S2', title: 't', dependsOn: [] }, depends: {}, input: '  Do it \n' });
    assert.equal(prompt.text, '## Objective\nShip it\n\n## Plan\n5 steps: 1 completed, 3 pending, 1 failed\n- S1 [completed] Title S1\n→ S2 [pending] Title S2\n- S3 [failed] Title S3\n- S4 [pending] Title S4\n- S5 [pending] Title S5\n\n## Your step: S2\nDo it');
    assert.deepEqual([prompt.summary, prompt.dependencies, prompt.tokens], ['', '', countTokens(prompt.text)]);
  });

  it('shows the step, what it depends on and what depends on it, then the nearest steps, earlier first on a tie', () => {
    const many = Array.from({ length: 40 }, (_, index) => makeStep(`S${index + 1}`, { title: 'word '.repeat(40), dependsOn: index === 30 ? ['S20'] : [] }));
    const outline = buildStepPrompt({ objective: 'o', plan: { steps: many }, statuses: {}, summary: '', step: { id: 'S20', title: 't', dependsOn: ['S5'] }, depends: {}, input: 'i', budget: { outline: 150 } }).outline;
    const title = `${'word '.repeat(23).trim()}…`;
    assert.equal(outline, `40 steps: 40 pending\n- S5 [pending] ${title}\n- S19 [pending] ${title}\n→ S20 [pending] ${title}\n- S31 [pending] ${title}\n(36 more steps not shown)`);
  });

  it('cuts each part with its own mark: the objective and input at their end, the summary at its start', () => {
    const prompt = buildStepPrompt({
      objective: 'goal '.repeat(100), plan: { steps }, statuses: {}, summary: `${'old '.repeat(100)}newest`, step: { id: 'S2', title: 't', dependsOn: [] }, depends: {}, input: `${'do '.repeat(100)}`,
      budget: { objective: 10, summary: 10, input: 20 },
    });
    assert.match(prompt.objective, /^(goal )+…$/);
    assert.match(prompt.summary, /^… +(old )+newest$/);
    assert.match(prompt.input, /^(do ?)+\n… \(input cut\)$/);
    assert.match(prompt.text, /## What happened so far\n… +(old )+newest\n\n## Your step: S2\n/);
  });

  it('gives each dependency an equal share of the dependency budget, marking cut results and missing ones', () => {
    const prompt = buildStepPrompt({
      objective: 'o', plan: { steps }, statuses: {}, summary: '', step: { id: 'S4', title: 't', dependsOn: ['S1', 'S2', 'S3'] }, depends: { S1: 'a '.repeat(500), S2: 'short' }, input: 'i', budget: { dependencies: 90 },
    });
    const [first, second, third] = prompt.dependencies.split(/\n(?=### )/);
    assert.match(first!, /^### S1\n(a ?)+\n… \(result cut\)$/);
    assert.ok(countTokens(first!) <= 30, `${countTokens(first!)} tokens`);
    assert.ok(countTokens(first!) >= 24, `${countTokens(first!)} tokens`);
    assert.equal(second, '### S2\nshort');
    assert.equal(third, '### S3\n(no result)');
    assert.match(prompt.text, /## Results of the steps this one depends on\n### S1\n/);
    const crowded = buildStepPrompt({ objective: 'o', plan: { steps }, statuses: {}, summary: '', step: { id: 'S4', title: 't', dependsOn: ['S1', 'S2', 'S3', 'S5'] }, depends: {}, input: 'i', budget: { dependencies: 12 } });
    assert.match(crowded.dependencies, /\n… \(more results cut\)$/);
  });
});
