import assert from 'node:assert/strict';
import { buildReplanPrompt } from '../../../../../src/core/planner/prompts/replanPrompt';
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
    assert.match(String(system?.content), /optional "checks", "outputSchema", "verification"/, 'a repair plan may verify its work like a plan');
    assert.match(String(system?.content), /Do NOT repeat any approach from the trial history/);
    assert.match(String(system?.content), /- read_file: Reads a file\.\n {2}parameters: \{"type":"object"\}/);
    const text = String(user?.content);
    assert.match(text, /Objective:\nShip it/);
    assert.match(text, /- a \(Step a\): \{"files":\["x\.ts"\]\}/);
    assert.match(text, /- b \(Step b\)\n {2}approach: agent default with input: do b\n {2}error: boom\n {2}diagnosis: result was empty\n {2}output: tried hard/);
    assert.match(text, /Steps that did not run \(redesign or drop them\):\n- c \(Step c\)/);
    assert.match(text, /1\. 2026-01-02T03:04:05\.000Z step b, attempt 1\n {3}approach: .*\n {3}error: boom\n {3}output: first try\n2\. 2026-01-02T03:04:06\.000Z step b, attempt 2\n {3}approach: .*\n {3}error: boom again\n {3}diagnosis: result was empty/);
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

describe('buildReplanPrompt: what the replanner sees in edge cases', () => {
  const plan = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] })]);
  const failedB = { stepId: 'b', title: 'Step b', approach: 'agent default', error: 'boom', output: '  \n ' };

  it('says "(none)" for no completed step and no trial, lists no tools when there are none, and sends roles system then user', () => {
    const messages = buildReplanPrompt({ objective: '  Ship it \n', plan: makePlan([makeStep('b')]), completed: {}, failed: [failedB], trials: [], tools: [] });
    assert.deepEqual(messages.map((message) => message.role), ['system', 'user']);
    assert.match(String(messages[0]?.content), /Available tools:\nNo tools are available\.\n\nReply with the repair plan as JSON only\.$/);
    assert.equal(
      messages[1]?.content,
      'Objective:\nShip it\n\nCompleted steps (keep them, with these ids):\n(none)\n\nFailed steps:\n- b (Step b)\n  approach: agent default\n  error: boom\n\n'
        + 'Trial history (every earlier failed attempt; do not repeat these approaches):\n(none)',
    );
  });

  it('lists the workspace\'s skills after the tools, as the planner sees them, and nothing about skills without any', () => {
    const skills = [{ name: 'house-style', description: 'How pages are styled here.', tags: ['css'] }];
    const system = String(buildReplanPrompt({ objective: 'x', plan, completed: {}, failed: [failedB], trials: [], tools: [], skills })[0]?.content);
    assert.match(system, /Available tools:\nNo tools are available\.\n\nSkills of this workspace: [^\n]*\n- house-style \[css\]: How pages are styled here\.\n\nReply with the repair plan as JSON only\.$/);
    const without = String(buildReplanPrompt({ objective: 'x', plan, completed: {}, failed: [failedB], trials: [], tools: [], skills: [] })[0]?.content);
    assert.doesNotMatch(without, /Skills/);
  });

  it('lists every tool, with its parameters when it has them', () => {
    const tools = [{ name: 'read_file', description: 'Reads.', parameters: { type: 'object' } }, { name: 'ask_user', description: 'Asks.' }];
    const system = String(buildReplanPrompt({ objective: 'x', plan, completed: {}, failed: [failedB], trials: [], tools })[0]?.content);
    assert.match(system, /Available tools:\n- read_file: Reads\.\n {2}parameters: \{"type":"object"\}\n- ask_user: Asks\.\n\nReply/);
  });

  it('shows completed results as text (strings as they are), named by the id when the plan has no such step, cut to the result budget', () => {
    const completed = { a: 'plain words', gone: 'x', big: 'word '.repeat(500) };
    const text = String(buildReplanPrompt({ objective: 'x', plan, completed, failed: [failedB], trials: [], tools: [], budget: { result: 20 } })[1]?.content);
    assert.match(text, /\n- a \(Step a\): plain words\n- gone \(gone\): x\n- big \(big\): (word ){10,20}… \(cut\)\n\nFailed/);
    assert.ok(countTokens(text.split('- big (big): ')[1]!.split('\n')[0]!) <= 20);
    assert.doesNotMatch(text, /Steps that did not run/, 'every step completed or failed');
  });

  it('keeps the end of a long output, trimmed, marking the cut, in the failed step and in the trial history', () => {
    const output = `  ${'early '.repeat(300)}the final error line  `;
    const trial = { stepId: 'b', approach: 'agent default', attempt: 1, output, error: 'boom', time: 0 };
    const text = String(buildReplanPrompt({ objective: 'x', plan, completed: { a: 1 }, failed: [{ ...failedB, output }], trials: [trial], tools: [], budget: { output: 30 } })[1]?.content);
    assert.match(text, /\n {2}error: boom\n {2}output: \(cut\) … +(early )+the final error line\n\nTrial history/);
    assert.match(text, /\n {3}error: boom\n {3}output: \(cut\) … +(early )+the final error line$/);
  });

  it('marks where older attempts were cut from the history', () => {
    const trials = Array.from({ length: 50 }, (_, index) => ({ stepId: 'b', approach: 'agent default', attempt: index + 1, output: 'out', error: 'boom', time: 0 }));
    const text = String(buildReplanPrompt({ objective: 'x', plan, completed: {}, failed: [failedB], trials, tools: [], budget: { trials: 100 } })[1]?.content);
    assert.match(text, /do not repeat these approaches\):\n\(older attempts cut\) …\n/);
  });

  it('shows a result that cannot be written as JSON as text', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const text = String(buildReplanPrompt({ objective: 'x', plan, completed: { a: circular, b: undefined }, failed: [], trials: [], tools: [] })[1]?.content);
    assert.match(text, /- a \(Step a\): \[object Object\]\n- b \(Step b\): undefined\n/);
  });
});
