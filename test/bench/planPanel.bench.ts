// The plan panel during a large run (issue 32 item 6): how busy the extension host is while a 5,000-step
// run streams its events to an open panel. The run is real (runPlan; steps that take 0.5–1.5 s, 8 at a time);
// each event is folded as the editor's RunController folds it and handed to the panel's publisher as
// PlanPanel hands it; the webview is faked at the port: each message is serialized as VS Code's
// webview.postMessage serializes it, and applied by the webview's store after the window. Time is simulated
// as on a core of the host's own (DedicatedCoreClock): sleeps and timers, plus the CPU time the code took.
import { createMemoryRunStore } from '../../src/core/engine/memoryRunStore';
import type { RunEvent, RunState } from '../../src/core/engine/runEvents';
import type { Plan } from '../../src/core/plan/planSchema';
import { reduceExecutionEvent } from '../../src/core/replan/reduceExecutionEvent';
import { PanelSession } from '../../src/core/view/panelSession';
import { runPlan } from '../../src/node/nodeLibrary';
import type { HostToWebviewMessage } from '../../src/shared/panelProtocol';
import { PanelPublisher } from '../../src/vscode/panelPublisher';
import { applyOutputChunk, applySnapshot, emptyPanelState, type PanelState } from '../../webview/panelStore';
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
  updates: number;
  bytesPerUpdate: number;
  completed: number;
}

/** Runs the plan for `windowMs` after `warmUpMs` with the panel open (or not), then cancels it; the webview applies what it was sent. */
async function measure(plan: Plan, panelOpen: boolean): Promise<Window> {
  const clock = new DedicatedCoreClock();
  const random = seededRandom(7);
  const session = new PanelSession('bench', []);
  const sent: string[] = [];
  const publisher = new PanelPublisher(session, { listening: () => true, post: (message) => sent.push(serializeAsVsCode(message)) }, undefined, clock);
  let state: RunState | undefined;
  let shown = false;
  const onEvent = (event: RunEvent): void => {
    state = reduceExecutionEvent(state, event);
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
  const [busyBefore, started] = [clock.busyMs, clock.now()];
  await clock.runFor(windowMs);
  const busy = (clock.busyMs - busyBefore) / (clock.now() - started);
  let ended = false;
  void handle.result.then(() => (ended = true));
  await clock.run(() => handle.cancel('bench window over'));
  while (!ended) await clock.runFor(1_000);
  const updates = sent.filter((text) => !text.startsWith('{"type":"output'));
  let webview: PanelState = emptyPanelState();
  for (const text of sent) {
    const message = JSON.parse(text) as HostToWebviewMessage;
    if (message.type === 'snapshot') webview = applySnapshot(webview, message.model).state;
    else if (message.type === 'output') webview = applyOutputChunk(webview, message).state;
  }
  if (panelOpen && (webview.stats.applied !== updates.length || webview.model?.mode !== 'run' || webview.model.run.status !== 'cancelled')) {
    throw new Error(`the webview applied ${webview.stats.applied} of ${updates.length} updates and shows ${webview.model?.mode ?? 'nothing'}`);
  }
  return {
    busy,
    updates: updates.length,
    bytesPerUpdate: updates.reduce((sum, text) => sum + text.length, 0) / Math.max(1, updates.length),
    completed: Object.values(state?.steps ?? {}).filter((step) => step.status === 'completed').length,
  };
}

function describe(window: Window): string {
  return (
    `busy ${(window.busy * 100).toFixed(1)} %, ${window.updates} updates of ` +
    `${(window.bytesPerUpdate / 1024).toFixed(1)} KiB on average, ${window.completed} steps completed`
  );
}

export async function runBench(): Promise<void> {
  const plan = widePlan();
  const alone = await measure(plan, false);
  const open = await measure(plan, true);
  console.log(`${steps}-step run, ${width} steps at a time, each ${stepMs / 2}–${(stepMs * 3) / 2} ms; ${windowMs} ms of it after the first ${warmUpMs} ms, on a core of its own:`);
  console.log(`    panel closed: ${describe(alone)}`);
  console.log(`    panel open: ${describe(open)}`);
  checkTarget('host idle with the panel open, 5k-step run', `${((1 - open.busy) * 100).toFixed(1)} %`, '≥ 80 %', 1 - open.busy >= 0.8);
}
