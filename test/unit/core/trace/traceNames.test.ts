import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import type { CodeNavigation, Problems } from '../../../../src/core/editorPorts';
import type { JournalEntry } from '../../../../src/core/runStorePorts';
import type { UrlFetcher } from '../../../../src/core/servicePorts';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createCodeNavigationTools } from '../../../../src/core/tools/codeNavigationTools';
import { createFetchUrlTool } from '../../../../src/core/tools/fetchUrlTool';
import { createGetDiagnosticsTool } from '../../../../src/core/tools/getDiagnosticsTool';
import { exportRunTraces } from '../../../../src/core/trace/exportRunTrace';
import { runTrace } from '../../../../src/core/trace/runTrace';
import { builtinTraceToolNames, traceNames } from '../../../../src/core/trace/traceNames';
import type { TraceSpan } from '../../../../src/core/trace/traceSpan';
import { traceTree } from '../../../../src/core/trace/traceTree';
import { hostileTraceJournal, traceSecret } from '../../../support/hostileTraceJournal';

const secret = new RegExp(traceSecret, 'i');

async function exported(content: boolean): Promise<TraceSpan[]> {
  const store = createMemoryRunStore();
  await store.append('r-hostile', JSON.parse(JSON.stringify(hostileTraceJournal())) as JournalEntry[]);
  const sent: TraceSpan[][] = [];
  await exportRunTraces(store, ['r-hostile'], { export: (spans) => Promise.resolve(void sent.push(JSON.parse(JSON.stringify(spans)) as TraceSpan[])) }, { content });
  assert.equal(sent.length, 1);
  return sent[0] ?? [];
}

describe('traceNames: what a trace calls what a plan, a model or a server named', () => {
  it('keeps exactly the names of the tools this code defines', () => {
    const own = [
      ...builtinTools(),
      createFetchUrlTool({} as UrlFetcher),
      ...createCodeNavigationTools({} as CodeNavigation),
      createGetDiagnosticsTool({} as Problems),
    ].map((tool) => tool.name);
    assert.deepEqual([...builtinTraceToolNames].sort(), [...new Set(own)].sort());
  });

  it('without content: steps by their place in the plans, agents and other tools numbered, each stable', () => {
    const names = traceNames(false);
    names.learnPlan({ steps: [{ id: 'b' }, { id: 'a' }], agents: { coder: {}, default: {} } } as never);
    assert.deepEqual([names.step('a'), names.step('b'), names.step('a'), names.stepRef('b')], ['S2', 'S1', 'S2', 'S1']);
    names.learnPlan({ steps: [{ id: 'a' }, { id: 'c' }], agents: { other: {} } } as never);
    assert.deepEqual([names.step('c'), names.step('unplanned'), names.step('c')], ['S3', 'S4', 'S3']);
    assert.deepEqual([names.agent('other'), names.agent('coder'), names.agent('default'), names.agent('direct')], ['agent_2', 'agent_1', 'default', 'direct']);
    assert.deepEqual(
      ['read_file', 'mcp__s__x', 'vscode__y', 'made_up', 'mcp__s__z', 'mcp__s__x', 'run_command'].map((name) => names.tool(name)),
      ['read_file', 'mcp_tool_1', 'vscode_tool_1', 'tool_1', 'mcp_tool_2', 'mcp_tool_1', 'run_command'],
    );
  });

  it('with content: the real names, and the neutral step reference still', () => {
    const names = traceNames(true);
    names.learnPlan({ steps: [{ id: 'b' }], agents: { coder: {} } } as never);
    assert.deepEqual([names.step('b'), names.stepRef('b'), names.agent('coder'), names.tool('mcp__s__x')], ['b', 'S1', 'coder', 'mcp__s__x']);
  });

  it('a hostile model: nothing it put in step ids, names, arguments, checks or errors reaches a trace without content', async () => {
    const spans = await exported(false);
    assert.doesNotMatch(JSON.stringify(spans), secret);
    assert.deepEqual(traceTree(spans).map((line) => line.replace(/ {2}\+.*?(?= {2}|$)/, '').replace(/ {2}\d+ m?s/, '')), [
      'run r-hostile  failed',
      '  step S1  verification_failed',
      '    chat m1  10 in, 1 out',
      '    execute_tool tool_1',
      '    execute_tool mcp_tool_1',
      '    execute_tool vscode_tool_1',
      '    execute_tool read_file',
      '  step S4  completed',
      '    execute_tool mcp_tool_1',
      '  step S2  failed (did not stop the run)',
      '    execute_tool mcp_tool_2',
      '  step S3  completed',
      '    execute_tool list_files',
    ]);
    assert.equal(spans[1]?.attributes['gen_ai.agent.name'], 'agent_1');
    assert.equal(spans[1]?.attributes['task_planner.step.ref'], 'S1');
    assert.equal(spans[1]?.attributes['task_planner.step.id'], undefined);
  });

  it('with content the same trace holds the real ids and names (and the content)', async () => {
    const spans = await exported(true);
    assert.match(JSON.stringify(spans), secret);
    assert.equal(spans[1]?.name, `step ${traceSecret}-read`);
    assert.equal(spans[1]?.attributes['task_planner.step.id'], `${traceSecret}-read`);
    assert.equal(spans[1]?.attributes['task_planner.step.ref'], 'S1');
    assert.equal(spans[1]?.attributes['gen_ai.agent.name'], `${traceSecret}-agent`);
    assert.ok(spans.some((span) => span.name === `execute_tool mcp__${traceSecret}__lookup`));
    assert.deepEqual(
      spans.map((span) => span.id),
      runTrace(hostileTraceJournal(), { content: false }).map((span) => span.id),
      'span ids are the same either way',
    );
  });
});
