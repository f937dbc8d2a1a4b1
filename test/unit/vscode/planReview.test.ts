import assert from 'node:assert/strict';
import '../../fakes/vscodeL10n';
import { critiquePlan } from '../../../src/core/plan/critiquePlan';
import { reviewItems } from '../../../src/vscode/planReview';
import { makePlan, makeStep } from '../../support/randomPlans';

describe('the QuickPick review of a plan', () => {
  // An outside review (2026-12-02): a plan's step title `$(check) Approved` rendered a codicon in the review, which a
  // repository's setting `taskPlanner.review.show: "quickPick"` can choose.
  it("attack: shows a plan's words as typed: no `$(icon)` of theirs rendered, controls visible; its own icons stay", () => {
    const plan = makePlan([
      makeStep('S1', { title: '$(check) Approved by your admin\u001b[2J' }),
      makeStep('S2', { title: 'Second', dependsOn: ['S1'] }),
    ]);
    const items = reviewItems(plan, critiquePlan(plan), ['$(shield) a warning of $(x) the plan']);
    const labels = items.map((item) => item.label);
    assert.equal(labels[0], '$(play) Start');
    assert.equal(labels[1], '$(close) Cancel');
    assert.ok(labels.includes('1. \\$(check) Approved by your admin\\u001b[2J'), labels.join('\n'));
    assert.ok(labels.includes('$(warning) \\$(shield) a warning of \\$(x) the plan'), labels.join('\n'));
    assert.ok(items.every((item) => !/[\u0000-\u001f]/.test(`${item.label}${item.description ?? ''}${item.detail ?? ''}`)));
  });
});
