import assert from 'node:assert/strict';
import { maxChatRequestChars, parseChatCommand } from '../../../../src/core/view/chatCommand';

describe('parseChatCommand', () => {
  it('/plan takes the trimmed request', () => {
    assert.deepEqual(parseChatCommand('plan', '  add validation, then run npm test \n'), { kind: 'plan', request: 'add validation, then run npm test' });
  });

  it('/plan without a request says what to write', () => {
    const parsed = parseChatCommand('plan', '   ');
    assert.equal(parsed.kind, 'problem');
    assert.match(parsed.kind === 'problem' ? parsed.message : '', /^Say what to plan after \/plan/);
  });

  it('/plan refuses a request over the limit, saying its length, and takes one at the limit', () => {
    assert.deepEqual(parseChatCommand('plan', 'x'.repeat(maxChatRequestChars + 1)), {
      kind: 'problem',
      message: `The request has ${maxChatRequestChars + 1} characters; keep it under ${maxChatRequestChars}.`,
    });
    assert.equal(parseChatCommand('plan', 'x'.repeat(maxChatRequestChars)).kind, 'plan');
  });

  it('/run and /status ignore their text', () => {
    assert.deepEqual(parseChatCommand('run', 'now please'), { kind: 'run' });
    assert.deepEqual(parseChatCommand('status', ''), { kind: 'status' });
  });

  it('text without a command is a follow-up about the plan; nothing at all is a problem', () => {
    assert.deepEqual(parseChatCommand(undefined, ' why step 3? '), { kind: 'followUp', text: 'why step 3?' });
    assert.deepEqual(parseChatCommand('', 'drop the README step'), { kind: 'followUp', text: 'drop the README step' });
    assert.deepEqual(parseChatCommand(undefined, '  '), {
      kind: 'problem',
      message: 'Write /plan and what you want done, /run to start the plan, or /status to see the run.',
    });
  });

  it('an unknown command is named (bounded) with the ones that exist', () => {
    assert.deepEqual(parseChatCommand('explain', 'x'), { kind: 'problem', message: 'There is no /explain command here; use /plan, /run or /status.' });
    const long = parseChatCommand('y'.repeat(10_000), '');
    assert.equal(long.kind === 'problem' ? long.message.length : 0, 'There is no / command here; use /plan, /run or /status.'.length + 40);
  });

  it('"@planner /plan …" typed again in a chat already addressed to @planner plans (the chat reports no command then)', () => {
    assert.deepEqual(parseChatCommand(undefined, '@planner /plan add a --verbose flag'), { kind: 'plan', request: 'add a --verbose flag' });
    assert.deepEqual(parseChatCommand(undefined, ' @Planner @planner  /PLAN\n add it '), { kind: 'plan', request: 'add it' });
    assert.deepEqual(parseChatCommand(undefined, '/status'), { kind: 'status' });
    assert.deepEqual(parseChatCommand('', '@planner /run now'), { kind: 'run' });
    assert.equal(parseChatCommand(undefined, '@planner /plan').kind, 'problem');
    assert.equal(parseChatCommand(undefined, `/plan ${'x'.repeat(maxChatRequestChars + 1)}`).kind, 'problem');
  });

  it('only a known command at the very start is read as one; the rest stays a follow-up, without the typed mention', () => {
    assert.deepEqual(parseChatCommand(undefined, '@planner why step 3?'), { kind: 'followUp', text: 'why step 3?' });
    assert.deepEqual(parseChatCommand(undefined, '/planning is hard'), { kind: 'followUp', text: '/planning is hard' });
    assert.deepEqual(parseChatCommand(undefined, '/explain step 2'), { kind: 'followUp', text: '/explain step 2' });
    assert.deepEqual(parseChatCommand(undefined, 'please /plan more'), { kind: 'followUp', text: 'please /plan more' });
    assert.deepEqual(parseChatCommand(undefined, '@plannerx /plan a'), { kind: 'followUp', text: '@plannerx /plan a' });
    assert.equal(parseChatCommand(undefined, '@planner').kind, 'problem');
  });

  it('reads a hostile prompt of 200 000 typed mentions in linear time, and a huge typed /plan is refused by its length', () => {
    // Linear time is proved statically (ESLint's regexp rules); a super-linear pattern would exceed the test's time-out here.
    assert.deepEqual(parseChatCommand(undefined, `${'@planner '.repeat(200_000)}/plan add it`), { kind: 'plan', request: 'add it' });
    assert.deepEqual(parseChatCommand(undefined, `${'@planner\t'.repeat(200_000)}`), {
      kind: 'problem',
      message: 'Write /plan and what you want done, /run to start the plan, or /status to see the run.',
    });
    assert.equal(parseChatCommand(undefined, `/plan ${'y'.repeat(5_000_000)}`).kind, 'problem');
  });
});
