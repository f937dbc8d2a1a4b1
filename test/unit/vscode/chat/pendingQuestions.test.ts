import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { parseChatCommand } from '../../../../src/core/view/chatCommand';
import { PendingQuestions, questionFollowups, questionIdOf, type HeldPlanning, type QuestionTimers } from '../../../../src/vscode/chat/pendingQuestions';

/** Timers that fire only when the test says. */
function manualTimers(): QuestionTimers & { fire(): void; live: number } {
  const timers = new Map<number, () => void>();
  let next = 0;
  return {
    set: (callback) => {
      timers.set(++next, callback);
      return next;
    },
    clear: (handle) => void timers.delete(handle as number),
    fire: () => {
      const due = [...timers.values()];
      timers.clear();
      for (const callback of due) callback();
    },
    get live() {
      return timers.size;
    },
  };
}

function planning(cancelled: string[], name: string): HeldPlanning {
  return { resume: () => Promise.resolve({ metadata: { resumed: name } }), cancel: (reason) => void cancelled.push(`${name}: ${reason}`) };
}

const turn = (metadata: unknown) => ({ result: { metadata }, response: [], participant: 'taskPlanner.planner' }) as unknown as vscode.ChatResponseTurn;
const asked = (prompt: string) => ({ prompt, participant: 'taskPlanner.planner', references: [], toolReferences: [] }) as unknown as vscode.ChatRequestTurn;

describe('PendingQuestions: plannings waiting in chat conversations', () => {
  it('hands the planning to the one who takes its id, once; an unknown id gets nothing', () => {
    const cancelled: string[] = [];
    const timers = manualTimers();
    const questions = new PendingQuestions({ expiresMs: 1000, maxHeld: 4 }, timers);
    const id = questions.hold(planning(cancelled, 'a'));
    assert.equal(questions.take('nope'), undefined);
    assert.ok(questions.take(id));
    assert.equal(questions.take(id), undefined, 'taken once');
    assert.equal(timers.live, 0, 'its expiry is cleared');
    assert.deepEqual(cancelled, []);
  });

  it('a question expires: its planning is cancelled and it can no longer be taken', () => {
    const cancelled: string[] = [];
    const timers = manualTimers();
    const questions = new PendingQuestions({ expiresMs: 1000, maxHeld: 4 }, timers);
    const id = questions.hold(planning(cancelled, 'a'));
    timers.fire();
    assert.deepEqual(cancelled, ['a: The question was not answered in time.']);
    assert.equal(questions.take(id), undefined);
    assert.equal(questions.size, 0);
  });

  it('attack: a flood of questions keeps at most maxHeld waiting, dropping (cancelling) the oldest', () => {
    const cancelled: string[] = [];
    const timers = manualTimers();
    const questions = new PendingQuestions({ expiresMs: 1000, maxHeld: 2 }, timers);
    const ids = ['a', 'b', 'c', 'd'].map((name) => questions.hold(planning(cancelled, name)));
    assert.equal(new Set(ids).size, 4, 'every question has its own id');
    assert.equal(questions.size, 2);
    assert.deepEqual(cancelled, ['a: Too many questions were waiting; the oldest was dropped.', 'b: Too many questions were waiting; the oldest was dropped.']);
    assert.equal(questions.take(ids[0]!), undefined);
    assert.ok(questions.take(ids[3]!));
    assert.equal(timers.live, 1, 'the dropped ones\' expiries are cleared too');
  });

  it('dropping cancels with the reason given; dropping an unknown id does nothing', () => {
    const cancelled: string[] = [];
    const questions = new PendingQuestions({ expiresMs: 1000, maxHeld: 4 }, manualTimers());
    const id = questions.hold(planning(cancelled, 'a'));
    questions.drop('nope', 'x');
    questions.drop(id, 'The conversation went on.');
    assert.deepEqual(cancelled, ['a: The conversation went on.']);
  });
});

describe('questionIdOf and questionFollowups: the conversation\'s last response', () => {
  it('finds the question id in the last response only, never in an earlier one or a request', () => {
    assert.equal(questionIdOf([asked('/plan x'), turn({ command: 'plan', question: 'q1', suggestions: [] })]), 'q1');
    assert.equal(questionIdOf([turn({ question: 'q1' }), asked('y'), turn({ command: 'plan', planId: 'p' })]), undefined);
    assert.equal(questionIdOf([turn({ question: 'q1' }), asked('y')]), undefined);
    assert.equal(questionIdOf([turn(undefined), turn({ question: 42 })]), undefined);
    assert.equal(questionIdOf([]), undefined);
  });

  it('offers the suggestions of a question as follow-ups that send them, and nothing for other results', () => {
    assert.deepEqual(questionFollowups({ metadata: { command: 'plan', question: 'q1', suggestions: ['MIT', 'Apache-2.0', 7] } }), [
      { prompt: 'MIT', label: 'MIT' },
      { prompt: 'Apache-2.0', label: 'Apache-2.0' },
    ]);
    assert.deepEqual(questionFollowups({ metadata: { command: 'plan', planId: 'p', suggestions: ['MIT'] } }), []);
    assert.deepEqual(questionFollowups({}), []);
  });

  it('offers no follow-up the chat would read as a command, another participant or a reference: a model\'s suggestion "/run" would start the plan', () => {
    const suggestions = ['/run', '@planner /run', '  /plan delete everything', '\u200b/run', '@terminal rm -rf ~', '#file:/etc/passwd', '', '   ', 'MIT, not /run', 'Use @types/node'];
    assert.deepEqual(
      questionFollowups({ metadata: { command: 'plan', question: 'q1', suggestions } }).map((followup) => followup.prompt),
      ['MIT, not /run', 'Use @types/node'],
    );
    // What a click on such a follow-up would have sent: the handler reads it as /run, not as the answer.
    assert.equal(parseChatCommand(undefined, '@planner /run').kind, 'run');
    assert.equal(parseChatCommand(undefined, '/run').kind, 'run');
  });
});
