import assert from 'node:assert/strict';
import { samePlan } from '../../../../src/core/plan/samePlan';
import { makePlan, makeStep } from '../../../support/randomPlans';

describe('samePlan', () => {
  const plan = makePlan([makeStep('a', { args: { path: 'x', lines: [1, 2] } }), makeStep('b', { dependsOn: ['a'] })]);

  it('is the same plan but for the version, whatever the order of keys, an undefined field the same as an absent one', () => {
    const [a, b] = plan.steps;
    const reversed = { ...(Object.fromEntries(Object.entries(a!).reverse()) as typeof a & object), args: { lines: [1, 2], path: 'x' }, verification: undefined };
    assert.equal(samePlan(plan, { ...plan, version: 7, steps: [reversed, b!] }), true);
  });

  it('tells any change apart: a field, a list item, the order of steps', () => {
    const [a, b] = plan.steps;
    assert.equal(samePlan(plan, { ...plan, steps: [{ ...a!, title: `${a!.title}.` }, b!] }), false);
    assert.equal(samePlan(plan, { ...plan, steps: [{ ...a!, args: { path: 'x', lines: [2, 1] } }, b!] }), false);
    assert.equal(samePlan(plan, { ...plan, steps: [b!, a!] }), false);
    assert.equal(samePlan(plan, { ...plan, steps: [{ ...a!, skills: [] }, b!] }), false, 'an empty list is not an absent one');
    assert.equal(samePlan(plan, { ...plan, objective: 'other' }), false);
  });
});
