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

  it("a command's own percentage (pytest) becomes the step's, increasing, throttled, shown while it runs and gone once it ends", async () => {
    const clock = new ManualClock(0, { autoAdvance: true });
    const plan = makePlan([makeStep('T', { kind: 'tool', agent: undefined, input: undefined, tool: 'run_command', args: { argv: ['pytest', '-q'] } })]);
    const events: RunEvent[] = [];
    const shown: (number | undefined)[] = [];
    const handle = runPlan(plan, {
      tools: [runCommandTool],
      workspace: createMemoryWorkspace({}),
      interaction: ScriptedInteraction.approvingAll(),
      commandRunner: {
        describeCwd: (cwd) => Promise.resolve(cwd || '.'),
        async run(spec) {
          // 100 lines, one every 20 ms of the run's clock: pytest's "[ n%]" on each.
          for (let index = 1; index <= 100; index++) {
            spec.onOutput?.(`tests/test_${index}.py .${' '.repeat(20)}[${String(index).padStart(3)}%]\n`);
            await clock.sleep(20);
          }
          return { exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 2000 };
        },
      },
      clock,
    });
    handle.events.subscribe((event) => {
      events.push(event);
      if (event.type === 'step_progress') shown.push(handle.state().steps['T']?.percent);
    });
    assert.equal((await handle.result).status, 'completed');
    const percents = events.flatMap((event) => (event.type === 'step_progress' && event.percent !== undefined ? [event.percent] : []));
    assert.ok(percents.length >= 3 && percents.length <= 6, `throttled to one per 500 ms of a 2 s command: ${percents.join(', ')}`);
    assert.deepEqual([...percents].sort((a, b) => a - b), percents, 'increasing');
    assert.ok(percents[0]! > 0 && percents[0]! <= 30, `the first an interval after the command started: ${percents.join(', ')}`);
    assert.ok(percents.at(-1)! >= 95, `the latest is not lost: ${percents.join(', ')}`);
    assert.deepEqual(shown, [undefined, ...percents], 'the state shows each as it comes, after "running pytest -q" without one');
    assert.ok(events.every((event) => event.type !== 'step_progress' || event.message === 'running pytest -q'));
    assert.equal(handle.state().steps['T']?.percent, undefined, 'gone once the step ended');
  });

  it('a command that prints no percentage of its own stays without one (never a guess from time)', async () => {
    const clock = new ManualClock(0, { autoAdvance: true });
    const plan = makePlan([makeStep('M', { kind: 'tool', agent: undefined, input: undefined, tool: 'run_command', args: { argv: ['make'] } })]);
    const events: RunEvent[] = [];
    const handle = runPlan(plan, {
      tools: [runCommandTool],
      workspace: createMemoryWorkspace({}),
      interaction: ScriptedInteraction.approvingAll(),
      commandRunner: {
        describeCwd: (cwd) => Promise.resolve(cwd || '.'),
        async run(spec) {
          for (const line of ['cc -c a.c (50% of the files)\n', 'Coverage: 80%\n', 'done\n']) {
            spec.onOutput?.(line);
            await clock.sleep(1000);
          }
          return { exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 3000 };
        },
      },
      clock,
    });
    handle.events.subscribe((event) => events.push(event));
    assert.equal((await handle.result).status, 'completed');
    assert.deepEqual(
      events.flatMap((event) => (event.type === 'step_progress' ? [[event.message, event.percent]] : [])),
      [['running make', undefined]],
    );
  });
});
