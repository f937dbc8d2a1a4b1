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
