import assert from 'node:assert/strict';
import { awaitsRepair, nextRepairRunId, repairCutOff } from '../../../../src/core/engine/awaitsRepair';
import { foldRunEvents } from '../../../../src/core/engine/reduceRunEvent';
import type { RunEvent, RunState } from '../../../../src/core/engine/runEvents';
import type { LoadedJournal } from '../../../../src/core/runStorePorts';
import { makePlan, makeStep } from '../../../support/randomPlans';

describe('awaitsRepair', () => {
  const plan = makePlan([makeStep('a'), makeStep('b', { onFailure: 'replan' }), makeStep('c')]);
  const at = (seq: number) => ({ runId: 'X', seq, time: seq });
  const failedAsking: RunEvent[] = [
    { ...at(1), type: 'run_started', plan },
    { ...at(2), type: 'step_started', stepId: 'a', attempt: 1 },
    { ...at(3), type: 'step_completed', stepId: 'a', result: 'A' },
    { ...at(4), type: 'step_started', stepId: 'b', attempt: 1 },
    { ...at(5), type: 'step_failed', stepId: 'b', attempt: 1, error: 'broke', disposition: 'fail', replan: true },
    { ...at(6), type: 'run_failed', reason: 'Step b failed and asked for a repair plan.' },
  ];

  it('is true for a run that failed only because steps asked for a repair plan, with no line saying none comes', () => {
    assert.equal(awaitsRepair(foldRunEvents(failedAsking)), true);
  });

  it('is false once replan_failed says no repair plan will come, for a step that failed otherwise, and for a run not failed', () => {
    assert.equal(awaitsRepair(foldRunEvents([...failedAsking, { ...at(7), type: 'replan_failed', stepId: 'b', reason: 'limit' }])), false);
    const otherwise = failedAsking.map((event) => (event.type === 'step_failed' ? { ...event, replan: false } : event));
    assert.equal(awaitsRepair(foldRunEvents(otherwise)), false);
    const alsoFailed: RunEvent[] = [
      ...failedAsking.slice(0, 5),
      { ...at(6), type: 'step_started', stepId: 'c', attempt: 1 },
      { ...at(7), type: 'step_failed', stepId: 'c', attempt: 1, error: 'broke too', disposition: 'fail' },
      { ...at(8), type: 'run_failed', reason: 'two failed' },
    ];
    assert.equal(awaitsRepair(foldRunEvents(alsoFailed)), false);
    assert.equal(awaitsRepair(foldRunEvents(failedAsking.slice(0, 5))), false, 'still running');
    assert.equal(awaitsRepair(foldRunEvents([...failedAsking.slice(0, 3), { ...at(4), type: 'run_failed', reason: 'budget' }])), false, 'no step failed');
  });

  it('names the next repair run as executeWithReplanning does: after the first run, numbered on', () => {
    const record = (replan: number, failedRunId: string) => ({ replan, failedRunId }) as NonNullable<RunState['replanHistory']>[number];
    assert.equal(nextRepairRunId({ runId: 'X' }), 'X-replan-1');
    assert.equal(nextRepairRunId({ runId: 'X-replan-2', replanHistory: [record(1, 'X'), record(2, 'X-replan-1')] }), 'X-replan-3');
  });

  it('repairCutOff: only when no journal of the next repair run is stored; one that cannot be read counts as stored', async () => {
    const state = foldRunEvents(failedAsking);
    const asked: string[] = [];
    const none = async (id: string): Promise<LoadedJournal | undefined> => {
      asked.push(id);
      return undefined;
    };
    assert.equal(await repairCutOff(state, none), true);
    assert.deepEqual(asked, ['X-replan-1']);
    assert.equal(await repairCutOff(state, async () => ({ entries: [] })), false);
    assert.equal(await repairCutOff(state, () => Promise.reject(new Error('EACCES'))), false);
    assert.equal(await repairCutOff(foldRunEvents(failedAsking.slice(0, 5)), none), false);
  });
});
