import { appendTail, type HostMessage, type HostToWebviewMessage } from '../src/shared/panelProtocol';
import type { PanelViewModel } from '../src/shared/panelViewModel';
import { patchRunView } from '../src/shared/runViewDelta';
import type { FormValues } from './stepFormModel';

/** The streamed output the webview holds: each step's tail, and the last chunk applied. */
export interface OutputState {
  runId?: string;
  /** Seq of the last chunk applied (0 before any). */
  lastSeq: number;
  tails: Record<string, string>;
  /** True between noticing a gap and receiving `outputResync`: chunks are ignored meanwhile. */
  awaitingResync: boolean;
}

/** Counters of what arrived, for tests and diagnostics. */
export interface StoreStats {
  received: number;
  applied: number;
  /** Snapshots dropped because they were not newer than the one shown. */
  stale: number;
  /** Applied snapshots whose version skipped numbers in the same session. */
  versionGaps: number;
  resyncs: number;
  /** Run deltas applied (counted in `received` and `applied` too). */
  deltas?: number;
}

/**
 * What the user typed in the review and has not sent yet: the open step form's fields, the Add step form's, the
 * Regenerate feedback. Kept in the saved state, so hiding the panel (its page is torn down) or reloading the window
 * loses none of it; it belongs to the plan `planId` (any of its versions) and goes with that review.
 */
export interface ReviewDraft {
  planId: string;
  /** The step whose edit form is open, and what its fields hold. */
  editing?: { stepId: string; values: FormValues };
  /** What the Add step form's fields hold, while it is open. */
  adding?: FormValues;
  /** The Regenerate feedback typed and not sent. */
  feedback?: string;
}

/** Everything the panel keeps; plain JSON, so it survives hide/show through `setState`. */
export interface PanelState {
  model?: PanelViewModel;
  /** What was typed in the review and not sent (see `ReviewDraft`). */
  draft?: ReviewDraft;
  /** True between a run delta that did not fit the version shown and the next snapshot: deltas are ignored meanwhile. */
  awaitingSnapshot?: boolean;
  output: OutputState;
  stats: StoreStats;
}

/** A resync request to post to the host. */
export interface ResyncRequest {
  runId: string;
  afterSeq: number;
}

/** The state of a panel that has received nothing. */
export function emptyPanelState(): PanelState {
  return { output: { lastSeq: 0, tails: {}, awaitingResync: false }, stats: { received: 0, applied: 0, stale: 0, versionGaps: 0, resyncs: 0 } };
}

/**
 * Shows `model` unless it is stale: a snapshot of the same session whose version is not
 * newer than the one shown is dropped. A snapshot of another session (a new panel host)
 * replaces the old one. Output of a run the snapshot no longer shows is forgotten, and so is
 * a draft of a review it no longer shows.
 */
export function applySnapshot(state: PanelState, model: PanelViewModel): { state: PanelState; applied: boolean } {
  const current = state.model;
  const received = state.stats.received + 1;
  if (current && current.session === model.session && model.version <= current.version) {
    return { state: { ...state, stats: { ...state.stats, received, stale: state.stats.stale + 1 } }, applied: false };
  }
  const gap = current !== undefined && current.session === model.session && model.version !== current.version + 1;
  const runId = model.mode === 'run' ? model.run.runId : undefined;
  const output = runId !== undefined && runId === state.output.runId ? state.output : { runId, lastSeq: 0, tails: {}, awaitingResync: false };
  // What was typed stays while the review of its plan shows (the host's snapshot after a hide or a reload included).
  const draft = state.draft !== undefined && model.mode === 'review' && model.review.planId === state.draft.planId ? { draft: state.draft } : {};
  return {
    state: { model, ...draft, output, stats: { ...state.stats, received, applied: state.stats.applied + 1, versionGaps: state.stats.versionGaps + (gap ? 1 : 0) } },
    applied: true,
  };
}

/**
 * Applies a run delta to the version shown when it is exactly the delta's base in the same
 * session. Otherwise (a message lost, a state restored from an earlier version, changes that
 * do not fit) nothing changes and `resync` says to ask the host for the whole snapshot: once,
 * ignoring deltas until a snapshot arrives.
 */
export function applyRunDelta(state: PanelState, delta: HostMessage<'runDelta'>): { state: PanelState; applied: boolean; resync?: true } {
  const stats = { ...state.stats, received: state.stats.received + 1 };
  if (state.awaitingSnapshot) return { state: { ...state, stats }, applied: false };
  const model = state.model;
  const fits = model?.mode === 'run' && model.session === delta.session && model.version === delta.base;
  const run = fits ? patchRunView(model.run, delta.changes) : undefined;
  if (!fits || !run) return { state: { ...state, awaitingSnapshot: true, stats }, applied: false, resync: true };
  return {
    state: { ...state, model: { ...model, run, version: delta.version }, stats: { ...stats, applied: stats.applied + 1, deltas: (stats.deltas ?? 0) + 1 } },
    applied: true,
  };
}

/**
 * Appends one output chunk. Chunks must arrive in `seq` order without holes: a duplicate
 * is ignored, a hole (or a first chunk that is not seq 1) asks for a resync, and chunks
 * are ignored until it arrives.
 */
export function applyOutputChunk(state: PanelState, chunk: Extract<HostToWebviewMessage, { type: 'output' }>): { state: PanelState; resync?: ResyncRequest } {
  const sameRun = state.output.runId === chunk.runId;
  const output: OutputState = sameRun ? state.output : { runId: chunk.runId, lastSeq: 0, tails: {}, awaitingResync: false };
  if (output.awaitingResync || chunk.seq <= output.lastSeq) return { state: sameRun ? state : { ...state, output } };
  if (chunk.seq !== output.lastSeq + 1) {
    return {
      state: { ...state, output: { ...output, awaitingResync: true }, stats: { ...state.stats, resyncs: state.stats.resyncs + 1 } },
      resync: { runId: chunk.runId, afterSeq: output.lastSeq },
    };
  }
  const tails = { ...output.tails, [chunk.stepId]: appendTail(output.tails[chunk.stepId] ?? '', chunk.text) };
  return { state: { ...state, output: { ...output, lastSeq: chunk.seq, tails } } };
}

/** Replaces the output with the host's tails up to `seq`; later chunks then apply in order. */
export function applyOutputResync(state: PanelState, message: Extract<HostToWebviewMessage, { type: 'outputResync' }>): PanelState {
  if (state.output.runId === message.runId && !state.output.awaitingResync && message.seq < state.output.lastSeq) return state;
  return { ...state, output: { runId: message.runId, lastSeq: message.seq, tails: { ...message.tails }, awaitingResync: false } };
}

/**
 * `state` with `draft` as what was typed in the review (`undefined`, or a draft with nothing typed: none); the same
 * state when nothing changed.
 */
export function withDraft(state: PanelState, draft: ReviewDraft | undefined): PanelState {
  const kept = draft && (draft.editing !== undefined || draft.adding !== undefined || (draft.feedback ?? '') !== '') ? draft : undefined;
  if (JSON.stringify(kept) === JSON.stringify(state.draft)) return state;
  const { draft: _old, ...rest } = state;
  return kept ? { ...rest, draft: kept } : rest;
}
