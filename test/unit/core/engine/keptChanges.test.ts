import assert from 'node:assert/strict';
import { changesOfSteps, keptChangesOf } from '../../../../src/core/engine/keptChanges';
import type { RunEvent, StepState } from '../../../../src/core/engine/runEvents';
import { runEventProblem } from '../../../../src/core/engine/runEventSchema';
import { runPlan } from '../../../../src/core/engine/runPlan';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

const state = (id: string, status: StepState['status'], filesChanged?: string[], keptChanges?: string[]): StepState => ({
  id,
  status,
  attempts: 1,
  ...(filesChanged ? { filesChanged } : {}),
  ...(keptChanges ? { keptChanges } : {}),
});

describe('keptChanges', () => {
  it('keptChangesOf: the files each kept step changed, in its run and in the one it was kept from, once each; none for the others', () => {
    const steps = { A: state('A', 'completed', ['a.txt', 'b.txt'], ['b.txt', 'c.txt']), B: state('B', 'completed'), C: state('C', 'completed', ['x.txt']) };
    assert.deepEqual(keptChangesOf(steps, ['A', 'B', 'Z']), { A: ['a.txt', 'b.txt', 'c.txt'] });
  });

  it('changesOfSteps: every step with its status and both kinds of files', () => {
    assert.deepEqual(changesOfSteps({ A: state('A', 'failed', ['a.txt'], ['k.txt']), B: state('B', 'running') }), {
      A: { status: 'failed', filesChanged: ['a.txt', 'k.txt'] },
      B: { status: 'running', filesChanged: [] },
    });
  });

  it('a journal line of a kept step with its files is a run event; files that are no text are not', () => {
    const line = { type: 'step_completed', runId: 'r', seq: 2, time: 1, stepId: 'E', result: null, restored: true, keptChanges: ['notes.md'] };
    assert.equal(runEventProblem(line), undefined);
    assert.match(runEventProblem({ ...line, keptChanges: [42] }) ?? '', /^step_completed: keptChanges\.0:/);
    assert.match(runEventProblem({ ...line, keptChanges: [''] }) ?? '', /^step_completed: keptChanges\.0:/);
  });

  it('attack: a run again from a write keeps the kept step\'s changes as its own: a blind write over them is refused, one that depends on it is not', async () => {
    const edit = makeStep('E', { kind: 'tool', agent: undefined, input: undefined, tool: 'edit_file', args: { path: 'notes.md', edits: [{ search: 'milk', replace: 'MILK' }] } });
    for (const dependsOn of [[], ['E']]) {
      const workspace = createMemoryWorkspace({ 'notes.md': '- [x] buy milk\n' });
      const write = makeStep('W', { kind: 'tool', agent: undefined, input: undefined, dependsOn, critical: false, tool: 'write_file', args: { path: 'notes.md', content: 'water plants\n' } });
      const events: RunEvent[] = [];
      const handle = runPlan(makePlan([edit, write]), {
        clock: new ManualClock(0, { autoAdvance: true }),
        workspace,
        tools: builtinTools(),
        approvalPolicy: 'commandsOnly',
        initialResults: { E: { path: 'notes.md', operation: 'edited', changed: true, bytes: 15 } },
        keptChanges: { E: ['notes.md'] },
      });
      handle.events.subscribe((event) => events.push(event));
      const result = await handle.result;
      const restored = events.find((event) => event.type === 'step_completed' && event.stepId === 'E');
      assert.deepEqual(restored && 'keptChanges' in restored ? restored.keptChanges : undefined, ['notes.md']);
      assert.deepEqual(handle.state().steps.E?.keptChanges, ['notes.md']);
      if (dependsOn.length === 0) {
        assert.notEqual(result.steps.W?.status, 'completed');
        assert.match(result.steps.W?.error ?? '', /notes\.md was changed in this run by step E \("[^"]*"\), which this step does not depend on/);
        assert.equal(workspace.snapshot()['notes.md'], '- [x] buy milk\n');
      } else {
        assert.equal(result.status, 'completed');
        assert.equal(workspace.snapshot()['notes.md'], 'water plants\n');
      }
    }
  });
});
