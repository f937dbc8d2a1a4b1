import assert from 'node:assert/strict';
import '../../fakes/vscodeL10n';
import type * as vscode from 'vscode';
import { runPlan } from '../../../src/core/engine/runPlan';
import { createBudgetTracker } from '../../../src/core/llm/budget';
import { interruptedRunReason, notifyRunFinished, repairCutOffReason } from '../../../src/vscode/runNotifications';
import { ManualClock } from '../../fakes/manualClock';
import { scriptedLlm } from '../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../support/randomPlans';

describe("a run's end notification", () => {
  // A newcomer's trial (2026-12-02): a run stopped by the cost limit ended "waiting … Resume it from the Runs view." and
  // nothing on screen said why: a budget's question, unlike an approval's, is shown nowhere else.
  it('says what a run waiting for a higher budget waits for, and how to go on', async () => {
    const plan = makePlan([makeStep('A', { title: 'Summarise the README' })]);
    const llm = scriptedLlm(['ok'], { model: 'unpriced-model' });
    const result = await runPlan(plan, { llm, budget: createBudgetTracker({ maxCostUsd: 1 }), clock: new ManualClock() }).result;
    assert.equal(result.status, 'waiting');
    const shown: { message: string; completed: boolean; actions: string[] }[] = [];
    notifyRunFinished(result, {} as vscode.LogOutputChannel, undefined, (message, completed, actions) => {
      shown.push({ message, completed, actions });
      return Promise.resolve(undefined);
    });
    assert.equal(shown.length, 1);
    assert.match(
      shown[0]?.message ?? '',
      /^Task Planner: run waiting: 0 of 1 step completed\. It waits: The run's cost limit of \$1\.00 cannot be kept with unpriced-model: its price is not known.* Then resume it from the Runs view\.$/,
    );
    assert.equal(shown[0]?.completed, false);
  });

  // A second trial: cancelled while its repair plan was asked, the run's end offered Undo but not Resume.
  it('offers Resume for a run you cancelled, and not for one that ended', async () => {
    const plan = makePlan([makeStep('A')]);
    const controller = new AbortController();
    controller.abort(new Error('Cancelled by the user.'));
    const cancelled = await runPlan(plan, { clock: new ManualClock(), signal: controller.signal }).result;
    const done = await runPlan(plan, { clock: new ManualClock() }).result;
    const actionsOf = (result: typeof done): string[] => {
      let seen: string[] = [];
      notifyRunFinished(result, {} as vscode.LogOutputChannel, undefined, (_message, _completed, actions) => {
        seen = actions;
        return Promise.resolve(undefined);
      });
      return seen;
    };
    assert.equal(cancelled.status, 'cancelled');
    assert.ok(actionsOf(cancelled).includes('Resume'), actionsOf(cancelled).join(', '));
    assert.ok(!actionsOf(done).includes('Resume'), actionsOf(done).join(', '));
  });
});

describe('the reason shown for a run a reload cut off', () => {
  // A newcomer's trial: an agent step whose change was approved and written, and whose task-file tick waited, ran again
  // on Resume (its model asked again, the same file proposed again) while the notice said "Finished steps are not run again".
  it('names the steps that were under way, which Resume goes on with, and says what they changed stays', () => {
    assert.equal(
      interruptedRunReason([
        { id: 'S1', status: 'completed', filesChanged: ['a.txt'] },
        { id: 'S2', status: 'running', filesChanged: ['notes.md'] },
        { id: 'S3', status: 'blocked' },
      ]),
      'The window was closed or reloaded during the run; resume it to go on. Step S2 was under way: Resume goes on with it and does not make a change twice (what it changed stays until Undo).',
    );
    assert.match(
      interruptedRunReason(['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, status: id === 'e' ? ('pending' as const) : ('running' as const), filesChanged: id === 'b' ? ['b.txt'] : [] }))),
      / Steps a, b, c and 1 more were under way: Resume goes on with them and does not make a change twice \(what they changed stays until Undo\)\.$/,
    );
  });

  // An editor trial: a step waiting for its approval, which had written nothing, read "what it changed stays until Undo".
  it('says a step that had changed no file changed none, and one waiting for its approval that it asks again', () => {
    const head = 'The window was closed or reloaded during the run; resume it to go on.';
    assert.equal(
      interruptedRunReason([{ id: 'S1', status: 'completed', filesChanged: ['a.txt'] }, { id: 'S2', status: 'awaiting_approval' }]),
      `${head} Step S2 was waiting for your approval, nothing of it written yet: Resume asks again.`,
    );
    assert.equal(interruptedRunReason([{ id: 'S2', status: 'running', filesChanged: [] }]), `${head} Step S2 was under way and had changed no file: Resume goes on with it.`);
    assert.equal(
      interruptedRunReason([{ id: 'a', status: 'running' }, { id: 'b', status: 'awaiting_user' }]),
      `${head} Steps a, b were under way and had changed no file: Resume goes on with them.`,
    );
  });

  it('says only how to go on when no step had started', () => {
    assert.equal(
      interruptedRunReason([
        { id: 'S1', status: 'completed' },
        { id: 'S2', status: 'pending' },
      ]),
      'The window was closed or reloaded during the run; resume it to go on.',
    );
  });

  it('says of a run stopped before its repair began which steps asked for it, and that Resume asks again', () => {
    assert.equal(
      repairCutOffReason([{ id: 'note' }, { id: 'read', replanRequested: true }]),
      'The run stopped while a repair plan was being made for read, before the repair began. Resume it to ask for the repair plan again; finished steps are not run again.',
    );
    assert.match(repairCutOffReason(['a', 'b', 'c', 'd'].map((id) => ({ id, replanRequested: true }))), / for a, b, c and 1 more, before/);
  });
});
