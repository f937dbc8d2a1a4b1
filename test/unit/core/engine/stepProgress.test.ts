import assert from 'node:assert/strict';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import { maxProgressChars } from '../../../../src/core/engine/executors/stepExecutor';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import { runCommandTool } from '../../../../src/core/tools/runCommandTool';
import type { Tool } from '../../../../src/core/tools/tool';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

const progressOf = (events: readonly RunEvent[]) => events.flatMap((event) => (event.type === 'step_progress' ? [[event.stepId, event.message]] : []));

describe('step_progress: where a running step stands', () => {
  it('an agent says each turn and each tool call; the state shows the latest while it runs and nothing once it ends', async () => {
    const llm = scriptedLlm([{ toolCalls: [{ id: 'c1', name: 'read_file', arguments: JSON.stringify({ path: 'a.txt' }) }] }, 'The file says A.']);
    const plan = makePlan([makeStep('S1', { agent: 'reader', input: 'Read a.txt' })], { agents: { reader: { prompt: 'You read.', tools: ['read_file'] } } });
    const events: RunEvent[] = [];
    const seen: (string | undefined)[] = [];
    const handle = runPlan(plan, {
      llm,
      tools: createToolRegistry([readFileTool] as Tool[]),
      workspace: createMemoryWorkspace({ 'a.txt': 'A' }),
      clock: new ManualClock(0, { autoAdvance: true }),
      agentLimits: { maxTurns: 12, timeoutMs: Infinity },
    });
    handle.events.subscribe((event) => {
      events.push(event);
      if (event.type === 'step_progress') seen.push(handle.state().steps['S1']?.progress);
    });
    const result = await handle.result;
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.deepEqual(progressOf(events), [['S1', 'turn 1 of 12'], ['S1', 'turn 1 of 12: read_file'], ['S1', 'turn 2 of 12']]);
    assert.deepEqual(seen, ['turn 1 of 12', 'turn 1 of 12: read_file', 'turn 2 of 12']);
    assert.equal(handle.state().steps['S1']?.progress, undefined);
  });

  it('a command says it runs, after its approval, on one bounded line', async () => {
    const argv = ['echo', 'a\nb', 'x'.repeat(500)];
    const plan = makePlan([makeStep('C', { kind: 'tool', agent: undefined, input: undefined, tool: 'run_command', args: { argv } })]);
    const events: RunEvent[] = [];
    const handle = runPlan(plan, {
      tools: [runCommandTool],
      workspace: createMemoryWorkspace({}),
      interaction: ScriptedInteraction.approvingAll(),
      commandRunner: { describeCwd: (cwd) => Promise.resolve(cwd || '.'), run: () => Promise.resolve({ exitCode: 0, signal: null, stdout: 'ok', stderr: '', timedOut: false, truncated: false, durationMs: 1 }) },
      clock: new ManualClock(0, { autoAdvance: true }),
    });
    handle.events.subscribe((event) => events.push(event));
    assert.equal((await handle.result).status, 'completed');
    const [[, message] = []] = progressOf(events);
    assert.ok(message !== undefined && message.startsWith('running echo a b xxx') && message.length <= maxProgressChars && !message.includes('\n'), message);
    const approvedAt = events.findIndex((event) => event.type === 'request_answered');
    assert.ok(approvedAt >= 0 && approvedAt < events.findIndex((event) => event.type === 'step_progress'), 'said after the approval');
  });
});
