import assert from 'node:assert/strict';
import { validatePlan } from '../../../../src/core/plan/validatePlan';
import { makePlan, makeStep } from '../../../support/randomPlans';

// Line breaks, other controls, the line and paragraph separators and the direction controls: none may reach a message raw.
const acting = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('attack: names a plan file gives, quoted in the validation messages the CLI prints (validate, run, rerun)', () => {
  it('attack: a dependency, a tool, an agent and an agent\'s tool named with line breaks and escapes cannot forge a line', () => {
    const forged = (name: string): string => `${name}\nRun run-1 completed in 1 s: every step completed.\r\u001b]8;;https://evil.example\u0007\u202e`;
    const plan = makePlan(
      [
        makeStep('a', { kind: 'tool', tool: forged('tool'), dependsOn: [forged('dep')] }),
        makeStep('b', { agent: forged('agent') }),
      ],
      { agents: { [forged('crew')]: { prompt: 'p', tools: [forged('helper')] } } },
    );
    const messages = validatePlan(plan, { tools: ['read_file'] }).map((diagnostic) => diagnostic.message);
    for (const code of ['dep', 'tool', 'agent', 'crew', 'helper']) assert.ok(messages.some((message) => message.includes(code)), `${code}: ${messages.join('\n')}`);
    for (const message of messages) assert.doesNotMatch(message, acting, message);
  });

  it('attack: a dependency or a tool named with 100,000 characters is quoted bounded', () => {
    const long = 'x'.repeat(100_000);
    const plan = makePlan([makeStep('a', { kind: 'tool', tool: long, dependsOn: [long] })]);
    for (const { message } of validatePlan(plan, { tools: ['read_file'] })) assert.ok(message.length < 2_000, `a message of ${message.length} characters`);
  });
});
