import assert from 'node:assert/strict';
import type { RunState } from '../../../../src/core/engine/runEvents';
import { runListModel } from '../../../../src/core/view/runListModel';
import { interruptedLook, stepStatusView } from '../../../../src/core/view/stepStatusView';
import { makePlan, makeStep } from '../../../support/randomPlans';

describe('runListModel', () => {
  it('shows stored runs with status, progress and a resumable context value when interrupted', () => {
    const plan = makePlan([makeStep('a'), makeStep('b')]);
    const base: Omit<RunState, "runId" | "status" | "steps"> = { plan, results: {}, supplied: {}, lastSeq: 3, warnings: [], resumeCount: 0 };
    const nodes = runListModel(
      [
        { state: { ...base, runId: 'r2', status: 'running', steps: { a: { id: 'a', status: 'completed', attempts: 1 }, b: { id: 'b', status: 'awaiting_approval', attempts: 1, pending: { id: 'b@1', fingerprint: 'f', stepId: 'b', kind: 'approval', prompt: 'write x' } } } }, updatedAt: 2, active: false, undone: false, undoable: false },
        { state: { ...base, runId: 'r1', status: 'completed', steps: {} }, updatedAt: 1, active: false, undone: false, undoable: false },
      ],
      (ms) => `t${ms}`,
    );
    assert.deepEqual(nodes.map((node) => [node.label, node.description, node.contextValue]), [
      ['test objective', 'interrupted · 1/2 · t2', 'run.interrupted'],
      ['test objective', 'completed · 0/2 · t1', 'run.completed'],
    ]);
    assert.match(nodes[0]!.tooltip, /Waiting: b: write x/);
    assert.deepEqual(nodes.map((node) => node.accessibilityLabel), ['test objective, interrupted, 1/2, t2, 1 of 2 steps completed, waiting for you on 1 step', 'test objective, completed, 0/2, t1, 0 of 2 steps completed']);
  });

  // A newcomer's find (2026-12-01): a run with three repairs was four rows alike ("Let users remove a note by id", failed,
  // the same time); only the hover told them apart.
  it('tells the runs of a repaired run apart: each repair says which it is, and the run it replaced says so', () => {
    const plan = makePlan([makeStep('a')]);
    const base = { plan, steps: {}, results: {}, supplied: {}, lastSeq: 4, warnings: [], resumeCount: 0 };
    const record = (replan: number, failedRunId: string) => ({ replan, failedRunId }) as NonNullable<RunState['replanHistory']>[number];
    const runs: RunState[] = [
      { ...base, runId: 'r-replan-2', status: 'completed', replanHistory: [record(1, 'r'), record(2, 'r-replan-1')] },
      { ...base, runId: 'r-replan-1', status: 'failed', replanHistory: [record(1, 'r')] },
      { ...base, runId: 'r', status: 'failed' },
    ];
    const nodes = runListModel(runs.map((state) => ({ state, updatedAt: 1, active: false, undone: false, undoable: false })), (ms) => `t${ms}`);
    // Said in the label, which a narrow sidebar keeps: a trial could not tell which row Undo took back, their titles alike.
    assert.deepEqual(nodes.map((node) => [node.label, node.description]), [
      ['test objective (repair 2)', 'completed · 0/1 · t1'],
      ['test objective (repair 1, replaced by repair 2)', 'replaced · 0/1 · t1'],
      ['test objective (replaced by repair 1)', 'replaced · 0/1 · t1'],
    ]);
    assert.match(nodes[1]!.accessibilityLabel ?? '', /^test objective \(repair 1, replaced by repair 2\), replaced, 0\/1/);
    // A run a repair replaced is neither failed nor done: its cross read as the task failed beside the repair's check (a trial).
    assert.deepEqual(nodes.map((node) => node.icon), ['pass-filled', 'history', 'history']);
    assert.match(nodes[2]!.tooltip, /^Status: replaced by repair 1, after a step asked for a repair plan \(run r\)$/m);
    assert.equal(nodes[2]!.contextValue, 'run.failed', 'its actions (Undo, Delete) stay a failed run\'s');
  });

  it('counts failed and skipped steps apart, never as done', () => {
    const plan = makePlan([makeStep('a'), makeStep('b')]);
    const state: RunState = { runId: 'r4', status: 'failed', plan, steps: { a: { id: 'a', status: 'failed', attempts: 1 }, b: { id: 'b', status: 'skipped', attempts: 0 } }, results: {}, supplied: {}, lastSeq: 4, warnings: [], resumeCount: 0 };
    const [node] = runListModel([{ state, updatedAt: 5, active: false, undone: false, undoable: false }], (ms) => `t${ms}`);
    assert.equal(node?.description, 'failed · 0/2 · t5');
    assert.equal(node?.accessibilityLabel, 'test objective, failed, 0/2, t5, 0 of 2 steps completed, 1 failed, 1 skipped');
  });

  it('a run journaled as interrupted (a window reload) is listed as interrupted and resumable, not cancelled', () => {
    const plan = makePlan([makeStep('a')]);
    const state: RunState = { runId: 'r3', status: 'interrupted', plan, steps: {}, results: {}, supplied: {}, lastSeq: 4, warnings: [], resumeCount: 0, reason: 'The window was reloaded.' };
    const [node] = runListModel([{ state, updatedAt: 3, active: false, undone: false, undoable: false }], (ms) => `t${ms}`);
    assert.equal(node?.contextValue, 'run.interrupted');
    assert.equal(node?.description, 'interrupted · 0/1 · t3');
    assert.match(node?.tooltip ?? '', /Reason: The window was reloaded\./);
    // A trial could not tell it from a step that waits for earlier steps: both showed the same pause "||".
    assert.notEqual(node?.icon, stepStatusView('blocked').icon);
    assert.equal(node?.icon, interruptedLook.icon);
  });

  it('shows an active run spinning, a run without a plan by its id, and says how many steps wait for the user', () => {
    const pending = (id: string) => ({ id: `${id}@1`, fingerprint: 'f', stepId: id, kind: 'approval' as const, prompt: `approve ${id}` });
    const state: RunState = {
      runId: 'r5', status: 'running', plan: undefined, steps: { a: { id: 'a', status: 'awaiting_approval', attempts: 1, pending: pending('a') }, b: { id: 'b', status: 'awaiting_approval', attempts: 1, pending: pending('b') }, c: { id: 'c', status: 'completed', attempts: 1 } },
      results: {}, supplied: {}, lastSeq: 9, warnings: [], resumeCount: 0,
    };
    const [node] = runListModel([{ state, updatedAt: 7, active: true, undone: false, undoable: false }], (ms) => `t${ms}`);
    assert.deepEqual(node, {
      id: 'run:r5',
      label: 'r5',
      description: 'running · 1/3 · t7',
      accessibilityLabel: 'r5, running, 1/3, t7, 1 of 3 steps completed, waiting for you on 2 steps',
      tooltip: 'r5\nStatus: running (run r5)\nLast ran: t7\nWaiting: a: approve a\nWaiting: b: approve b',
      icon: 'sync~spin',
      color: 'charts.yellow',
      contextValue: 'run.running',
      children: [],
    });
  });

  it("names a run by its request on one line, bounded, and its tooltip by the request before the run's id", () => {
    const objective = `Create CONTRIBUTING.md\n- Add a link from the README\n- Run \`npm test\`${' and more'.repeat(200)}`;
    const state: RunState = {
      runId: 'r6', status: 'completed', plan: { id: 'p', version: 1, objective, createdAt: '', agents: {}, steps: [] },
      steps: {}, results: {}, supplied: {}, lastSeq: 1, warnings: [], resumeCount: 0,
    };
    const [node] = runListModel([{ state, updatedAt: 1, active: false, undone: false, undoable: false }], String);
    assert.ok(node);
    assert.ok(node.label.startsWith('Create CONTRIBUTING.md - Add a link from the README - Run `npm test` and more'), node.label);
    assert.ok(!node.label.includes('\n') && node.label.length <= 200 && node.label.endsWith('…'), node.label);
    assert.match(node.tooltip, /^Create CONTRIBUTING\.md - Add a link/);
    assert.match(node.tooltip, /\nStatus: completed \(run r6\)\nLast ran: 1$/);
  });

  it('says when Undo took back a run\'s changes, keeping its outcome (a newcomer saw "completed" and no sign of the Undo)', () => {
    const state: RunState = {
      runId: 'r7', status: 'completed', plan: makePlan([makeStep('a')]), steps: { a: { id: 'a', status: 'completed', attempts: 1 } },
      results: {}, supplied: {}, lastSeq: 2, warnings: [], resumeCount: 0,
    };
    const [undone, kept] = runListModel([{ state, updatedAt: 3, active: false, undone: true, undoable: false }, { state, updatedAt: 3, active: false, undone: false, undoable: false }], (ms) => `t${ms}`);
    assert.equal(undone?.description, 'completed · changes undone · 1/1 · t3');
    assert.equal(kept?.description, 'completed · 1/1 · t3');
    // Its tooltip says so too: a narrow sidebar cuts the description (a newcomer saw no mark of the Undo).
    assert.match(undone?.tooltip ?? '', /\nStatus: completed · changes undone \(run /);
    assert.doesNotMatch(kept?.tooltip ?? '', /undone/);
    assert.equal(undone?.contextValue, 'run.completed');
    // A newcomer's find (2026-12-01): after an Undo that left a file alone, the row said "changes undone".
    const [some] = runListModel([{ state, updatedAt: 3, active: false, undone: true, undoable: true }], (ms) => `t${ms}`);
    assert.equal(some?.description, 'completed · some changes undone · 1/1 · t3');
    // Not the green check of a run whose work is in the files (a newcomer's trial: only the tooltip said it).
    assert.deepEqual([undone?.icon, some?.icon, kept?.icon], ['discard', 'discard', 'pass-filled']);
    assert.notEqual(undone?.color, 'testing.iconPassed');
  });

  it('offers Undo (context value .undoable) only for a run with a change left to take back, and never while it goes on', () => {
    const state = (status: RunState['status']): RunState => ({
      runId: 'r8', status, plan: makePlan([makeStep('a')]), steps: { a: { id: 'a', status: 'completed', attempts: 1 } },
      results: {}, supplied: {}, lastSeq: 2, warnings: [], resumeCount: 0,
    });
    const contexts = runListModel(
      [
        { state: state('completed'), updatedAt: 1, active: false, undone: false, undoable: true },
        { state: state('completed'), updatedAt: 1, active: false, undone: true, undoable: false },
        { state: state('waiting'), updatedAt: 1, active: false, undone: false, undoable: true },
        // Cut off by a reload: it can be undone, as the CLI's message says ("resume it, or undo it").
        { state: state('running'), updatedAt: 1, active: false, undone: false, undoable: true },
        { state: state('running'), updatedAt: 1, active: true, undone: false, undoable: true },
      ],
      String,
    ).map((node) => node.contextValue);
    assert.deepEqual(contexts, ['run.completed.undoable', 'run.completed', 'run.waiting.undoable', 'run.interrupted.undoable', 'run.running']);
  });

  it('lists a run that failed asking for a repair plan, with no repair run of it listed, as interrupted and resumable', () => {
    const plan = makePlan([makeStep('a'), makeStep('b', { onFailure: 'replan' })]);
    const base = { plan, results: { a: 'A' }, supplied: {}, lastSeq: 6, warnings: [], resumeCount: 0, reason: 'Step b failed and asked for a repair plan.' };
    const steps = { a: { id: 'a', status: 'completed' as const, attempts: 1 }, b: { id: 'b', status: 'failed' as const, attempts: 1, replanRequested: true } };
    const failed: RunState = { ...base, runId: 'r', status: 'failed', steps };
    const row = (states: RunState[], active = false) => runListModel(states.map((state) => ({ state, updatedAt: 1, active, undone: false, undoable: false })), (ms) => `t${ms}`);
    const [alone] = row([failed]);
    assert.equal(alone?.contextValue, 'run.interrupted');
    assert.equal(alone?.description, 'interrupted · 1/2 · t1');
    assert.match(alone?.tooltip ?? '', /stopped before its repair plan was made: Resume asks for it/);
    const repair: RunState = { ...base, runId: 'r-replan-1', status: 'running', steps, replanHistory: [{ replan: 1, failedRunId: 'r' } as NonNullable<RunState['replanHistory']>[number]] };
    assert.equal(row([repair, failed])[1]?.contextValue, 'run.failed', 'its repair run is listed: the repair began');
    assert.equal(row([{ ...failed, repairGivenUp: true }])[0]?.contextValue, 'run.failed', 'no repair plan will come');
  });
});
