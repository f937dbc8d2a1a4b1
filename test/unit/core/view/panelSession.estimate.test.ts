import assert from 'node:assert/strict';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import type { Tool } from '../../../../src/core/tools/tool';
import { PanelSession } from '../../../../src/core/view/panelSession';
import { parseWebviewMessage } from '../../../../src/shared/panelProtocol';
import type { ReviewView } from '../../../../src/shared/panelViewModel';
import { makePlan, makeStep } from '../../../support/randomPlans';

function review(session: PanelSession): ReviewView {
  const model = session.snapshot(0);
  assert.equal(model.mode, 'review');
  return model.review;
}

describe('PanelSession: the run\'s estimate in the review, before Start (issue 30)', () => {
  const plan = makePlan([makeStep('S1', { input: 'Fix the parser' }), makeStep('S2', { input: 'Test it', dependsOn: ['S1'], review: true })]);

  it('shows no estimate without a model, then the estimate and the budget Start can set once a model is set up', () => {
    const session = new PanelSession('s', [readFileTool] as Tool[]);
    session.setPlan(plan);
    assert.equal(review(session).estimate, undefined);
    assert.equal(session.estimateBudget(), undefined);
    session.setEstimateSetup({ model: 'gpt-4o-mini', models: { reviewer: 'gpt-4.1' } });
    const estimate = review(session).estimate;
    assert.match(estimate?.lines[0] ?? '', /^Estimate: \d+–\d+ model requests, [\d.k]+–[\d.k]+ tokens \(typically [\d.k]+\), \$[\d.]+–\$[\d.]+, \d+ s–\d+ (s|min)\.$/);
    assert.deepEqual(estimate?.lines.slice(1).map((line) => line.trim().split(' (')[0]), ['agent steps', 'model reviews']);
    const budget = session.estimateBudget();
    assert.ok(budget?.maxCostUsd !== undefined && budget.maxCostUsd > 0);
    assert.equal(estimate?.stopAt, `$${budget.maxCostUsd.toFixed(2)}`);
  });

  it('says "cost unknown" for a model without a price and offers to stop at the tokens instead', () => {
    const session = new PanelSession('s', [readFileTool] as Tool[]);
    session.setPlan(plan);
    session.setEstimateSetup({ model: 'qwen2.5-coder:7b' });
    const estimate = review(session).estimate;
    assert.match(estimate?.lines[0] ?? '', /cost unknown \(no price for qwen2\.5-coder:7b\)/);
    assert.match(estimate?.stopAt ?? '', /^[\d.k]+ tokens$/);
  });

  it('checks the models steps name against the models set up, and reports the unknown one before Start', () => {
    const session = new PanelSession('s', [readFileTool] as Tool[]);
    session.setPlan(makePlan([makeStep('S1', { input: 'x', model: 'gpt-4o' })]));
    session.setEstimateSetup({ model: 'gpt-4o-mini', models: { compaction: 'gpt-5-nano' } });
    const view = review(session);
    assert.match(view.startBlockedReason ?? '', /"gpt-4o", which is not set up for this run; set up: "gpt-4o-mini", "gpt-5-nano"/);
    session.setEstimateSetup({ model: 'gpt-4o-mini', models: { agent: 'gpt-4o' } });
    assert.equal(review(session).startBlockedReason, undefined);
  });

  it('Start may ask for the estimate\'s budget; the message is validated', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'start', version: 1, stopAtEstimate: true }), { ok: true, message: { type: 'start', version: 1, stopAtEstimate: true } });
    assert.equal(parseWebviewMessage({ type: 'start', version: 1, stopAtEstimate: 'yes' }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'start', version: 1, budget: 1000 }).ok, false);
  });
});
