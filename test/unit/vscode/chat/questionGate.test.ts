import assert from 'node:assert/strict';
import { QuestionGate } from '../../../../src/vscode/chat/questionGate';

const question = { question: 'Which license?', suggestions: ['MIT'] };

describe('QuestionGate: the planner\'s question meets the chat conversation', () => {
  it('the request following the planning learns of the question; the answer reaches the planner once', async () => {
    const gate = new QuestionGate();
    const next = gate.next();
    const answer = gate.ask(question, new AbortController().signal);
    assert.deepEqual(await next, question);
    gate.answer('MIT');
    gate.answer('Apache-2.0');
    assert.equal(await answer, 'MIT');
  });

  it('a question asked before anyone waits is still seen by next(); after the answer, next() waits for the next question', async () => {
    const gate = new QuestionGate();
    const first = gate.ask(question, new AbortController().signal);
    assert.deepEqual(await gate.next(), question);
    gate.answer(undefined);
    assert.equal(await first, undefined);
    let seen = false;
    const later = gate.next().then((asked) => (seen = true, asked));
    await Promise.resolve();
    assert.equal(seen, false, 'no question is waiting now');
    const second = { question: 'Which year?', suggestions: [] };
    void gate.ask(second, new AbortController().signal);
    assert.deepEqual(await later, second);
  });

  it('planning stopped while the question waits gives no answer; a question asked after the stop is not shown', async () => {
    const gate = new QuestionGate();
    const stop = new AbortController();
    const waiting = gate.ask(question, stop.signal);
    stop.abort();
    assert.equal(await waiting, undefined);
    const stopped = new AbortController();
    stopped.abort();
    let shown = false;
    void gate.next().then(() => (shown = true));
    assert.equal(await gate.ask(question, stopped.signal), undefined);
    await Promise.resolve();
    assert.equal(shown, false);
  });
});
