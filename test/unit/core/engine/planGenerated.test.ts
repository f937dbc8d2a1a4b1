import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { replayJournal } from '../../../../src/core/engine/replayJournal';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { PlanOrigin, RunEvent } from '../../../../src/core/engine/runEvents';
import { planRequest } from '../../../../src/core/planner/planRequest';
import { executeWithReplanning } from '../../../../src/core/replan/executeWithReplanning';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { answeringInteraction } from '../../../fakes/answeringInteraction';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

const origin: PlanOrigin = { planner: 'model', model: 'gpt-test', steps: 2, critiqueScore: 8, findings: 1 };

describe('plan_generated: how a run\'s plan was made is journaled with its start (issue 29, seed)', () => {
  it('planRequest says which planner made the plan, its model, its steps and the critic\'s verdict', async () => {
    const base = { tools: createToolRegistry(builtinTools()), signal: new AbortController().signal, clock: new ManualClock(0) };
    const heuristic = await planRequest('Read README.md, then write a summary of it', { ...base, llm: undefined });
    assert.deepEqual(heuristic.origin, {
      planner: 'heuristic',
      steps: heuristic.plan.steps.length,
      critiqueScore: heuristic.critique.score,
      findings: heuristic.critique.issues.length,
    });
    const reply = JSON.stringify({ objective: 'x', steps: [{ id: 'S1', title: 'Read', kind: 'tool', tool: 'read_file', args: { path: 'README.md' }, dependsOn: [] }] });
    const llm = scriptedLlm([reply]);
    const modelled = await planRequest('Read the readme', { ...base, llm });
    assert.deepEqual([modelled.origin.planner, modelled.origin.model, modelled.origin.steps], ['model', llm.model, 1]);
  });

  it('runPlan journals plan_generated right after run_started, a replay reads it with restored results after it, and it changes no state', async () => {
    const store = createMemoryRunStore();
    const plan = makePlan([makeStep('a', { kind: 'tool', tool: 'list_files', args: {} }), makeStep('b', { kind: 'tool', tool: 'list_files', args: {}, dependsOn: ['a'] })]);
    const options = {
      clock: new ManualClock(0, { autoAdvance: true }),
      tools: builtinTools(),
      workspace: createMemoryWorkspace({ 'README.md': '' }),
      interaction: answeringInteraction({}),
      store,
      idSource: () => 'r1',
    };
    const { result } = runPlan(plan, { ...options, planOrigin: origin, initialResults: { a: 'earlier' } });
    const outcome = await result;
    assert.equal(outcome.status, 'completed');
    const journal = await store.load('r1');
    const types = journal!.entries.map((entry) => entry.type);
    assert.deepEqual(types.slice(0, 3), ['run_started', 'plan_generated', 'step_completed']);
    assert.deepEqual(journal!.entries[1], { ...origin, type: 'plan_generated', runId: 'r1', seq: 2, time: journal!.entries[1]!.time });
    assert.equal(replayJournal('r1', journal!).status, 'completed');
    const without = createMemoryRunStore();
    await runPlan(plan, { ...options, store: without, idSource: () => 'r2' }).result;
    assert.ok(!(await without.load('r2'))!.entries.some((entry) => entry.type === 'plan_generated'), 'a plan not made from a request says nothing of it');
  });

  it('a repair run does not journal it again: its plan is the repair plan', async () => {
    const plan = makePlan([makeStep('bad', { onFailure: 'replan' })]);
    const events: RunEvent[] = [];
    const result = await executeWithReplanning(plan, 'x', {
      replanner: scriptedLlm([JSON.stringify({ objective: 'x', steps: [{ id: 'fix', title: 'Fix', kind: 'agent', dependsOn: [] }] })]),
      stepRunner: async (step) => {
        if (step.id === 'bad') throw new Error('broke');
        return 'done';
      },
      clock: new ManualClock(0, { autoAdvance: true }),
      planOrigin: origin,
      idSource: () => 'r3',
      onEvent: (event) => events.push(event),
    });
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.deepEqual(
      events.filter((event) => event.type === 'run_started' || event.type === 'plan_generated').map((event) => `${event.runId} ${event.type}`),
      ['r3 run_started', 'r3 plan_generated', 'r3-replan-1 run_started'],
    );
  });
});
