import assert from 'node:assert/strict';
import type { CritiqueIssue } from '../../../../src/core/plan/critiquePlan';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { PanelSession } from '../../../../src/core/view/panelSession';
import type { PanelViewModel, ReviewView } from '../../../../src/shared/panelViewModel';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan = makePlan([
  makeStep('W', { kind: 'tool', tool: 'write_file', args: { path: 'a.md', content: 'x' }, agent: undefined, input: undefined }),
  makeStep('C', { kind: 'tool', tool: 'run_command', args: { argv: ['npm', 'test'] }, agent: undefined, input: undefined, requiresApproval: false }),
  makeStep('A', { dependsOn: ['W'], input: 'check {{results.W}}' }),
]);
const finding: CritiqueIssue = { check: 'llm_review', name: 'Model review', severity: 'warning', stepId: 'C', message: 'Run the tests before writing.' };

function reviewOf(model: PanelViewModel): ReviewView {
  assert.ok(model.mode === 'review');
  return model.review;
}

describe('PanelSession: the review\'s model findings and approval tags', () => {
  it('shows the model critique\'s findings with the version they were made on, marked as the model\'s, and drops them after an edit', () => {
    const session = new PanelSession('s', builtinTools());
    session.setPlan(plan, [finding]);
    const shown = reviewOf(session.snapshot(0));
    assert.deepEqual(shown.findings.filter((issue) => issue.check === 'llm_review').map((issue) => [issue.name, issue.stepId, issue.message]), [
      ['Model review', 'C', 'Run the tests before writing.'],
    ]);
    assert.ok(session.applyEdit({ type: 'updateStep', stepId: 'A', patch: { title: 'Check the file' } }).ok);
    assert.deepEqual(reviewOf(session.snapshot(0)).findings.filter((issue) => issue.check === 'llm_review'), []);
    session.setPlan(plan);
    assert.deepEqual(reviewOf(session.snapshot(0)).findings.filter((issue) => issue.check === 'llm_review'), []);
  });

  it('tags each step by what the policy and the workspace\'s trust will make it do', () => {
    const session = new PanelSession('s', builtinTools());
    session.setPlan(plan);
    const tags = (): string[] => reviewOf(session.snapshot(0)).steps.map((step) => step.approval);
    assert.deepEqual(tags(), ['asks', 'asks', 'mayAsk'], 'default: writesAndCommands, trusted');
    session.setApprovalSetting({ policy: 'commandsOnly', trusted: true });
    assert.deepEqual(tags(), ['none', 'asks', 'mayAsk']);
    session.setApprovalSetting({ policy: 'always', trusted: false });
    assert.deepEqual(tags(), ['refused', 'refused', 'none']);
  });

  it('critiques the plan under the workspace\'s trust: Restricted Mode flags the steps it refuses, trust again clears them (issue 29)', () => {
    const session = new PanelSession('s', builtinTools());
    session.setPlan(plan);
    const refused = (): string[] =>
      reviewOf(session.snapshot(0))
        .findings.filter((issue) => issue.check === 'refused_untrusted')
        .map((issue) => `${issue.severity} ${issue.stepId ?? ''}`);
    assert.deepEqual(refused(), []);
    session.setApprovalSetting({ policy: 'writesAndCommands', trusted: false });
    assert.deepEqual(refused(), ['critical W', 'critical C']);
    session.setApprovalSetting({ policy: 'writesAndCommands', trusted: true });
    assert.deepEqual(refused(), []);
  });
});
