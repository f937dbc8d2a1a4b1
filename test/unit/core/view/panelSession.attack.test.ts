import assert from 'node:assert/strict';
import { initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import type { Tool } from '../../../../src/core/tools/tool';
import { PanelSession } from '../../../../src/core/view/panelSession';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan = makePlan([makeStep('A', { kind: 'tool', tool: 'read_file', args: { path: 'a.txt' }, agent: undefined, input: undefined })]);

describe('attack: PanelSession while Regenerate is under way', () => {
  it('attack: an edit made while Regenerate runs is refused, so the regenerated plan never silently drops it', () => {
    const session = new PanelSession('s1', [readFileTool] as Tool[]);
    session.setPlan(plan);
    session.setRegenerating(true);
    const edit = session.applyEdit({ type: 'updateStep', stepId: 'A', patch: { title: 'My own title' } });
    assert.equal(edit.ok, false);
    assert.match(edit.ok ? '' : edit.error, /Regenerate/);
    assert.equal(session.currentPlan(), plan);
    session.setRegenerating(false);
    assert.equal(session.applyEdit({ type: 'updateStep', stepId: 'A', patch: { title: 'My own title' } }).ok, true);
  });

  it('a Regenerate waits for its plan only while the review it began in is shown: not after another plan or a run', () => {
    const session = new PanelSession('s1', [readFileTool] as Tool[]);
    session.setPlan(plan);
    session.setRegenerating(true);
    assert.equal(session.awaitsRegenerated(plan), true);
    session.showRun({ ...initialRunState('run-1'), plan }, true);
    assert.equal(session.awaitsRegenerated(plan), false);
    assert.equal(session.isRegenerating(), false);
  });
});

describe('attack: PanelSession actions about what the webview showed', () => {
  const other = makePlan([makeStep('X', { kind: 'tool', tool: 'read_file', args: { path: 'x.txt' }, agent: undefined, input: undefined })], {
    id: 'plan-other',
  });
  const reviewing = (): PanelSession => {
    const session = new PanelSession('s1', [readFileTool] as Tool[]);
    session.setPlan(plan);
    return session;
  };

  it('attack: an action on version 1 of the plan is refused once version 2, another plan or a run shows', () => {
    const session = reviewing();
    const shown = { id: plan.id, version: plan.version };
    assert.equal(session.reviewMoved(shown), undefined);
    assert.equal(session.applyEdit({ type: 'skipStep', stepId: 'A' }).ok, true);
    assert.match(session.reviewMoved(shown) ?? '', /version 2 now, not version 1/);
    // Cancel ends the review of the plan, whichever version shows.
    assert.equal(session.reviewMoved(shown, 'review'), undefined);
    session.setPlan(other);
    assert.match(session.reviewMoved(shown, 'review') ?? '', /another plan/);
    session.showRun({ ...initialRunState('run-1'), plan: other }, true);
    assert.match(session.reviewMoved({ id: other.id, version: other.version }, 'review') ?? '', /a run now/);
  });

  it('attack: an action on run 1 is refused once the panel shows run 2 or a plan under review', () => {
    const session = reviewing();
    assert.match(session.runMoved('run-1') ?? '', /plan under review/);
    session.showRun({ ...initialRunState('run-1'), plan }, true);
    assert.equal(session.runMoved('run-1'), undefined);
    session.showRun({ ...initialRunState('run-2'), plan }, true);
    assert.match(session.runMoved('run-1') ?? '', /another run/);
  });

  it('attack: Start from one snapshot is taken once; a later snapshot of the same plan may start it again (after a start that did not go through)', () => {
    const session = reviewing();
    session.reviewShown(1);
    session.reviewShown(2);
    assert.deepEqual(session.takeStart(2), { ok: true, plan });
    assert.deepEqual(session.takeStart(2), { ok: false, reason: 'pressed' });
    // Every snapshot that showed the plan is used up with it: an older one sent late starts nothing either.
    assert.deepEqual(session.takeStart(1), { ok: false, reason: 'pressed' });
    session.reviewShown(3);
    assert.deepEqual(session.takeStart(3), { ok: true, plan });
  });

  it('Start from a snapshot whose plan was edited since is refused as changed, not as pressed', () => {
    const session = reviewing();
    session.reviewShown(1);
    assert.equal(session.applyEdit({ type: 'skipStep', stepId: 'A' }).ok, true);
    assert.deepEqual(session.takeStart(1), { ok: false, reason: 'changed' });
  });

  it('attack: Start from a snapshot that showed an earlier version, read only, is refused: that snapshot never showed the plan Start would run', () => {
    const session = reviewing();
    assert.equal(session.applyEdit({ type: 'updateStep', stepId: 'A', patch: { args: { path: 'other.txt' } } }).ok, true);
    assert.deepEqual(session.viewVersion(1), { ok: true });
    // The webview got this snapshot: version 1's steps, Start off (a stale or hostile page sends Start anyway).
    session.reviewShown(7);
    assert.deepEqual(session.takeStart(7), { ok: false, reason: 'changed' });
    // Back on the plan itself, the next snapshot shows it, and Start from that one starts it.
    assert.deepEqual(session.viewVersion(undefined), { ok: true });
    session.reviewShown(8);
    const taken = session.takeStart(8);
    assert.equal(taken.ok, true);
    assert.equal(taken.ok && taken.plan.version, 2);
  });
});
