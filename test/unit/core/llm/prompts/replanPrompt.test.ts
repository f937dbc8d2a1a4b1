import assert from 'node:assert/strict';
import { buildReplanPrompt } from '../../../../../src/core/llm/prompts/replanPrompt';
import { countTokens } from '../../../../../src/core/llm/tokenCount';
import { makePlan, makeStep } from '../../../../support/randomPlans';

describe('buildReplanPrompt', () => {
  const plan = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] }), makeStep('c', { dependsOn: ['b'] })]);
  const input = {
    objective: 'Ship it',
    plan,
    completed: { a: { files: ['x.ts'] } },
    failed: [{ stepId: 'b', title: 'Step b', approach: 'agent default with input: do b', error: 'boom', diagnosis: 'result was empty', output: 'tried hard' }],
    trials: [
      { stepId: 'b', approach: 'agent default with input: do b', attempt: 1, output: 'first try', error: 'boom', time: Date.parse('2026-01-02T03:04:05Z') },
      { stepId: 'b', approach: 'agent default with input: do b', attempt: 2, output: '', error: 'boom again', diagnosis: 'result was empty', time: Date.parse('2026-01-02T03:04:06Z') },
    ],
    tools: [{ name: 'read_file', description: 'Reads a file.', parameters: { type: 'object' } }],
  };

  it('gives the objective, completed results, the failed step and the numbered trial history with the instruction not to repeat it', () => {
    const [system, user] = buildReplanPrompt(input);
    assert.match(String(system?.content), /KEEP every completed step/);
    assert.match(String(system?.content), /Do NOT repeat any approach from the trial history/);
    assert.match(String(system?.content), /- read_file: Reads a file\.\n  parameters: \{"type":"object"\}/);
    const text = String(user?.content);
    assert.match(text, /Objective:\nShip it/);
    assert.match(text, /- a \(Step a\): \{"files":\["x\.ts"\]\}/);
    assert.match(text, /- b \(Step b\)\n  approach: agent default with input: do b\n  error: boom\n  diagnosis: result was empty\n  output: tried hard/);
    assert.match(text, /Steps that did not run \(redesign or drop them\):\n- c \(Step c\)/);
    assert.match(text, /1\. 2026-01-02T03:04:05\.000Z step b, attempt 1\n   approach: .*\n   error: boom\n   output: first try\n2\. 2026-01-02T03:04:06\.000Z step b, attempt 2\n   approach: .*\n   error: boom again\n   diagnosis: result was empty/);
    assert.deepEqual(buildReplanPrompt(input), buildReplanPrompt(input), 'deterministic');
  });

  it('keeps the newest trials within the trial budget', () => {
    const trials = Array.from({ length: 200 }, (_, index) => ({ ...input.trials[0]!, attempt: index + 1, output: `output ${index} `.repeat(20) }));
    const text = String(buildReplanPrompt({ ...input, trials, budget: { trials: 500 } })[1]?.content);
    const history = text.slice(text.indexOf('Trial history'));
    assert.ok(countTokens(history) < 560, `history has ${countTokens(history)} tokens`);
    assert.match(history, /attempt 200/);
    assert.doesNotMatch(history, /attempt 1\n/);
  });
});
