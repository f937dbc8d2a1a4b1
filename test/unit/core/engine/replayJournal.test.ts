import assert from 'node:assert/strict';
import { foldRunEvents } from '../../../../src/core/engine/reduceRunEvent';
import { JournalError, replayJournal } from '../../../../src/core/engine/replayJournal';
import { stampEvent, type RunEvent, type RunEventBody } from '../../../../src/core/engine/runEvents';
import type { JournalEntry, LoadedJournal } from '../../../../src/core/runStorePorts';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] })]);
const request = { id: 'b@1', fingerprint: 'f', stepId: 'b', kind: 'clarification', prompt: '?' } as const;

/** The bodies as a journal of run "r": seq from 1, time 10 apart. */
const journalOf = (bodies: RunEventBody[]): JournalEntry[] =>
  bodies.map((body, index) => stampEvent(body, 'r', index + 1, 10 * (index + 1)) as unknown as JournalEntry);
const started: RunEventBody[] = [{ type: 'run_started', plan }];
const aDone: RunEventBody[] = [
  ...started,
  { type: 'step_ready', stepId: 'a' },
  { type: 'step_started', stepId: 'a', attempt: 1 },
  { type: 'step_completed', stepId: 'a', result: 'A' },
];
const waiting: RunEventBody[] = [
  ...aDone,
  { type: 'step_ready', stepId: 'b' },
  { type: 'step_started', stepId: 'b', attempt: 1 },
  { type: 'clarification_requested', stepId: 'b', request },
  { type: 'step_deferred', stepId: 'b' },
  { type: 'run_waiting', pending: [request] },
];

/** The message `replayJournal` throws for `journal` (fails the test when it does not throw a JournalError). */
function refusal(journal: LoadedJournal, runId = 'r'): string {
  try {
    replayJournal(runId, journal);
  } catch (error) {
    assert.ok(error instanceof JournalError, `not a JournalError: ${String(error)}`);
    assert.equal(error.name, 'JournalError');
    return error.message;
  }
  assert.fail('the journal was accepted');
}
const problem = (bodies: RunEventBody[]): string => refusal({ entries: journalOf(bodies) });

describe('replayJournal', () => {
  it('folds a consistent journal into the state the engine had', () => {
    const entries = journalOf(waiting);
    const state = replayJournal('r', { entries });
    assert.deepEqual(state, foldRunEvents(entries as unknown as RunEvent[]));
    assert.equal(state.status, 'waiting');
    assert.equal(state.steps['a']?.status, 'completed');
  });

  it('names the bad line of a line-based store, or the event of one without lines, and says what to do', () => {
    const entries = journalOf(aDone);
    entries[2] = { ...entries[2]!, attempt: 0 };
    assert.equal(
      refusal({ entries, lines: [1, 2, 5, 6] }),
      'The journal of run "r" cannot be trusted: line 5: not a run event (step_started: attempt: Too small: expected number to be >=1). Resuming from it could skip or repeat work; delete the run to discard it.',
    );
    assert.match(refusal({ entries }), /: event 3: not a run event \(step_started: attempt: /);
    assert.match(refusal({ entries, lines: [1, 2] }), /: event 3: not a run event/, 'an entry without a line number is named by its place');
  });

  it('refuses an event of another run', () => {
    const entries = journalOf(aDone);
    entries[1] = { ...entries[1]!, runId: 'other' };
    assert.match(refusal({ entries }), /: event 2: the event belongs to run "other"\./);
  });

  it('refuses a repeated event and a gap, naming the missing events', () => {
    const entries = journalOf(aDone);
    assert.match(
      refusal({ entries: [entries[0]!, entries[1]!, entries[1]!, entries[2]!] }),
      /: event 3: it repeats event 2 \(a duplicated or reordered line\)\./,
    );
    assert.match(refusal({ entries: [entries[0]!, entries[2]!] }), /: event 2: event 2 is missing before it\./);
    assert.match(refusal({ entries: [entries[0]!, entries[3]!] }), /: event 2: event 2 to 3 are missing before it\./);
  });

  it('refuses a journal that does not begin with run_started', () => {
    const entries = journalOf(aDone)
      .slice(1)
      .map((entry, index) => ({ ...entry, seq: index + 1 }));
    assert.match(refusal({ entries }), /: event 1: the first event must be run_started, not step_ready\./);
  });

  it('refuses a snapshot ahead of the entries, and replays only what follows the snapshot', () => {
    const entries = journalOf(aDone);
    assert.equal(
      refusal({ entries: entries.slice(0, 2), snapshot: { seq: 3, time: 30, state: {} } }),
      'The journal of run "r" cannot be trusted: it ends at event 2 but its snapshot is at event 3, so lines are missing at its end. Delete the run to discard it.',
    );
    const atTwo = foldRunEvents(entries.slice(0, 2) as unknown as RunEvent[]);
    const state = replayJournal('r', { entries, snapshot: { seq: 2, time: 20, state: { ...atTwo, warnings: ['from the snapshot'] } } });
    assert.deepEqual(state.warnings, ['from the snapshot'], 'events up to the snapshot are not folded again');
    assert.equal(state.steps['a']?.status, 'completed');
    const atFour = foldRunEvents(entries as unknown as RunEvent[]);
    assert.deepEqual(
      replayJournal('r', { entries, snapshot: { seq: 4, time: 40, state: { ...atFour, resumeCount: 7 } } }).resumeCount,
      7,
      'a snapshot at the last event is the state',
    );
  });

  it('replays from the first event when the snapshot is not a state of this run (a damaged snapshot only costs time)', () => {
    const entries = journalOf(aDone);
    const expected = foldRunEvents(entries as unknown as RunEvent[]);
    const atTwo = foldRunEvents(entries.slice(0, 2) as unknown as RunEvent[]);
    const damaged: unknown[] = [
      {},
      null,
      'state',
      { ...atTwo, warnings: 'none' },
      { ...atTwo, runId: 'other' },
      { ...atTwo, lastSeq: 1 },
      { ...atTwo, steps: null },
      { ...atTwo, results: [] },
    ];
    for (const state of damaged) assert.deepEqual(replayJournal('r', { entries, snapshot: { seq: 2, time: 20, state } }), expected, JSON.stringify(state));
  });

  it('never changes the snapshot it starts from', () => {
    const entries = journalOf(aDone);
    const atTwo = foldRunEvents(entries.slice(0, 2) as unknown as RunEvent[]);
    const before = structuredClone(atTwo);
    replayJournal('r', { entries, snapshot: { seq: 2, time: 20, state: atTwo } });
    assert.deepEqual(atTwo, before);
  });

  it('refuses a second run_started', () => {
    assert.match(problem([...aDone, { type: 'run_started', plan }]), /: event 5: a second run_started\./);
  });

  it('refuses any event after the run completed or failed, a resume included', () => {
    for (const end of [{ type: 'run_completed' }, { type: 'run_failed', reason: 'x' }] as const) {
      const status = end.type === 'run_completed' ? 'completed' : 'failed';
      assert.match(
        problem([...aDone, end, { type: 'run_resumed', supplied: {} }]),
        new RegExp(`: event 6: run_resumed comes after the run ended \\(${status}\\)\\.`),
      );
      assert.match(
        problem([...aDone, end, { type: 'step_ready', stepId: 'b' }]),
        new RegExp(`: event 6: step_ready comes after the run ended \\(${status}\\)\\.`),
      );
    }
  });

  it('after a failed run accepts why no repair came for a step that asked for one, and nothing else (executeWithReplanning journals it)', () => {
    const asked: RunEventBody[] = [...aDone, { type: 'step_started', stepId: 'b', attempt: 1 }, { type: 'step_failed', stepId: 'b', attempt: 1, error: 'no', disposition: 'fail', replan: true }, { type: 'run_failed', reason: 'Step b failed and asked for a repair plan.' }];
    const noRepair: RunEventBody = { type: 'replan_failed', stepId: 'b', reason: 'No repair plan was made: the limit of 0 repair plans per run is used up.' };
    assert.equal(replayJournal('r', { entries: journalOf([...asked, noRepair]) }).reason, 'Step b failed and asked for a repair plan. No repair plan was made: the limit of 0 repair plans per run is used up.');
    assert.match(problem([...asked, { ...noRepair, stepId: 'a' }]), /: event 8: replan_failed comes after the run ended \(failed\)\./, 'a step that asked for none');
    assert.match(problem([...aDone, { type: 'run_completed' }, noRepair]), /: event 6: replan_failed comes after the run ended \(completed\)\./);
  });

  it('after a wait, a cancel or an interruption accepts only a resume', () => {
    const stops: [RunEventBody, string][] = [
      [{ type: 'run_waiting', pending: [] }, 'waiting'],
      [{ type: 'run_cancelled', reason: 'stop' }, 'cancelled'],
      [{ type: 'run_cancelled', reason: 'reload', interrupted: true }, 'interrupted'],
    ];
    for (const [stop, status] of stops) {
      assert.match(
        problem([...aDone, stop, { type: 'step_ready', stepId: 'b' }]),
        new RegExp(`: event 6: step_ready comes after the run ended \\(${status}\\)\\.`),
      );
      const resumed = replayJournal('r', { entries: journalOf([...aDone, stop, { type: 'run_resumed', supplied: {} }, { type: 'step_ready', stepId: 'b' }]) });
      assert.equal(resumed.steps['b']?.status, 'ready', `${status} then resumed`);
    }
  });

  it('refuses an event for a step that is not in the plan', () => {
    assert.match(problem([...started, { type: 'step_ready', stepId: 'z' }]), /: event 2: step_ready names step "z", which is not in the plan\./);
  });

  it('refuses a step that starts, completes, fails or is skipped after it finished', () => {
    const again: RunEventBody[] = [
      { type: 'step_started', stepId: 'a', attempt: 2 },
      { type: 'step_completed', stepId: 'a', result: 'again' },
      { type: 'step_failed', stepId: 'a', attempt: 2, error: 'e', disposition: 'fail' },
      { type: 'step_skipped', stepId: 'a', reason: 'r' },
    ];
    for (const event of again) assert.match(problem([...aDone, event]), new RegExp(`: event 5: ${event.type} for step "a", which is already completed\\.`));
    const skipped: RunEventBody[] = [...started, { type: 'step_skipped', stepId: 'a', reason: 'not needed' }];
    assert.match(problem([...skipped, { type: 'step_started', stepId: 'a', attempt: 1 }]), /: event 3: step_started for step "a", which is already skipped\./);
    // Other events about a finished step (a late warning) are history the engine writes.
    assert.equal(
      replayJournal('r', { entries: journalOf([...aDone, { type: 'step_warning', stepId: 'a', message: 'late' }]) }).steps['a']?.status,
      'completed',
    );
  });

  it('refuses a completion of a step that never started, and accepts one that waited for an answer', () => {
    assert.match(
      problem([...started, { type: 'step_ready', stepId: 'a' }, { type: 'step_completed', stepId: 'a', result: 'A' }]),
      /: event 3: step "a" completed but was never started\./,
    );
    const answered: RunEventBody[] = [
      ...started,
      { type: 'step_ready', stepId: 'a' },
      { type: 'step_started', stepId: 'a', attempt: 1 },
      { type: 'approval_requested', stepId: 'a', request: { ...request, stepId: 'a', kind: 'approval' } },
      { type: 'step_completed', stepId: 'a', result: 'A' },
    ];
    assert.equal(replayJournal('r', { entries: journalOf(answered) }).steps['a']?.status, 'completed');
  });

  it('accepts restored results only right after the start', () => {
    const restored: RunEventBody[] = [
      ...started,
      { type: 'step_completed', stepId: 'a', result: 'A', restored: true },
      { type: 'step_completed', stepId: 'b', result: 'B', restored: true },
    ];
    const state = replayJournal('r', { entries: journalOf(restored) });
    assert.deepEqual([state.steps['a']?.status, state.steps['b']?.status], ['completed', 'completed']);
    assert.match(
      problem([...started, { type: 'step_ready', stepId: 'a' }, { type: 'step_completed', stepId: 'a', result: 'A', restored: true }]),
      /: event 3: step "a" has a result restored after the run had begun\./,
    );
    assert.match(
      problem([...aDone, { type: 'step_completed', stepId: 'b', result: 'B', restored: true }]),
      /: event 5: step "b" has a result restored after the run had begun\./,
      'after an ordinary completion',
    );
  });
});
