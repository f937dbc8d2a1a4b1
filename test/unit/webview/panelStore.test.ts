import assert from 'node:assert/strict';
import type { PanelViewModel, ReviewView } from '../../../src/shared/panelViewModel';
import type { RunViewChanges } from '../../../src/shared/panelProtocol';
import { applyOutputChunk, applyOutputResync, applyRunDelta, applySnapshot, emptyPanelState, withDraft, type PanelState, type ReviewDraft } from '../../../webview/panelStore';

const empty = (version: number, session = 's1'): PanelViewModel => ({ mode: 'empty', session, version });
const run = (version: number, runId = 'run-1'): PanelViewModel => ({
  mode: 'run',
  session: 's1',
  version,
  run: { runId, status: 'running', objective: 'o', planVersion: 1, elapsedMs: 0, progress: { total: 0, completed: 0, failed: 0, rejected: 0, skipped: 0, notNeeded: 0, doneInSource: 0 }, steps: [], pending: [], timeline: { spanMs: 1, lanes: 0, bars: [] }, replans: [], warnings: [] },
});
const chunk = (seq: number, text: string, stepId = 'a', runId = 'run-1') => ({ type: 'output' as const, runId, seq, stepId, text });

describe('webview panel store: snapshots', () => {
  it('applies newer snapshots and drops stale or repeated ones', () => {
    let state = applySnapshot(emptyPanelState(), empty(1)).state;
    const newer = applySnapshot(state, empty(2));
    assert.equal(newer.applied, true);
    state = newer.state;
    for (const version of [2, 1]) {
      const stale = applySnapshot(state, empty(version));
      assert.equal(stale.applied, false);
      assert.equal(stale.state.model?.version, 2);
      state = stale.state;
    }
    assert.deepEqual(state.stats, { received: 4, applied: 2, stale: 2, versionGaps: 0, resyncs: 0 });
  });

  it('counts skipped versions, and accepts any version from a new session', () => {
    let state = applySnapshot(emptyPanelState(), empty(1)).state;
    state = applySnapshot(state, empty(3)).state;
    assert.equal(state.stats.versionGaps, 1);
    const other = applySnapshot(state, empty(1, 's2'));
    assert.equal(other.applied, true);
    assert.equal(other.state.model?.session, 's2');
    assert.equal(other.state.stats.versionGaps, 1);
  });

  it('keeps the output of the same run and forgets it for another run', () => {
    let state = applySnapshot(emptyPanelState(), run(1)).state;
    state = applyOutputChunk(state, chunk(1, 'hello')).state;
    state = applySnapshot(state, run(2)).state;
    assert.equal(state.output.tails.a, 'hello');
    state = applySnapshot(state, run(3, 'run-2')).state;
    assert.deepEqual(state.output, { runId: 'run-2', lastSeq: 0, tails: {}, awaitingResync: false });
  });
});

describe('webview panel store: streamed output', () => {
  it('appends chunks in order, per step, and ignores duplicates', () => {
    let state = emptyPanelState();
    for (const [seq, text, step] of [[1, 'a1 ', 'a'], [2, 'b1 ', 'b'], [3, 'a2', 'a'], [2, 'dup', 'b']] as const) {
      const result = applyOutputChunk(state, chunk(seq, text, step));
      assert.equal(result.resync, undefined);
      state = result.state;
    }
    assert.deepEqual(state.output.tails, { a: 'a1 a2', b: 'b1 ' });
    assert.equal(state.output.lastSeq, 3);
  });

  it('asks for a resync on a gap, ignores chunks until it arrives, then continues in order', () => {
    let state = applyOutputChunk(emptyPanelState(), chunk(1, 'one ')).state;
    const gap = applyOutputChunk(state, chunk(3, 'three '));
    assert.deepEqual(gap.resync, { runId: 'run-1', afterSeq: 1 });
    state = gap.state;
    assert.equal(state.output.awaitingResync, true);
    const ignored = applyOutputChunk(state, chunk(4, 'four '));
    assert.equal(ignored.resync, undefined);
    assert.equal(ignored.state.output.tails.a, 'one ');
    state = applyOutputResync(ignored.state, { type: 'outputResync', runId: 'run-1', seq: 4, tails: { a: 'one two three four ' } });
    state = applyOutputChunk(state, chunk(5, 'five')).state;
    assert.equal(state.output.tails.a, 'one two three four five');
    assert.equal(state.output.awaitingResync, false);
    assert.equal(state.stats.resyncs, 1);
  });

  it('treats a first chunk that is not seq 1 as a gap', () => {
    const result = applyOutputChunk(emptyPanelState(), chunk(7, 'late joiner'));
    assert.deepEqual(result.resync, { runId: 'run-1', afterSeq: 0 });
  });

  it('ignores a resync older than what it already shows', () => {
    const state = applyOutputChunk(applyOutputChunk(emptyPanelState(), chunk(1, 'a')).state, chunk(2, 'b')).state;
    assert.equal(applyOutputResync(state, { type: 'outputResync', runId: 'run-1', seq: 1, tails: { a: 'a' } }), state);
  });
});

describe('webview panel store: run deltas', () => {
  const changes = (objective: string): RunViewChanges => ({ set: { objective }, unset: [], steps: [], timeline: { spanMs: 1, lanes: 0, length: 0, bars: [] } });
  const delta = (base: number, objective: string, session = 's1') => ({ type: 'runDelta' as const, session, base, version: base + 1, changes: changes(objective) });
  const objective = (state: ReturnType<typeof emptyPanelState>): string | undefined => (state.model?.mode === 'run' ? state.model.run.objective : undefined);

  it('applies deltas in order on top of the snapshot they were made from', () => {
    let state = applySnapshot(emptyPanelState(), run(1)).state;
    for (const [base, text] of [[1, 'two'], [2, 'three']] as const) {
      const result = applyRunDelta(state, delta(base, text));
      assert.deepEqual([result.applied, result.resync], [true, undefined]);
      state = result.state;
    }
    assert.deepEqual([objective(state), state.model?.version, state.stats.deltas], ['three', 3, 2]);
  });

  it('asks once for a whole snapshot on a gap, ignores deltas until it comes, then applies them again', () => {
    let state = applySnapshot(emptyPanelState(), run(1)).state;
    const gap = applyRunDelta(state, delta(2, 'skipped a version'));
    assert.deepEqual([gap.applied, gap.resync], [false, true]);
    const meanwhile = applyRunDelta(gap.state, delta(1, 'would fit the old version'));
    assert.deepEqual([meanwhile.applied, meanwhile.resync, objective(meanwhile.state)], [false, undefined, 'o']);
    state = applySnapshot(meanwhile.state, run(5)).state;
    assert.equal(state.awaitingSnapshot, undefined);
    const after = applyRunDelta(state, delta(5, 'back in step'));
    assert.deepEqual([after.applied, objective(after.state)], [true, 'back in step']);
  });

  it('does not patch a panel of another session or one showing no run', () => {
    const otherSession = applyRunDelta(applySnapshot(emptyPanelState(), run(1)).state, delta(1, 'x', 's2'));
    assert.deepEqual([otherSession.applied, otherSession.resync], [false, true]);
    const noRun = applyRunDelta(applySnapshot(emptyPanelState(), empty(1)).state, delta(1, 'x'));
    assert.deepEqual([noRun.applied, noRun.resync], [false, true]);
  });
});

describe('attack: webview panel store keeps what was typed and not sent', () => {
  const review = (version: number, planId = 'plan-1'): PanelViewModel => ({ mode: 'review', session: 's1', version, review: { planId, planVersion: version } as ReviewView });
  const typed: ReviewDraft = { planId: 'plan-1', editing: { stepId: 'S2', values: { title: 'A title typed by hand' } }, feedback: 'fewer steps' };

  it('attack: what a step form held survives the hide or reload that tore the page down (the saved state) and the snapshot the host sends then', () => {
    let state = withDraft(applySnapshot(emptyPanelState(), review(1)).state, typed);
    // The page is torn down: what comes back is the saved state, as JSON.
    state = JSON.parse(JSON.stringify(state)) as PanelState;
    state = applySnapshot(state, { ...review(1), session: 's1', version: 2 }).state;
    assert.deepEqual(state.draft, typed);
  });

  it('a draft goes with its review: not kept for another plan or a run', () => {
    const state = withDraft(applySnapshot(emptyPanelState(), review(1)).state, typed);
    assert.equal(applySnapshot(state, review(2, 'plan-2')).state.draft, undefined);
    assert.equal(applySnapshot(state, run(3)).state.draft, undefined);
  });

  it('a draft with nothing typed is none, and an unchanged one changes nothing', () => {
    const state = withDraft(applySnapshot(emptyPanelState(), review(1)).state, typed);
    assert.equal(withDraft(state, { ...typed }), state);
    assert.equal(withDraft(state, { planId: 'plan-1' }).draft, undefined);
    assert.equal('draft' in withDraft(state, undefined), false);
  });
});
