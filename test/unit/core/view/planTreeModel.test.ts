import assert from 'node:assert/strict';
import { planTreeModel } from '../../../../src/core/view/planTreeModel';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan = makePlan([
  makeStep('a', { title: 'Read', kind: 'tool', tool: 'read_file', args: { path: 'x' }, agent: undefined }),
  makeStep('b', { title: 'Think', agent: 'coder', dependsOn: ['a'] }),
  makeStep('c', { title: 'Ask', kind: 'clarification', agent: undefined, skipped: true }),
]);

describe('planTreeModel', () => {
  it('lists steps flat, numbered, with runner, icon and context value', () => {
    const nodes = planTreeModel(plan);
    assert.deepEqual(nodes.map((node) => [node.label, node.description, node.icon, node.contextValue]), [
      ['1. Read', 'read_file', 'tools', 'step.tool'],
      ['2. Think', 'agent: coder', 'hubot', 'step.agent'],
      ['3. Ask', 'clarification · skipped', 'debug-step-over', 'step.clarification'],
    ]);
  });

  it('explains a step in its tooltip', () => {
    const tooltip = planTreeModel(plan)[1]!.tooltip;
    assert.match(tooltip, /Input: do b/);
    assert.match(tooltip, /Depends on: a/);
  });

  it('nests steps under their dependency level', () => {
    const nodes = planTreeModel(plan, 'levels');
    assert.deepEqual(nodes.map((node) => [node.label, node.description, node.children.map((child) => child.id)]), [
      ['Level 1', '2 steps, in parallel', ['step:a', 'step:c']],
      ['Level 2', '1 step', ['step:b']],
    ]);
  });

  it('falls back to flat when the plan has a cycle', () => {
    const cyclic = makePlan([makeStep('a', { dependsOn: ['b'] }), makeStep('b', { dependsOn: ['a'] })]);
    assert.equal(planTreeModel(cyclic, 'levels').length, 2);
  });
});
