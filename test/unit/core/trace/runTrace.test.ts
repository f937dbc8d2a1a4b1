import assert from 'node:assert/strict';
import * as semconv from '@opentelemetry/semantic-conventions/incubating';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import type { RunEvent, RunEventBody } from '../../../../src/core/engine/runEvents';
import type { Plan } from '../../../../src/core/plan/planSchema';
import { parsePlan } from '../../../../src/core/plan/parsePlan';
import type { JournalEntry } from '../../../../src/core/runStorePorts';
import { exportRunTraces, loadRunTrace } from '../../../../src/core/trace/exportRunTrace';
import { genAiAttributes, runTrace, traceContentChars, traceNameChars } from '../../../../src/core/trace/runTrace';
import type { TraceSpan } from '../../../../src/core/trace/traceSpan';
import { traceTree } from '../../../../src/core/trace/traceTree';

const parsed = parsePlan({
  objective: 'secret objective',
  version: 1,
  agents: { coder: { prompt: 'p', tools: ['read_file'] } },
  steps: [
    { id: 'A', title: 'secret title', kind: 'agent', agent: 'coder', input: 'x', onFailure: 'retry', maxAttempts: 2 },
    { id: 'B', title: 'List', tool: 'list_files', args: {}, dependsOn: ['A'] },
  ],
});
if (!parsed.ok) throw new Error('the test plan does not parse');
const plan: Plan = parsed.plan;

function events(bodies: (RunEventBody & { time: number })[]): RunEvent[] {
  return bodies.map((body, index) => ({ ...body, runId: 'r1', seq: index + 1 }));
}

const journal = events([
  { type: 'run_started', plan, time: 1000 },
  { type: 'step_started', stepId: 'A', attempt: 1, input: 'secret input', time: 1010 },
  { type: 'step_progress', stepId: 'A', message: 'turn 1 of 12', time: 1011 },
  { type: 'model_called', stepId: 'A', model: 'm1', promptTokens: 100, completionTokens: 10, cachedTokens: 64, costUsd: 0.01, time: 1100 },
  { type: 'step_progress', stepId: 'A', message: 'turn 1 of 12: read_file', time: 1101 },
  { type: 'step_progress', stepId: 'A', message: 'turn 2 of 12', time: 1150 },
  { type: 'model_called', stepId: 'A', model: 'm1', promptTokens: 200, completionTokens: 20, time: 1200 },
  { type: 'step_failed', stepId: 'A', attempt: 1, error: 'boom', disposition: 'retry', time: 1210 },
  { type: 'step_started', stepId: 'A', attempt: 2, time: 1300 },
  { type: 'step_completed', stepId: 'A', result: 'secret result', time: 1400 },
  { type: 'step_started', stepId: 'B', attempt: 1, time: 1410 },
  { type: 'step_completed', stepId: 'B', result: [], time: 1420 },
  { type: 'run_completed', time: 1500 },
]);

function shape(spans: readonly TraceSpan[]): [string, string | undefined, number, number, string][] {
  return spans.map((span) => [span.id, span.parentId, span.start, span.end, span.status]);
}

describe('runTrace: a run\'s trace from its journal', () => {
  it('nests run → step attempts → model and tool calls, timed from the journal', () => {
    assert.deepEqual(shape(runTrace(journal, { content: false })), [
      ['run', undefined, 1000, 1500, 'ok'],
      ['step:S1#1', 'run', 1010, 1210, 'error'],
      ['step:S1#1/model@4', 'step:S1#1', 1011, 1100, 'ok'],
      ['step:S1#1/tool@5', 'step:S1#1', 1101, 1150, 'unset'],
      ['step:S1#1/model@7', 'step:S1#1', 1150, 1200, 'ok'],
      ['step:S1#2', 'run', 1300, 1400, 'ok'],
      ['step:S2#1', 'run', 1410, 1420, 'ok'],
      ['step:S2#1/tool', 'step:S2#1', 1410, 1420, 'unset'],
    ]);
  });

  it('uses the GenAI semantic conventions\' names for model, tokens, cached tokens, tools and agents', () => {
    assert.deepEqual(genAiAttributes, {
      operation: semconv.ATTR_GEN_AI_OPERATION_NAME,
      requestModel: semconv.ATTR_GEN_AI_REQUEST_MODEL,
      inputTokens: semconv.ATTR_GEN_AI_USAGE_INPUT_TOKENS,
      outputTokens: semconv.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
      cachedInputTokens: semconv.ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
      toolName: semconv.ATTR_GEN_AI_TOOL_NAME,
      agentName: semconv.ATTR_GEN_AI_AGENT_NAME,
    });
    const spans = runTrace(journal, { content: false });
    assert.deepEqual(spans[2]?.attributes, {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'm1',
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 10,
      'gen_ai.usage.cache_read.input_tokens': 64,
      'task_planner.cost_usd': 0.01,
    });
    assert.deepEqual(spans[3]?.attributes, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'read_file' });
    assert.equal(spans[1]?.attributes['gen_ai.agent.name'], 'agent_1', 'an agent the plan names, by number without content');
    assert.equal(runTrace(journal, { content: true })[1]?.attributes['gen_ai.agent.name'], 'coder');
    assert.equal(spans[7]?.attributes['gen_ai.tool.name'], 'list_files');
  });

  it('bounds every name and attribute, whatever a journal written by anyone holds', () => {
    const long = 'x'.repeat(100_000);
    const hostilePlan: Plan = {
      ...plan,
      objective: long,
      agents: { [long]: { prompt: 'p', tools: [] } },
      steps: [
        { ...plan.steps[0]!, agent: long, title: long },
        { ...plan.steps[1]!, tool: long },
      ],
    };
    const hostile = events([
      { type: 'run_started', plan: hostilePlan, time: 1000 },
      { type: 'step_started', stepId: 'A', attempt: 1, input: long, time: 1010 },
      { type: 'model_called', stepId: 'A', model: long, promptTokens: 1, completionTokens: 1, time: 1100 },
      { type: 'step_progress', stepId: 'A', message: `turn 1 of 12: ${long}`, time: 1101 },
      { type: 'step_completed', stepId: 'A', result: long, time: 1400 },
      { type: 'step_started', stepId: 'B', attempt: 1, time: 1410 },
      { type: 'step_completed', stepId: 'B', result: [], time: 1420 },
      { type: 'run_completed', time: 1500 },
    ]).map((event) => ({ ...event, runId: long }));
    for (const content of [false, true]) {
      const spans = runTrace(hostile, { content });
      assert.equal(spans.length, 6);
      for (const span of spans) {
        assert.ok(span.name.length <= traceNameChars, `${span.id}: a name of ${span.name.length} characters`);
        for (const [name, value] of Object.entries(span.attributes)) {
          const most = name === 'task_planner.run.objective' || name.startsWith('task_planner.step.') && /title|input|output/.test(name) ? traceContentChars : traceNameChars;
          assert.ok(typeof value !== 'string' || value.length <= most, `${span.id} ${name}: ${String(value).length} characters`);
        }
      }
    }
  });

  it('holds no content unless asked: objective, titles, inputs and results only with content', () => {
    assert.doesNotMatch(JSON.stringify(runTrace(journal, { content: false })), /secret/);
    const withContent = runTrace(journal, { content: true });
    assert.equal(withContent[0]?.attributes['task_planner.run.objective'], 'secret objective');
    assert.equal(withContent[1]?.attributes['task_planner.step.title'], 'secret title');
    assert.equal(withContent[1]?.attributes['task_planner.step.input'], 'secret input');
    assert.equal(withContent[5]?.attributes['task_planner.step.output'], 'secret result');
  });

  it('a run that went through to its end with a step failed is partial in its trace, as in every view (it said completed)', () => {
    const partial = events([
      { type: 'run_started', plan, time: 1000 },
      { type: 'step_started', stepId: 'A', attempt: 1, time: 1010 },
      { type: 'step_failed', stepId: 'A', attempt: 1, error: 'boom', disposition: 'skip', time: 1020 },
      { type: 'step_skipped', stepId: 'B', reason: 'dependency A failed', cause: 'dependency', time: 1021 },
      { type: 'run_completed', time: 1030 },
    ]);
    assert.equal(runTrace(partial, { content: false })[0]?.attributes['task_planner.run.status'], 'partial');
  });

  it('a run still running or waiting: open spans end with the journal, statuses unset', () => {
    const open = runTrace(journal.slice(0, 5), { content: false });
    assert.deepEqual(shape(open).map(([id, , , end, status]) => [id, end, status]), [
      ['run', 1101, 'unset'],
      ['step:S1#1', 1101, 'unset'],
      ['step:S1#1/model@4', 1100, 'ok'],
      ['step:S1#1/tool@5', 1101, 'unset'],
    ]);
    assert.equal(open[0]?.attributes['task_planner.run.status'], 'running');
    assert.deepEqual(runTrace([], { content: false }), []);
  });

  it('traceTree prints the timed tree', () => {
    assert.deepEqual(traceTree(runTrace(journal, { content: false })), [
      'run r1  +0 ms  500 ms  completed',
      '  step S1  +10 ms  200 ms  failed',
      '    chat m1  +11 ms  89 ms  100 in (64 cached), 10 out',
      '    execute_tool read_file  +101 ms  49 ms',
      '    chat m1  +150 ms  50 ms  200 in, 20 out',
      '  step S1  +300 ms  100 ms  completed',
      '  step S2  +410 ms  10 ms  completed',
      '    execute_tool list_files  +410 ms  10 ms',
    ]);
    assert.deepEqual(traceTree(runTrace(journal, { content: true })).filter((line) => line.startsWith('  step')).map((line) => line.split('  ')[1]), ['step A', 'step A', 'step B']);
    assert.deepEqual(traceTree([]), []);
  });

  it('a resumed run: each attempt has a span of its own, a step rejected or never started is in the tree, said as every view says it', () => {
    const three = parsePlan({
      objective: 'write',
      steps: [
        { id: 'W', title: 'Write', tool: 'write_file', args: { path: 'a.txt', content: 'a' } },
        { id: 'D', title: 'After', tool: 'list_files', args: {}, dependsOn: ['W'] },
        { id: 'R', title: 'Read', tool: 'read_file', args: { path: 'x' }, critical: false },
      ],
    });
    if (!three.ok) throw new Error('the test plan does not parse');
    const resumed = events([
      { type: 'run_started', plan: three.plan, time: 1000 },
      { type: 'step_started', stepId: 'W', attempt: 1, time: 1010 },
      { type: 'step_started', stepId: 'R', attempt: 1, time: 1011 },
      { type: 'step_failed', stepId: 'R', attempt: 1, error: 'File not found: x', disposition: 'skip', time: 1014 },
      { type: 'step_deferred', stepId: 'W', time: 1017 },
      { type: 'run_resumed', supplied: {}, time: 2000 },
      // The resumed run asks again from attempt 1: before, both W spans had one id and each showed both tool calls.
      { type: 'step_started', stepId: 'W', attempt: 1, time: 2010 },
      { type: 'step_skipped', stepId: 'W', reason: 'Rejected by you', cause: 'rejected', time: 2016 },
      { type: 'step_skipped', stepId: 'D', reason: 'dependency W was rejected', cause: 'dependency', time: 2017 },
      { type: 'run_completed', time: 2020 },
    ]);
    const spans = runTrace(resumed, { content: false });
    assert.equal(new Set(spans.map((span) => span.id)).size, spans.length, 'two spans share an id');
    assert.deepEqual(traceTree(spans), [
      'run r1  +0 ms  1.0 s  partial',
      '  step S1  +10 ms  7 ms  deferred',
      '    execute_tool write_file  +10 ms  7 ms',
      '  step S3  +11 ms  3 ms  failed (did not stop the run)',
      '    execute_tool read_file  +11 ms  3 ms',
      '  step S1  +1.0 s  6 ms  rejected by you',
      '    execute_tool write_file  +1.0 s  6 ms',
      '  step S2  +1.0 s  0 ms  skipped (dependency)',
    ]);
    const never = spans.find((span) => span.name === 'step S2');
    assert.deepEqual(never?.attributes, {
      'task_planner.step.ref': 'S2',
      'task_planner.step.attempt': 0,
      'task_planner.step.kind': 'tool',
      'task_planner.step.outcome': 'skipped',
      'task_planner.step.skip_cause': 'dependency',
    });
  });

  it('exportRunTraces sends one trace per stored run; a run the store lacks is left out', async () => {
    const store = createMemoryRunStore();
    await store.append('r1', JSON.parse(JSON.stringify(journal)) as JournalEntry[]);
    const sent: TraceSpan[][] = [];
    await exportRunTraces(store, ['r1', 'missing'], { export: (spans) => Promise.resolve(void sent.push([...spans])) }, { content: false });
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.length, 8);
    assert.equal(await loadRunTrace(store, 'missing', { content: false }), undefined);
  });
});
