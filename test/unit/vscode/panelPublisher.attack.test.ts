import assert from 'node:assert/strict';
import { foldRunEvents } from '../../../src/core/engine/reduceRunEvent';
import type { RunEvent, RunEventBody } from '../../../src/core/engine/runEvents';
import { PanelSession } from '../../../src/core/view/panelSession';
import type { HostToWebviewMessage } from '../../../src/shared/panelProtocol';
import { PanelPublisher } from '../../../src/vscode/panelPublisher';
import { manualTimers } from '../../fakes/manualTimers';
import { makePlan, makeStep } from '../../support/randomPlans';

const plan = makePlan(Array.from({ length: 300 }, (_, index) => makeStep(`S${index + 1}`, { kind: 'manual', dependsOn: [], agent: undefined, input: undefined })));

describe('attack: a page asking the panel for whole snapshots in a loop', () => {
  it('attack: a thousand asks in a burst (ready, resyncSnapshot) build one snapshot, not a thousand', () => {
    const timers = manualTimers();
    const session = new PanelSession('s1', []);
    session.setPlan(plan);
    const posted: HostToWebviewMessage[] = [];
    let built = 0;
    const publisher = new PanelPublisher(session, { listening: () => true, post: (message) => void posted.push(message) }, () => built++, timers);
    publisher.publish();
    assert.equal(posted.length, 1);
    for (let ask = 0; ask < 1_000; ask++) publisher.resyncSoon();
    assert.equal(built, 1, 'no snapshot is built while the asks arrive');
    timers.advance(100);
    assert.equal(built, 2, 'one snapshot for the whole burst');
    assert.deepEqual(posted.map((message) => message.type), ['snapshot', 'snapshot']);
    assert.equal(timers.pending(), 0);
  });

  it('an ask after a quiet moment is answered within the update interval, with a whole snapshot', () => {
    const timers = manualTimers();
    const session = new PanelSession('s1', []);
    session.setPlan(plan);
    const posted: HostToWebviewMessage[] = [];
    const publisher = new PanelPublisher(session, { listening: () => true, post: (message) => void posted.push(message) }, undefined, timers);
    timers.advance(1_000);
    publisher.resyncSoon();
    timers.advance(0);
    assert.equal(posted.length, 1);
    assert.equal(posted[0]?.type, 'snapshot');
  });
});

describe('the panel publisher: deltas for a big run, whole when most rows changed', () => {
  const steps = 300;
  const runPlan = makePlan(Array.from({ length: steps }, (_, index) => makeStep(`S${index + 1}`, { dependsOn: [], agent: undefined, input: undefined })));
  const base = { runId: 'r' };
  const started: RunEvent = { ...base, seq: 1, time: 0, type: 'run_started', plan: runPlan };

  it('sends what changed while a few steps move, and the whole view when most rows change at once (a cancelled run)', () => {
    const timers = manualTimers();
    const session = new PanelSession('s1', []);
    const posted: HostToWebviewMessage[] = [];
    const publisher = new PanelPublisher(session, { listening: () => true, post: (message) => void posted.push(message) }, undefined, timers);
    let state = foldRunEvents([started]);
    session.showRun(state, true);
    publisher.publish();
    let seq = 1;
    const next = (event: RunEventBody): void => {
      const full = { ...base, seq: ++seq, time: seq, ...event };
      state = foldRunEvents([full], state);
      publisher.runEvent(full, state);
    };
    next({ type: 'step_started', stepId: 'S1', attempt: 1 });
    timers.advance(1_000);
    next({ type: 'run_cancelled', reason: 'stopped' });
    assert.deepEqual(posted.map((message) => message.type), ['snapshot', 'runDelta', 'snapshot']);
  });
});
