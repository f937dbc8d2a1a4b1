import assert from 'node:assert/strict';
import { criticPrompt } from '../../../../../src/core/llm/prompts/criticPrompt';
import { makePlan, makeStep } from '../../../../support/randomPlans';

describe('criticPrompt', () => {
  it('gives the objective and compact steps as data, after the reviewing instructions', () => {
    const plan = makePlan([makeStep('read', { kind: 'tool', tool: 'read_file', args: { path: 'a.ts' }, agent: undefined, verification: 'result.length > 0' })], { objective: 'Fix the bug' });
    const [system, user] = criticPrompt(plan);
    assert.equal(system?.role, 'system');
    assert.match(String(system?.content), /do not repeat them/);
    assert.equal(user?.role, 'user');
    const steps = JSON.parse(String(user?.content).split('Plan steps (JSON):\n')[1]!) as Record<string, unknown>[];
    assert.deepEqual(steps, [{ id: 'read', title: 'Step read', kind: 'tool', dependsOn: [], tool: 'read_file', args: { path: 'a.ts' }, input: 'do read', onFailure: 'stop', verification: 'result.length > 0' }]);
    assert.match(String(user?.content), /^Objective: Fix the bug/);
  });
});
