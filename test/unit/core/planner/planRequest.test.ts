import assert from 'node:assert/strict';
import type { LlmContentPart } from '../../../../src/core/llm/llmTypes';
import type { Attachment } from '../../../../src/core/plan/planSchema';
import { defaultInvestigationBudget } from '../../../../src/core/planner/investigationBudget';
import { maxSnapshotFiles, planRequest, type PlanRequestOptions } from '../../../../src/core/planner/planRequest';
import type { LlmClient } from '../../../../src/core/servicePorts';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { scriptedLlm } from '../../../fakes/scriptedLlm';

const tools = createToolRegistry(builtinTools());
const signal = new AbortController().signal;
const clock = new ManualClock(Date.UTC(2026, 0, 2, 3, 4, 5));
const base: PlanRequestOptions = { llm: undefined, tools, signal, clock };
const modelPlan = JSON.stringify({
  objective: 'ignored',
  steps: [{ id: 'S1', title: 'Read the readme', kind: 'tool', tool: 'read_file', args: { path: 'README.md' }, dependsOn: [] }],
});
const attachments: Attachment[] = [
  { kind: 'file', ref: 'src/app.ts' },
  { kind: 'link', ref: 'https://example.com/spec' },
  { kind: 'image', ref: 'shot.png' },
];

/** The text of the planning request's user message. */
function userText(content: string | LlmContentPart[] | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => (part.type === 'text' ? part.text : `[image ${part.url}]`)).join('\n');
}

describe('planRequest: one planning path for the editor and the command line', () => {
  it('without a model plans with the heuristic planner, dated by the clock, critiqued against the tools, with the attachments on its steps but not the links', async () => {
    const planned = await planRequest('Read README.md, then write a summary of it', { ...base, attachments });
    assert.equal(planned.plan.createdAt, '2026-01-02T03:04:05.000Z');
    assert.ok(planned.plan.steps.length >= 2);
    assert.equal(planned.plan.steps[0]?.tool, 'read_file');
    const carried = planned.plan.steps.flatMap((step) => step.attachments ?? []).map((attachment) => attachment.ref);
    assert.ok(carried.includes('src/app.ts') && carried.includes('shot.png'), JSON.stringify(carried));
    assert.ok(!carried.includes('https://example.com/spec'));
    assert.ok(planned.critique.score >= 1 && planned.critique.score <= 10);
    assert.deepEqual(planned.warnings, []);
  });

  it("without a model runs the project's test command for \"run the tests\", and its fix checks it again (issue 29)", async () => {
    const workspace = createMemoryWorkspace({ 'pyproject.toml': '[tool.pytest.ini_options]\n', 'src/app.py': '' });
    const planned = await planRequest('run the tests and fix the failure', { ...base, workspace });
    assert.deepEqual(planned.plan.steps.map((step) => [step.kind, step.args?.['argv'] ?? '', step.checks ?? []]), [
      ['tool', ['pytest'], []],
      ['manual', '', [{ kind: 'command', argv: ['pytest'] }]],
    ]);
    const unknown = await planRequest('run the tests and fix the failure', { ...base, workspace: createMemoryWorkspace({ 'README.md': '' }) });
    assert.deepEqual(unknown.plan.steps.map((step) => step.kind), ['manual', 'manual']);
  });

  it('refuses feedback without a model, saying what to do in the host\'s words', async () => {
    await assert.rejects(planRequest('Add a README', { ...base, feedback: 'shorter', noModelHint: 'pass --base-url.' }), (error: Error) => {
      assert.equal(error.message, 'Regenerate needs a model to take your feedback into account, and none is set up: pass --base-url.');
      return true;
    });
  });

  it('with a model sends the workspace files (at most the first 500), the open files, the attachments as the host prepares them and the feedback, and dates the plan by the clock', async () => {
    const files = Object.fromEntries(Array.from({ length: maxSnapshotFiles + 20 }, (_, index) => [`f${String(index).padStart(4, '0')}.txt`, '']));
    const llm = scriptedLlm([modelPlan]);
    const planned = await planRequest('Summarize the readme', {
      ...base,
      llm,
      workspace: createMemoryWorkspace({ 'README.md': '# Demo\n', ...files }),
      openFiles: ['src/open.ts'],
      attachments,
      attachmentForModel: async (attachment) => (attachment.kind === 'image' ? { ...attachment, ref: 'data:image/png;base64,AAAA' } : attachment),
      feedback: 'keep it short',
      strategy: 'plan_act_reflect',
    });
    assert.equal(planned.plan.objective, 'Summarize the readme');
    assert.equal(planned.plan.createdAt, '2026-01-02T03:04:05.000Z');
    assert.deepEqual(planned.plan.steps.map((step) => step.id), ['S1']);
    const messages = llm.requests[0]?.messages ?? [];
    const prompt = userText(messages[1]?.content);
    assert.match(prompt, new RegExp(`Files \\(${maxSnapshotFiles}\\)`), 'the listing is cut at maxSnapshotFiles');
    assert.match(prompt, /src\/open\.ts/);
    assert.match(prompt, /src\/app\.ts/);
    assert.match(prompt, /\[image data:image\/png;base64,AAAA\]/);
    assert.match(prompt, /keep it short/);
    assert.match(userText(messages[0]?.content), /Strategy: plan, act, reflect/);
  });

  it('with a budget of no tool calls does not investigate, so nothing says an investigation reached its limit (issue 28 walked again)', async () => {
    const planned = await planRequest('Summarize the readme', {
      ...base,
      llm: scriptedLlm([modelPlan]),
      workspace: createMemoryWorkspace({ 'README.md': '# Demo\n' }),
      investigate: { budget: { ...defaultInvestigationBudget, maxToolCalls: 0 } },
    });
    assert.deepEqual(planned.plan.steps.map((step) => step.id), ['S1']);
    assert.equal(planned.investigation, undefined);
  });

  it('plans with a model when the workspace cannot be listed, as for an empty one', async () => {
    const workspace = { ...createMemoryWorkspace(), list: () => Promise.reject(new Error('unreadable')) };
    const llm = scriptedLlm([modelPlan]);
    const planned = await planRequest('Summarize the readme', { ...base, llm, workspace });
    assert.deepEqual(planned.plan.steps.map((step) => step.id), ['S1']);
    assert.doesNotMatch(userText(llm.requests[0]?.messages[1]?.content), /Files \(/);
  });

  it('without a model and without a hint says how to get one in general words', async () => {
    await assert.rejects(planRequest('Add a README', { ...base, feedback: 'shorter' }), (error: Error) => {
      assert.equal(error.message, 'Regenerate needs a model to take your feedback into account, and none is set up: set up a model, or edit the steps yourself.');
      return true;
    });
  });

  it('without a model leaves work it cannot do with a tool to a person, attaches nothing it was not given, and critiques against the tools given', async () => {
    const planned = await planRequest('Read README.md, then decide the colour scheme', { ...base, tools: createToolRegistry([]) });
    assert.deepEqual(planned.plan.steps.map((step) => step.kind), ['tool', 'manual']);
    assert.deepEqual(planned.plan.steps.flatMap((step) => step.attachments ?? []), []);
    assert.ok(
      planned.critique.issues.some((issue) => issue.severity === 'critical' && issue.message.includes('read_file')),
      JSON.stringify(planned.critique.issues),
    );
  });

  it('with a model names the workspace, passes attachments as they are by default, and shows each step as soon as the model wrote it', async () => {
    const llm = scriptedLlm([
      (request) => {
        request.onDelta?.({ kind: 'text', text: modelPlan });
        return modelPlan;
      },
    ]);
    const partial: string[] = [];
    await planRequest('Summarize the readme', {
      ...base,
      llm,
      workspace: createMemoryWorkspace({ 'README.md': '# Demo\n' }),
      attachments,
      onPartialStep: (step, index) => partial.push(`${index}:${step.id}`),
    });
    const prompt = userText(llm.requests[0]?.messages[1]?.content);
    assert.match(prompt, /Workspace: \S+/);
    assert.match(prompt, /- image: shot\.png/);
    assert.match(prompt, /- link: https:\/\/example\.com\/spec/);
    assert.deepEqual(partial, ['0:S1']);
  });

  it('with a model and nothing open or attached sends neither an editors nor an attachments section', async () => {
    const llm = scriptedLlm([modelPlan]);
    await planRequest('Summarize the readme', { ...base, llm, workspace: createMemoryWorkspace({ 'README.md': '# Demo\n' }) });
    const prompt = userText(llm.requests[0]?.messages[1]?.content);
    assert.match(prompt, /README\.md/);
    assert.doesNotMatch(prompt, /Open editors:|Attachments:/);
  });

  const agentPlan = JSON.stringify({
    objective: 'x',
    steps: [
      { id: 'S1', title: 'Read', kind: 'tool', tool: 'read_file', args: { path: 'README.md' }, dependsOn: [] },
      { id: 'S2', title: 'Summarise', kind: 'agent', input: 'Summarise {{results.S1}}', dependsOn: ['S1'] },
    ],
  });

  it('with a model puts the request\'s attachments (as given, not as sent to the model) on the agent steps', async () => {
    const llm = scriptedLlm([agentPlan]);
    const planned = await planRequest('Summarize the readme', {
      ...base,
      llm,
      attachments,
      attachmentForModel: async (attachment) => ({ ...attachment, ref: 'data:image/png;base64,AAAA' }),
    });
    assert.equal(planned.plan.steps[0]?.attachments, undefined, 'a tool step takes its arguments only');
    assert.deepEqual(planned.plan.steps[1]?.attachments, attachments);
    const without = await planRequest('Summarize the readme', { ...base, llm: scriptedLlm([agentPlan]) });
    assert.equal(without.plan.steps[1]?.attachments, undefined);
    assert.equal(planned.modelCritique, undefined, 'no model critique unless asked for');
  });

  it('adds the model critique when asked, its findings joining the static ones, with what it cost', async () => {
    const review = JSON.stringify({ findings: [{ severity: 'warning', stepId: 'S2', message: 'Say how long the summary should be.' }] });
    const llm = scriptedLlm([agentPlan, review], { tokensPerCall: 3, costPerCall: 0.5 });
    const planned = await planRequest('Summarize the readme', { ...base, llm, modelCritique: true });
    const model = planned.critique.issues.filter((issue) => issue.check === 'llm_review');
    assert.deepEqual(model.map((issue) => [issue.name, issue.stepId, issue.message]), [['Model review', 'S2', 'Say how long the summary should be.']]);
    assert.deepEqual(planned.modelCritique, { usage: { promptTokens: 3, completionTokens: 3 }, costUsd: 0.5 });
  });

  it('attack: a critic that hangs still lets the review appear, with the static findings and the reason', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 2));
    let calls = 0;
    const llm: LlmClient = {
      model: 'm',
      chat: async () => {
        calls++;
        if (calls > 1) return new Promise(() => undefined);
        return { text: agentPlan, toolCalls: [], usage: { promptTokens: 1, completionTokens: 1 }, usageReported: true, model: 'm' };
      },
    };
    const pending = planRequest('Summarize the readme', { ...base, clock, llm, modelCritique: true, modelCritiqueTimeoutMs: 1000 });
    while (calls < 2) await new Promise((resolve) => setImmediate(resolve));
    await clock.advance(1000);
    const planned = await pending;
    assert.ok(planned.critique.issues.every((issue) => issue.check !== 'llm_review'));
    assert.match(planned.modelCritique?.error ?? '', /did not finish its critique within 1 s/);
  });

  it('says the model critique needs a model when there is none', async () => {
    const planned = await planRequest('Read README.md', { ...base, modelCritique: true });
    assert.match(planned.modelCritique?.error ?? '', /^The model critique needs a model/);
  });
});
