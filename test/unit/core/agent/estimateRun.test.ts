import assert from 'node:assert/strict';
import { createBudgetTracker } from '../../../../src/core/llm/budget';
import type { LlmChatRequest } from '../../../../src/core/llm/llmTypes';
import { countPromptTokens, countTokens } from '../../../../src/core/llm/tokenCount';
import { runPlan } from '../../../../src/core/engine/runPlan';
import { estimateRun } from '../../../../src/core/agent/estimateRun';
import { budgetFromEstimate, estimateAgainstActual, estimateLines } from '../../../../src/core/agent/estimateText';
import type { Plan } from '../../../../src/core/plan/planSchema';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { workspaceTools } from '../../../../src/core/tools/builtinTools';
import { askUserTool } from '../../../../src/core/tools/askUserTool';
import { toolDefinition } from '../../../../src/core/agent/agentToolCall';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

const tools = createToolRegistry([...workspaceTools]);
const source = Array.from({ length: 40 }, (_, index) => `export function parse${index}(text: string): string[] { return text.split(',').map((part) => part.trim()); }`).join('\n');
const files = { 'src/parser.ts': source, 'src/cli.ts': source.slice(0, 1500), 'README.md': '# Parser\n\nSplits lists.\n'.repeat(20), 'package.json': '{"name":"parser","scripts":{"test":"mocha"}}' };
const answer = 'The parser now trims each part and keeps empty entries out of the result. '.repeat(14).trim();

/**
 * A scripted model that works as a real one does on these plans: an agent reads the file it
 * is about, searches for the function, then answers in about 250 tokens; a summary, a review
 * and a compaction answer as their requests ask. Usage is counted with the tokenizer.
 */
function workingModel() {
  return scriptedLlm([
    (request: LlmChatRequest) => {
      const prompt = JSON.stringify(request.messages);
      const toolResults = request.messages.filter((message) => message.role === 'tool').length;
      let reply: { text: string; toolCalls: { id: string; name: string; arguments: string }[] };
      if (prompt.includes('you keep its working memory')) reply = { text: answer.slice(0, 600), toolCalls: [] };
      else if (request.responseSchema?.type === 'json_schema' && request.responseSchema.name === 'step_review') reply = { text: '{"verdict":"pass"}', toolCalls: [] };
      else if (!request.tools?.some((tool) => tool.name === 'read_file') || toolResults >= 2) reply = { text: answer, toolCalls: [] };
      else if (toolResults === 0) reply = { text: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"src/parser.ts"}' }] };
      else reply = { text: '', toolCalls: [{ id: 'c2', name: 'search_text', arguments: '{"query":"parse1"}' }] };
      const completion = countTokens(reply.text) + reply.toolCalls.reduce((sum, call) => sum + countTokens(call.name) + countTokens(call.arguments), 0);
      return { ...reply, usage: { promptTokens: countPromptTokens(request.messages, request.tools), completionTokens: completion } };
    },
  ], { model: 'gpt-4o-mini' });
}

const agent = (id: string, input: string, dependsOn: string[] = [], patch = {}) => makeStep(id, { kind: 'agent', input, dependsOn, title: input.slice(0, 30), ...patch });
const realisticPlans: Record<string, Plan> = {
  'fix a bug in one file': makePlan([agent('S1', 'Fix the parser so it trims each part of src/parser.ts and add a test.')], { objective: 'Fix the parser trimming bug' }),
  'rename across files, then summarise': makePlan(
    [
      makeStep('S1', { kind: 'tool', tool: 'list_files', args: {}, title: 'List the files' }),
      agent('S2', 'Rename parse1 to parseList in src/parser.ts.', ['S1']),
      agent('S3', 'Rename parse1 to parseList in src/cli.ts.', ['S1']),
      makeStep('S4', { kind: 'synthesis_gate', dependsOn: ['S2', 'S3'], title: 'Summarise the rename' }),
    ],
    { objective: 'Rename parse1 to parseList everywhere' },
  ),
  'add a flag with tests, reviewed': makePlan(
    [
      agent('S1', 'Add a --trim flag to src/cli.ts.'),
      agent('S2', 'Write tests for the --trim flag.', ['S1'], { review: true }),
      agent('S3', 'Document the --trim flag in README.md.', ['S2']),
    ],
    { objective: 'Add a --trim flag with tests and docs' },
  ),
  'a long chain that compacts its summary': makePlan(
    Array.from({ length: 10 }, (_, index) => agent(`S${index + 1}`, `Update parse${index} in src/parser.ts to trim its parts.`, index === 0 ? [] : [`S${index}`])),
    { objective: 'Make every parse function trim' },
  ),
};

describe('estimateRun: the run\'s cost known before Start', function () {
  for (const [name, plan] of Object.entries(realisticPlans)) {
    it(`bench: "${name}" — the typical tokens are within ±30 % of what a scripted run uses, and the range holds them`, async () => {
      const llm = workingModel();
      const budget = createBudgetTracker();
      const estimate = estimateRun(plan, { model: llm.model, tools });
      const result = await runPlan(plan, { llm, budget, tools, clock: new ManualClock(), workspace: createMemoryWorkspace(files) }).result;
      assert.equal(result.status, 'completed', result.metadata.reason);
      const used = budget.usage();
      const ratio = estimate.tokens.typical / used.totalTokens;
      console.log(`      ${name}: estimated ${estimate.tokens.typical} tokens (${estimate.tokens.low}–${estimate.tokens.high}), used ${used.totalTokens} in ${used.requests} requests (estimated ${estimate.requests.typical}); ratio ${ratio.toFixed(2)}`);
      assert.ok(ratio >= 0.7 && ratio <= 1.3, `estimate ${estimate.tokens.typical} against ${used.totalTokens} used`);
      assert.ok(estimate.tokens.low <= used.totalTokens && used.totalTokens <= estimate.tokens.high);
      assert.ok(estimate.requests.low <= used.requests && used.requests <= estimate.requests.high);
      assert.ok(estimate.costUsd !== undefined && estimate.costUsd.low > 0);
      assert.match(estimateAgainstActual(estimate, used), /^Used \d+ model requests?, [\d.k]+ tokens, cost unknown; estimated \d+–\d+ requests, [\d.k]+–[\d.k]+ tokens/);
    });
  }

  it('prices each role at its own model, and says "cost unknown" naming a model without a price, never $0', () => {
    const plan = makePlan(
      [agent('S1', 'Fix it.', [], { review: true }), agent('S2', 'Test it.', ['S1'], { model: 'llama3:8b' }), ...Array.from({ length: 8 }, (_, i) => agent(`T${i}`, 'More.', [i === 0 ? 'S2' : `T${i - 1}`]))],
      { objective: 'Fix' },
    );
    const priced = estimateRun(plan, { model: 'gpt-4o-mini', models: { agent: 'gpt-4.1', reviewer: 'gpt-5', compaction: 'gpt-5-nano' }, tools });
    assert.equal(priced.costUsd, undefined);
    assert.deepEqual(priced.unpricedModels, ['llama3:8b']);
    assert.match(estimateLines(priced)[0] ?? '', /cost unknown \(no price for llama3:8b\)/);
    assert.doesNotMatch(estimateLines(priced).join('\n'), /\$0[^.]/);
    const known = estimateRun({ ...plan, steps: plan.steps.map(({ model: _model, ...step }) => step) }, { model: 'gpt-4o-mini', models: { agent: 'gpt-4.1', reviewer: 'gpt-5', compaction: 'gpt-5-nano' }, tools });
    const cheap = estimateRun({ ...plan, steps: plan.steps.map(({ model: _model, ...step }) => step) }, { model: 'gpt-4o-mini', models: { agent: 'gpt-4.1-nano', reviewer: 'gpt-5', compaction: 'gpt-5-nano' }, tools });
    assert.ok(known.costUsd && cheap.costUsd && cheap.costUsd.typical < known.costUsd.typical / 5, 'the agent role\'s price decides the agent steps\' cost');
    assert.deepEqual(known.kinds.map((kind) => kind.kind), ['agent', 'review', 'compaction']);
    assert.equal(known.kinds.find((kind) => kind.kind === 'review')?.count, 1);
  });

  it('counts the ask_user definition the run offers every agent beside its own tools, when the run has ask_user', async () => {
    const plan: Plan = {
      ...makePlan([agent('S1', 'Read the parser and say what it does.', [], { agent: 'reader' })]),
      agents: { reader: { prompt: 'You read code.', tools: ['read_file'] } },
    };
    const withAsk = createToolRegistry([...workspaceTools]);
    const bare = estimateRun(plan, { model: 'gpt-4o', tools: createToolRegistry(workspaceTools.filter((tool) => tool.name !== askUserTool.name)) });
    const asking = estimateRun(plan, { model: 'gpt-4o', tools: withAsk });
    const definition = countTokens(JSON.stringify(toolDefinition(askUserTool)));
    const turns = bare.requests.typical;
    assert.ok(turns >= 2, 'an agent with a tool is expected to take turns');
    assert.ok(Math.abs(asking.tokens.typical - bare.tokens.typical - turns * definition) <= turns, 'the definition is in each of its requests');
    // The run sends what the estimate counted: the reader's tool and ask_user.
    const llm = scriptedLlm(['It splits lists.'], { model: 'gpt-4o' });
    await runPlan(plan, { llm, tools: withAsk, clock: new ManualClock(), workspace: createMemoryWorkspace(files) }).result;
    assert.deepEqual(llm.requests[0]?.tools?.map((tool) => tool.name), ['read_file', 'ask_user']);
  });

  it('a local model without a price: "cost unknown" is said once in the estimate and once beside what was used, not on every line', () => {
    const plan = makePlan([agent('S1', 'Fix it.', [], { review: true }), agent('S2', 'Test it.', ['S1'])], { objective: 'Fix' });
    const estimate = estimateRun(plan, { model: 'qwen2.5-coder:7b', tools });
    const lines = estimateLines(estimate);
    assert.ok(lines.length >= 3, lines.join('\n'));
    assert.equal(lines.join('\n').match(/cost unknown/g)?.length, 1, lines.join('\n'));
    assert.match(lines[0] ?? '', /cost unknown \(no price for qwen2\.5-coder:7b\)/);
    const against = estimateAgainstActual(estimate, { requests: 3, totalTokens: 4_200, costUsd: 0, unpricedRequests: 3 });
    assert.match(against, /^Used 3 model requests, 4\.2k tokens; estimated [\d–]+ requests, .* tokens \(typically [\d.k]+\); cost unknown \(no price for qwen2\.5-coder:7b\)\.$/);
    assert.equal(against.match(/cost unknown/g)?.length, 1, against);
    // Some kinds priced and some not: each line says its own, so which one is unknown stays visible.
    const mixed = estimateLines(estimateRun(plan, { model: 'qwen2.5-coder:7b', models: { reviewer: 'gpt-5' }, tools }));
    assert.match(mixed.find((line) => line.includes('agent steps')) ?? '', /tokens, cost unknown$/);
    assert.match(mixed.find((line) => line.includes('model reviews')) ?? '', /tokens, \$[\d.]+/);
  });

  it('a plan without model work estimates no requests and no cost, and sets no budget', () => {
    const plan = makePlan([makeStep('S1', { kind: 'tool', tool: 'list_files', args: {} }), makeStep('S2', { kind: 'manual', dependsOn: ['S1'] })]);
    const estimate = estimateRun(plan, { model: 'unknown-local-model', tools });
    assert.deepEqual(estimate.requests, { low: 0, typical: 0, high: 0 });
    assert.deepEqual(estimate.costUsd, { low: 0, typical: 0, high: 0 });
    assert.equal(estimate.personSteps, 1);
    assert.equal(budgetFromEstimate(estimate), undefined);
    assert.match(estimateLines(estimate)[0] ?? '', /^Estimate: no model requests; about .* plus your own steps\.$/);
  });

  it('Start\'s budget is the high end of the cost, up to the cent, or of the tokens when the cost is unknown', () => {
    const plan = realisticPlans['add a flag with tests, reviewed']!;
    const known = estimateRun(plan, { model: 'gpt-4o', tools });
    assert.equal(budgetFromEstimate(known)?.maxCostUsd, Math.ceil(known.costUsd!.high * 100) / 100);
    const unknown = estimateRun(plan, { model: 'my-local-model', tools });
    assert.deepEqual(budgetFromEstimate(unknown), { maxTokens: unknown.tokens.high });
  });

  it('the duration follows the longest chain of dependencies, not the sum of the steps', () => {
    const parallel = makePlan(Array.from({ length: 6 }, (_, i) => agent(`S${i}`, 'Work.')));
    const chain = makePlan(Array.from({ length: 6 }, (_, i) => agent(`S${i}`, 'Work.', i === 0 ? [] : [`S${i - 1}`])));
    const one = estimateRun(makePlan([agent('S0', 'Work.')]), { model: 'gpt-4o', tools });
    assert.equal(estimateRun(parallel, { model: 'gpt-4o', tools }).durationMs.typical, one.durationMs.typical);
    assert.ok(estimateRun(chain, { model: 'gpt-4o', tools }).durationMs.typical >= 5 * one.durationMs.typical);
  });

  it('attack: a huge plan (50,000 steps, wide and deep) is estimated within the suite\'s time-out, and its estimate grows in proportion', () => {
    // One pass over the steps (the outline counted once): the suite's time-out bounds it, no wall clock is read.
    const huge = (count: number) =>
      makePlan(Array.from({ length: count }, (_, i) => agent(`S${i}`, 'Update the file.', i === 0 ? [] : i % 2 === 0 ? ['S0'] : [`S${i - 1}`])));
    const half = estimateRun(huge(25_000), { model: 'gpt-4o', tools });
    const whole = estimateRun(huge(50_000), { model: 'gpt-4o', tools });
    assert.equal(whole.kinds[0]?.count, 50_000);
    assert.equal(whole.kinds[0]?.requests.typical, 2 * (half.kinds[0]?.requests.typical ?? 0));
    const ratio = whole.tokens.typical / half.tokens.typical;
    assert.ok(ratio > 1.9 && ratio < 2.1, `twice the steps, ${ratio.toFixed(2)}× the tokens`);
  });
});
