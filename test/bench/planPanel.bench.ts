// The plan panel during a large run (issue 32 item 6): what folding a run's events costs the views that
// follow it, and how busy the extension host is while a 5,000-step run streams its events to an open panel.
// The run is real (runPlan; steps that take 0.5–1.5 s, 8 at a time); each event is folded as the editor's
// RunController folds it (ExecutionFold) and handed to the panel's publisher as PlanPanel hands it; the
// webview is faked at the port: each message is serialized as VS Code's webview.postMessage serializes it,
// and applied by the webview's store after the window. Time is simulated as on a core of the host's own
// (DedicatedCoreClock): sleeps and timers, plus the CPU time the code took.
import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../src/core/engine/memoryRunStore';
import type { RunEvent, RunState } from '../../src/core/engine/runEvents';
import type { Plan } from '../../src/core/plan/planSchema';
import { ExecutionFold } from '../../src/core/replan/executionFold';
import { reduceExecutionEvent } from '../../src/core/replan/reduceExecutionEvent';
import { PanelSession } from '../../src/core/view/panelSession';
import { runPlan } from '../../src/node/nodeLibrary';
import type { HostToWebviewMessage } from '../../src/shared/panelProtocol';
import { deltaMinSteps, PanelPublisher } from '../../src/vscode/panelPublisher';
import { applyOutputChunk, applyRunDelta, applySnapshot, emptyPanelState, type PanelState } from '../../webview/panelStore';
import { makePlan, makeStep, seededRandom } from '../support/randomPlans';
import { checkTarget } from './benchTargets';
import { DedicatedCoreClock } from './dedicatedCoreClock';

const steps = 5_000;
const width = 8;
const stepMs = 1_000;
const warmUpMs = 3_000;
const windowMs = 10_000;

/** `steps` steps in `width` chains: `width` can always run together. */
function widePlan(): Plan {
  return makePlan(Array.from({ length: steps }, (_, index) => makeStep(`S${index}`, { dependsOn: index >= width ? [`S${index - width}`] : [] })));
}

/** What VS Code's extension host does with a posted message: JSON with a replacer that takes out binary buffers. */
function serializeAsVsCode(message: HostToWebviewMessage): string {
  return JSON.stringify(message, (_key, value: unknown) => (value instanceof ArrayBuffer || ArrayBuffer.isView(value) ? null : value));
}

interface Window {
  busy: number;
  /** Updates of the run's view sent while the window ran (the run's end left out), and their mean size in characters. */
  updates: number;
  bytesPerUpdate: number;
  completed: number;
}

/** The panel closed, open with whole snapshots only (as before deltas), or open as the editor has it. */
type Panel = 'closed' | 'whole snapshots' | 'open';

/** Runs the plan for `windowMs` after `warmUpMs` with the panel as `panel` says, then cancels it; the webview applies what it was sent. */
async function measure(plan: Plan, panel: Panel): Promise<Window> {
  const panelOpen = panel !== 'closed';
  const clock = new DedicatedCoreClock();
  const random = seededRandom(7);
  const session = new PanelSession('bench', []);
  const sent: string[] = [];
  const publisher = new PanelPublisher(session, { listening: () => true, post: (message) => sent.push(serializeAsVsCode(message)) }, undefined, clock, panel === 'open' ? deltaMinSteps : Infinity);
  let state: RunState | undefined;
  let shown = false;
  const fold = new ExecutionFold();
  const onEvent = (event: RunEvent): void => {
    state = fold.after(state, event);
    if (!panelOpen) return;
    if (shown) return publisher.runEvent(event, state);
    session.showRun(state, true);
    shown = true;
    publisher.publish();
  };
  const handle = await clock.run(() => {
    const run = runPlan(plan, {
      store: createMemoryRunStore(),
      maxConcurrency: width,
      clock,
      stepRunner: async (step, ctx) => {
        await clock.sleep(stepMs * (0.5 + random()), ctx.signal);
        return step.id;
      },
    });
    run.events.subscribe(onEvent);
    return run;
  });
  await clock.runFor(warmUpMs);
  const [busyBefore, started, sentBefore] = [clock.busyMs, clock.now(), sent.length];
  await clock.runFor(windowMs);
  const busy = (clock.busyMs - busyBefore) / (clock.now() - started);
  // The updates while the run runs: not the one its end sends (every step not started then changes at once).
  const inWindow = sent.slice(sentBefore).filter((text) => !text.startsWith('{"type":"output'));
  let ended = false;
  void handle.result.then(() => (ended = true));
  await clock.run(() => handle.cancel('bench window over'));
  while (!ended) await clock.runFor(1_000);
  const updates = sent.filter((text) => !text.startsWith('{"type":"output'));
  let webview: PanelState = emptyPanelState();
  for (const text of sent) {
    const message = JSON.parse(text) as HostToWebviewMessage;
    if (message.type === 'snapshot') webview = applySnapshot(webview, message.model).state;
    else if (message.type === 'runDelta') webview = applyRunDelta(webview, message).state;
    else if (message.type === 'output') webview = applyOutputChunk(webview, message).state;
  }
  if (panelOpen) {
    const last = session.snapshot(clock.now());
    if (webview.stats.applied !== updates.length || webview.model?.mode !== 'run' || last.mode !== 'run' || webview.model.run.status !== 'cancelled') {
      throw new Error(`the webview applied ${webview.stats.applied} of ${updates.length} updates and shows ${webview.model?.mode ?? 'nothing'}`);
    }
    // What the webview pieced together is what a whole snapshot of the ended run shows.
    assert.deepStrictEqual(webview.model.run, last.run);
  }
  return {
    busy,
    updates: inWindow.length,
    bytesPerUpdate: inWindow.reduce((sum, text) => sum + text.length, 0) / Math.max(1, inWindow.length),
    completed: Object.values(state?.steps ?? {}).filter((step) => step.status === 'completed').length,
  };
}

function describe(window: Window): string {
  return (
    `busy ${(window.busy * 100).toFixed(1)} %, ${window.updates} updates in the window, ` +
    `${(window.bytesPerUpdate / 1024).toFixed(1)} KiB on average; ${window.completed} steps completed`
  );
}

/** Every event of a run of `size` steps that all complete, numbered as the engine numbers them. */
function completedRunEvents(size: number): RunEvent[] {
  const plan = makePlan(Array.from({ length: size }, (_, index) => makeStep(`S${index}`)));
  const bodies = [
    { type: 'run_started' as const, plan },
    ...plan.steps.flatMap((step) => [
      { type: 'step_started' as const, stepId: step.id, attempt: 1 },
      { type: 'step_completed' as const, stepId: step.id, result: `result of ${step.id}` },
    ]),
    { type: 'run_completed' as const },
  ];
  return bodies.map((body, index) => ({ ...body, runId: 'fold-bench', seq: index + 1, time: index }));
}

/** Milliseconds to fold `events` with `fold`, the best of three. */
function foldMs(events: readonly RunEvent[], fold: () => (state: RunState | undefined, event: RunEvent) => RunState): number {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const next = fold();
    const started = performance.now();
    let state: RunState | undefined;
    for (const event of events) state = next(state, event);
    best = Math.min(best, performance.now() - started);
    if (state?.status !== 'completed') throw new Error('the folded run did not complete');
  }
  return best;
}

/**
 * Following a run in the editor: its events folded into the state the views show, in place (ExecutionFold,
 * as the RunController and the CLI fold them) against a copy of the step map per event (reduceExecutionEvent,
 * as the editor folded them before: quadratic in the steps).
 */
function benchFold(): void {
  const size = 1_000;
  const events = completedRunEvents(size);
  const copying = foldMs(events, () => reduceExecutionEvent);
  const inPlace = foldMs(events, () => {
    const fold = new ExecutionFold();
    return (state, event) => fold.after(state, event);
  });
  console.log(`folding the ${events.length} events of a ${size}-step run: in place ${inPlace.toFixed(1)} ms, a copy per event ${copying.toFixed(1)} ms`);
  const ratio = inPlace / copying;
  checkTarget(`folding a ${size}-step run's events in place / a copy per event`, `${(ratio * 100).toFixed(2)} %`, '≤ 5 %', ratio <= 0.05);
}

export async function runBench(): Promise<void> {
  benchFold();
  const plan = widePlan();
  const closed = await measure(plan, 'closed');
  const whole = await measure(plan, 'whole snapshots');
  const open = await measure(plan, 'open');
  console.log(`${steps}-step run, ${width} steps at a time, each ${stepMs / 2}–${(stepMs * 3) / 2} ms; ${windowMs} ms of it after the first ${warmUpMs} ms, on a core of its own:`);
  console.log(`    panel closed: ${describe(closed)}`);
  console.log(`    panel open, whole snapshots only (before deltas): ${describe(whole)}`);
  console.log(`    panel open: ${describe(open)}`);
  checkTarget('host idle with the panel open, 5k-step run', `${((1 - open.busy) * 100).toFixed(1)} %`, '≥ 80 %', 1 - open.busy >= 0.8);
  const bytes = open.bytesPerUpdate / whole.bytesPerUpdate;
  checkTarget('bytes per update with deltas / whole snapshots, 5k-step run', `${(bytes * 100).toFixed(2)} %`, '≤ 1 %', bytes <= 0.01);
}
