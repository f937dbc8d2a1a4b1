import assert from 'node:assert/strict';
import type { PanelViewModel } from '../../../src/shared/panelViewModel';
import { applyOutputChunk, applyOutputResync, applySnapshot, emptyPanelState } from '../../../webview/panelStore';

const empty = (version: number, session = 's1'): PanelViewModel => ({ mode: 'empty', session, version });
const run = (version: number, runId = 'run-1'): PanelViewModel => ({
  mode: 'run',
  session: 's1',
  version,
  run: { runId, status: 'running', objective: 'o', planVersion: 1, elapsedMs: 0, progress: { total: 0, completed: 0, failed: 0, skipped: 0, notNeeded: 0 }, steps: [], pending: [], timeline: { spanMs: 1, lanes: 0, bars: [] }, replans: [], warnings: [] },
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
