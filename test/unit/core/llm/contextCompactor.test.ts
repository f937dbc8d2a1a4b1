import assert from 'node:assert/strict';
import { compactContext } from '../../../../src/core/llm/contextCompactor';
import type { LlmChatRequest, LlmChatResponse } from '../../../../src/core/llm/llmTypes';
import { countTokens } from '../../../../src/core/llm/tokenCount';
import type { LlmClient } from '../../../../src/core/servicePorts';

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
      const result = await compactContext(
        summary,
        { stepId: `S${index}`, title: `Step ${index}`, result: longResult(index) },
        { budgetTokens: 300, llm, signal, objective: 'Document modules' },
      );
      results.push(result);
      summary = result.summary;
    }
    const compacted = results.find((result) => result.method === 'llm');
    assert.ok(compacted, 'the model was asked once the budget was exceeded');
    assert.ok(compacted.beforeTokens > 300 && compacted.afterTokens <= 300);
    assert.deepEqual(compacted.usage, { promptTokens: 100, completionTokens: 20 });
    assert.ok(results.some((result) => result.method === 'append'));
    assert.match(String(llm.requests[0]?.messages[1]?.content), /^## Objective\nDocument modules\n/);
  });

  it('falls back deterministically, condensing instead of dropping the oldest facts, to half the budget when the model fails or rambles', async () => {
    for (const llm of [scripted(() => new Error('HTTP 500')), scripted(() => 'word '.repeat(2_000)), undefined]) {
      let summary = '';
      const compactions = [];
      for (let index = 1; index <= 30; index++) {
        const result = await compactContext(
          summary,
          { stepId: `S${index}`, title: `Step ${index}`, result: longResult(index) },
          { budgetTokens: 400, signal, ...(llm ? { llm } : {}) },
        );
        summary = result.summary;
        assert.ok(countTokens(summary) <= 400);
        if (result.method !== 'append') compactions.push(result);
      }
      assert.ok(
        compactions.length >= 3 && compactions.every((result) => result.method === 'fallback' && result.afterTokens <= 200),
        'headroom: half the budget',
      );
      assert.equal(compactions.every((result) => result.fallbackReason !== undefined), llm !== undefined, 'a dropped model summary is always explained');
      assert.match(summary, /\[S30\] Step 30: Step 30 found details/);
      assert.match(summary, /^Earlier steps \(condensed\): S1–S\d+\n/, 'the oldest facts merged into a range, not dropped');
    }
  });

  it('keeps even a single huge fact within budget', async () => {
    const result = await compactContext('', { stepId: 'S1', title: 'Huge', result: 'x '.repeat(50_000) }, { budgetTokens: 100, signal });
    assert.ok(countTokens(result.summary) <= 100);
  });
});

describe('compactContext: what the summary keeps and why', () => {
  it('appends one line per fact, the result on one line and cut to an eighth of the budget, after the trimmed summary', async () => {
    const spaced = await compactContext(
      '  [S1] Read: ok \n',
      { stepId: 'S2', title: 'Write', result: 'line one\n\n  line two' },
      { budgetTokens: 200, signal },
    );
    assert.equal(spaced.summary, '[S1] Read: ok\n[S2] Write: line one line two');
    const first = await compactContext(' \n ', { stepId: 'S1', title: 'Read', result: undefined }, { budgetTokens: 200, signal });
    assert.equal(first.summary, '[S1] Read: (no result)');
    const long = await compactContext('', { stepId: 'S1', title: 'Read', result: 'word '.repeat(500) }, { budgetTokens: 800, signal });
    assert.match(long.summary, /^\[S1\] Read: (word )+…$/);
    assert.ok(countTokens(long.summary.replace('[S1] Read: ', '')) <= 100, long.summary);
    assert.ok(countTokens(long.summary) > 90);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    assert.equal(
      (await compactContext('', { stepId: 'S1', title: 'Odd', result: circular }, { budgetTokens: 200, signal })).summary,
      '[S1] Odd: [object Object]',
    );
  });

  it('appends a fact that fills the budget exactly', async () => {
    const line = '[S1] Read: ok';
    const result = await compactContext(
      '',
      { stepId: 'S1', title: 'Read', result: 'ok' },
      { budgetTokens: Math.max(16, countTokens(line)), signal, llm: scripted(() => 'never asked') },
    );
    assert.equal(result.method, 'append');
  });

  it("first condenses all but the oldest lines, or rewrites a summary without whole lines to keep, starting like the step agent's requests, and keeps its trimmed summary and cost", async () => {
    const llm = scripted(() => '  short summary \n');
    const previous = Array.from({ length: 30 }, (_, index) => `[S${index}] Step: ${'fact '.repeat(10)}`).join('\n');
    const tools = [{ name: 'read_file', description: 'Reads a file', parameters: { type: 'object' } }];
    const prefix = { system: 'You are the agent.', tools, head: '## Objective\nShip it\n\n## Plan\n- S1 a' };
    const result = await compactContext(
      previous,
      { stepId: 'S99', title: 'Last', result: 'done' },
      { budgetTokens: 100, signal, llm, objective: 'Ship it', prefix },
    );
    const kept = previous.split('\n').slice(0, 1).join('\n');
    assert.ok(countTokens(kept) <= 16 && countTokens(previous.split('\n').slice(0, 2).join('\n')) > 16, 'the oldest whole lines within a sixth of the budget');
    assert.deepEqual(
      [result.method, result.rewrite, result.summary, result.settledLength],
      ['llm', false, `${kept.trimEnd()}\nshort summary`, result.summary.length],
    );
    assert.equal(result.afterTokens, countTokens(result.summary));
    const request = llm.requests[0]!;
    assert.equal(request.maxTokens, 12, 'an eighth of the budget');
    assert.deepEqual([request.tools, request.toolChoice], [tools, 'none'], "the agent's tools, which it may not call");
    assert.deepEqual(
      request.messages.map((message) => [message.role, typeof message.content === 'string' ? message.content.split('\n')[0] : '']),
      [
        ['system', 'You are the agent.'],
        ['user', '## Objective'],
      ],
    );
    const user = String(request.messages[1]?.content);
    assert.ok(
      user.startsWith(`## Objective\nShip it\n\n## Plan\n- S1 a\n\n## What happened so far\n${previous.trim()}\n[S99] Last: done\n\n## Task\n`),
      "the step prompt's head and summary, as its requests have them",
    );
    assert.match(
      user,
      new RegExp(
        String.raw`## Task\nThis request is not a step of the plan: you keep its working memory\. Condense the last 30 lines of these notes \(from "\[S1\] Step: fact[^"]*" on\) into at most ${request.maxTokens} tokens: .* Keep facts later steps need: .* call no tool\.$`,
      ),
    );
    const oneLine = scripted(() => 'all of it');
    const rewritten = await compactContext(
      'fact '.repeat(400),
      { stepId: 'S99', title: 'Last', result: 'done' },
      { budgetTokens: 100, signal, llm: oneLine, prefix },
    );
    assert.deepEqual(
      [rewritten.summary, rewritten.rewrite, rewritten.settledLength, oneLine.requests[0]?.maxTokens],
      ['all of it', true, 'all of it'.length, 33],
      'no whole line to keep: a rewrite into a third of the budget',
    );
    assert.match(
      String(oneLine.requests[0]?.messages[1]?.content),
      /## Task\nThis request is not a step of the plan: you keep its working memory\. Rewrite these notes into at most 33 tokens\. Keep facts/,
    );
    assert.ok(!('costUsd' in result), 'no cost when the model reports none');
    const priced: LlmClient = {
      model: 'p',
      chat: async () => ({ text: 'short', toolCalls: [], usage: { promptTokens: 1, completionTokens: 1 }, usageReported: true, model: 'p', costUsd: 0.002 }),
    };
    assert.equal((await compactContext(previous, { stepId: 'S99', title: 'Last', result: 'done' }, { budgetTokens: 100, signal, llm: priced })).costUsd, 0.002);
    const plain = scripted(() => 'short');
    await compactContext(previous, { stepId: 'S99', title: 'Last', result: 'done' }, { budgetTokens: 100, signal, llm: plain });
    assert.match(String(plain.requests[0]?.messages[1]?.content), /^## What happened so far\n\[S0\]/, 'without a prefix or an objective the notes come first');
    assert.match(String(plain.requests[0]?.messages[0]?.content), /^You maintain the working memory of an agent executing a plan/);
    assert.ok(plain.requests[0]?.tools === undefined && plain.requests[0]?.toolChoice === undefined);
    const noTools = scripted(() => 'short');
    await compactContext(
      previous,
      { stepId: 'S99', title: 'Last', result: 'done' },
      { budgetTokens: 100, signal, llm: noTools, prefix: { ...prefix, tools: [] } },
    );
    assert.ok(noTools.requests[0]?.tools === undefined && noTools.requests[0]?.toolChoice === undefined, 'an agent without tools sends none');
  });

  it('condenses only the lines after the settled start, which stays byte for byte, while the settled start is small', async () => {
    const llm = scripted(() => ' newer condensed ');
    const settled = '[S1] Old: kept fact one\n[S2] Old: kept fact two';
    const previous = `${settled}\n${Array.from({ length: 20 }, (_, index) => `[S${index + 3}] New: ${'detail '.repeat(12)}`).join('\n')}`;
    const result = await compactContext(
      previous,
      { stepId: 'S99', title: 'Last', result: 'done' },
      { budgetTokens: 200, signal, llm, settledLength: settled.length, objective: 'Ship it' },
    );
    assert.equal(result.summary, `${settled}\nnewer condensed`);
    assert.deepEqual([result.method, result.rewrite, result.settledLength], ['llm', false, result.summary.length]);
    const request = llm.requests[0]!;
    assert.equal(request.maxTokens, 25);
    const user = String(request.messages[1]?.content);
    assert.ok(user.startsWith(`## Objective\nShip it\n\n## What happened so far\n${previous.trim()}\n[S99] Last: done\n\n## Task\n`));
    assert.match(
      user,
      new RegExp(
        String.raw`Condense the last 21 lines of these notes \(from "\[S3\] New: detail detail detail detail detail detail…" on\) into at most ${request.maxTokens} tokens: they will follow the earlier lines, which stay as they are`,
      ),
    );
  });

  it('rewrites everything once the settled start leaves too little room, and forgets the settled start on the fallback', async () => {
    const settled = Array.from({ length: 12 }, (_, index) => `[S${index}] Old: ${'fact '.repeat(10)}`).join('\n');
    assert.ok(countTokens(settled) > 120);
    const previous = `${settled}\n[S50] New: ${'detail '.repeat(60)}`;
    const llm = scripted(() => 'all of it, shorter');
    const result = await compactContext(
      previous,
      { stepId: 'S99', title: 'Last', result: 'done' },
      { budgetTokens: 200, signal, llm, settledLength: settled.length },
    );
    assert.deepEqual([result.summary, result.rewrite, llm.requests[0]?.maxTokens], ['all of it, shorter', true, 66]);
    const cut = await compactContext(previous, { stepId: 'S99', title: 'Last', result: 'done' }, { budgetTokens: 200, signal, settledLength: settled.length });
    assert.deepEqual([cut.method, cut.settledLength], ['fallback', 0]);
    const appended = await compactContext('[S1] a', { stepId: 'S2', title: 'b', result: 'c' }, { budgetTokens: 200, signal, settledLength: 99 });
    assert.deepEqual([appended.summary, appended.settledLength], ['[S1] a\n[S2] b: c', 6], 'a settled length past the summary is cut to it');
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
    await assert.rejects(
      compactContext('fact '.repeat(400), { stepId: 'S1', title: 'T', result: 'x' }, { budgetTokens: 100, signal: controller.signal, llm }),
      /aborted/,
    );
  });

  it('condenses without a model: shortens the oldest lines first, then merges them into ranges of ids, then drops the oldest ids', async () => {
    const lines = Array.from({ length: 40 }, (_, index) => `[S${index}] Step ${index}: ${'note '.repeat(index % 5 + 1)}`.trim());
    const result = await compactContext(lines.join('\n'), { stepId: 'S40', title: 'Last', result: 'done' }, { budgetTokens: 200, signal });
    assert.ok(countTokens(result.summary) <= 100, 'half the budget');
    assert.equal(result.afterTokens, countTokens(result.summary));
    const kept = result.summary.split('\n');
    assert.match(kept[0] ?? '', /^Earlier steps \(condensed\): S0–S\d+$/);
    const first = Number(/^\[S(\d+)\]/.exec(kept[1] ?? '')?.[1]);
    assert.equal(kept[0], `Earlier steps (condensed): S0–S${first - 1}`, 'every older step named');
    assert.deepEqual(kept.slice(1), [...lines, '[S40] Last: done'].slice(first), 'the newer lines whole');
    const wide = Array.from({ length: 12 }, (_, index) => `[S${index}] Step ${index}: ${'observation '.repeat(30)}`);
    const shortened = (await compactContext(wide.join('\n'), { stepId: 'S12', title: 'Last', result: 'done' }, { budgetTokens: 1_000, signal })).summary.split(
      '\n',
    );
    assert.equal(shortened.length, 13, 'one line per fact');
    assert.ok(shortened.every((line) => countTokens(line) <= 40 + 1), 'each cut to a few dozen words');
    const many = Array.from({ length: 400 }, (_, index) => `[T${index * 2}] x`).join('\n');
    const dropped = await compactContext(many, { stepId: 'T999', title: 'Last', result: 'done' }, { budgetTokens: 100, signal });
    assert.match(dropped.summary, /^Earlier steps \(condensed\): …, T\d+, T\d+/, 'ids that form no range are dropped oldest first');
    assert.match(dropped.summary, /\[T999\] Last: done$/);
    assert.ok(countTokens(dropped.summary) <= 50);
    const longer = `${dropped.summary}\n${Array.from({ length: 10 }, (_, index) => `[U${index}] y y y y`).join('\n')}`;
    const again = await compactContext(longer, { stepId: 'U10', title: 'Next', result: 'x' }, { budgetTokens: 100, signal });
    assert.equal(again.method, 'fallback');
    assert.ok(
      countTokens(again.summary) <= 50 && /^Earlier steps \(condensed\): …, T\d+.*, U0–U\d+\n/.test(again.summary),
      'an earlier merged line is kept as a line of ids',
    );
    const huge = await compactContext('[S0] small', { stepId: 'S1', title: 'Huge', result: 'x' }, { budgetTokens: 16, signal });
    assert.ok(countTokens(huge.summary) <= 16);
    const lone = await compactContext('', { stepId: 'S1', title: 'word '.repeat(100), result: 'x' }, { budgetTokens: 16, signal });
    assert.match(lone.summary, /^\[S1\] (word )+…$/);
  });

  it('uses a model summary longer than asked but within the budget, condensed further to half of it, and reports what a dropped one cost', async () => {
    const previous = Array.from({ length: 40 }, (_, index) => `[S${index}] Step: ${'fact '.repeat(10)}`).join('\n');
    const wordy = Array.from({ length: 9 }, (_, index) => `[M${index}] ${'condensed '.repeat(12)}`).join('\n');
    assert.ok(countTokens(wordy) > 100 && countTokens(wordy) <= 170);
    const used = await compactContext(previous, { stepId: 'S99', title: 'Last', result: 'done' }, { budgetTokens: 200, signal, llm: scripted(() => wordy) });
    assert.deepEqual([used.method, used.rewrite, used.settledLength, used.fallbackReason], ['llm', true, 0, undefined]);
    assert.ok(used.afterTokens <= 100 && used.summary.includes('[M8] condensed'));
    const dropped = await compactContext(
      previous,
      { stepId: 'S99', title: 'Last', result: 'done' },
      { budgetTokens: 200, signal, llm: scripted(() => 'word '.repeat(5_000)) },
    );
    assert.deepEqual([dropped.method, dropped.usage], ['fallback', { promptTokens: 100, completionTokens: 20 }]);
    assert.ok(dropped.afterTokens <= 100 && !dropped.summary.includes('word word'));
  });
});
