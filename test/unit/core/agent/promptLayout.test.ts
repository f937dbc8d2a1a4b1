import assert from 'node:assert/strict';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { LlmClient } from '../../../../src/core/servicePorts';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';
import { requestText } from '../../../support/promptPrefix';

describe('step prompts keep a stable start for the provider\'s cache', () => {
  it('the next step\'s first request starts with the whole stable part of the previous step\'s, then with its summary', async () => {
    const plan = makePlan(
      [
        makeStep('S1', { title: 'Read the notes', input: 'Read notes.md' }),
        makeStep('S2', { title: 'Count the words', dependsOn: ['S1'], input: 'Count the words of {{results.S1}}' }),
        makeStep('S3', { title: 'Write the report', dependsOn: ['S2'], input: 'Write the report' }),
      ],
      { objective: 'Report on the notes' },
    );
    const llm = scriptedLlm([
      { toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"notes.md"}' }] },
      'The notes list three tasks.',
      'There are 42 words.',
      'Report written.',
    ]);
    // The agent loop extends its message list in place: each request is read as it is sent.
    const sent: { messages: number; text: string }[] = [];
    const recording: LlmClient = {
      model: llm.model,
      chat: (request) => {
        sent.push({ messages: request.messages.length, text: requestText(request) });
        return llm.chat(request);
      },
    };
    const result = await runPlan(plan, { llm: recording, tools: builtinTools(), workspace: createMemoryWorkspace({ 'notes.md': 'one two three' }), clock: new ManualClock() }).result;
    assert.equal(result.status, 'completed');

    const firsts = sent.filter((request) => request.messages === 2).map((request) => request.text);
    assert.equal(firsts.length, 3, 'one first request per step');
    const [first, second, third] = firsts as [string, string, string];
    const stable = first.slice(0, first.indexOf('## Where the run stands'));
    assert.match(stable, /## Objective\nReport on the notes\n\n## Plan\n3 steps, in plan order:\n- S1 Read the notes\n- S2 Count the words\n- S3 Write the report\n\n$/);
    assert.match(stable, /"name":"read_file"/, 'the tool definitions come first');
    assert.ok(second.startsWith(stable), 'step 2 starts with step 1\'s tools, system prompt, objective and outline');
    assert.ok(second.length > stable.length);

    const summaryEnd = second.indexOf('## Where the run stands');
    assert.match(second.slice(stable.length, summaryEnd), /^## What happened so far\n\[S1\] Read the notes: /);
    assert.ok(third.startsWith(second.slice(0, summaryEnd - 2)), 'step 3 starts with step 2\'s stable part and its whole summary, appended to');
    assert.match(third.slice(summaryEnd - 2), /^\n\[S2\] Count the words: /);
    for (const text of firsts) assert.ok(text.indexOf('→') > text.indexOf('## Where the run stands'), 'the live marker only after the summary');
  });

  it('a compaction request starts like the steps\' requests: the same tools and system prompt, the head and the summary', async () => {
    const plan = makePlan(['S1', 'S2', 'S3', 'S4', 'S5', 'S6'].map((id, index) => makeStep(id, { title: `Part ${index + 1}`, dependsOn: index > 0 ? [`S${index}`] : [] })), { objective: 'Do the parts' });
    const sent: { toolChoice?: string; messages: number; text: string }[] = [];
    const llm = scriptedLlm([(request) => (request.toolChoice === 'none' ? 'condensed' : `Result: ${'detail '.repeat(30)}`)]);
    const recording: LlmClient = {
      model: llm.model,
      chat: (request) => {
        sent.push({ ...(request.toolChoice ? { toolChoice: request.toolChoice } : {}), messages: request.messages.length, text: requestText(request) });
        return llm.chat(request);
      },
    };
    const result = await runPlan(plan, { llm: recording, tools: builtinTools(), workspace: createMemoryWorkspace(), clock: new ManualClock(), agentLimits: { summaryBudgetTokens: 60 } }).result;
    assert.equal(result.status, 'completed');
    const compaction = sent.findIndex((request) => request.toolChoice === 'none');
    assert.ok(compaction > 0, 'the summary overflowed and the model condensed it');
    const before = sent.slice(0, compaction).filter((request) => request.messages === 2).at(-1)!.text;
    const summaryEnd = before.indexOf('\n\n## Where the run stands');
    assert.ok(sent[compaction]!.text.startsWith(before.slice(0, summaryEnd)), 'tools, system prompt, head and the whole summary of the step before');
    assert.match(sent[compaction]!.text.slice(summaryEnd), /^\n\[S\d\] Part \d: Result: [\s\S]*\n\n## Task\nThis request is not a step of the plan/);
  });
});
