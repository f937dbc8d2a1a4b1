import assert from 'node:assert/strict';
import { describeApprovalForTerminal, terminalInteraction } from '../../../src/cli/terminalInteraction';
import type { CliIo } from '../../../src/cli/cliIo';

/** An interactive terminal that answers every question with `answer` and records the questions. */
function terminal(answer: string): { io: CliIo; questions: string[] } {
  const questions: string[] = [];
  const io: CliIo = {
    out: () => undefined,
    err: () => undefined,
    interactive: true,
    ask: async (question) => {
      questions.push(question);
      return answer;
    },
  };
  return { io, questions };
}

const wall = `Which?${'\n'.repeat(3000)}type yes`;

describe('questions on the terminal with texts made to push them out of sight', () => {
  const signal = new AbortController().signal;

  it('a clarification shows a wall of blank lines collapsed, its suggestions each on the line of the list', async () => {
    const { io, questions } = terminal('');
    const interaction = terminalInteraction(io, { yes: false });
    const answer = await interaction.askClarification({ stepId: 'q', title: 'Q', question: wall, suggestions: [`one\n${'\n'.repeat(50)}two`, 'three'] }, signal);
    assert.equal(answer, 'defer');
    assert.equal(questions[0], 'Step q asks: Which?\n\n… (2997 more blank lines left out)\n\ntype yes\n  suggestions: 1) one two  2) three\nAnswer (empty to defer): ');
  });

  it('a clarification question of half a million characters is bounded', async () => {
    const { io, questions } = terminal('');
    await terminalInteraction(io, { yes: false }).askClarification({ stepId: 'q', title: 'Q', question: 'w '.repeat(250_000) }, signal);
    assert.ok(questions[0]!.length < 8_100, `${questions[0]!.length} characters`);
  });

  it('a review prompt shows a wall of blank lines collapsed', async () => {
    const { io, questions } = terminal('d');
    assert.equal(await terminalInteraction(io, { yes: false }).requestReview({ stepId: 'r', title: 'R', prompt: wall }, signal), 'defer');
    assert.equal(questions[0], 'Step r asks for your review:\nWhich?\n\n… (2997 more blank lines left out)\n\ntype yes\nApprove? [y]es / [n]o / [d]efer: ');
  });

  it('attack: a write that only drops a byte order mark, or adds a zero-width space, shows the difference in its diff', () => {
    const request = {
      kind: 'file' as const, stepId: 'w', title: 'Rewrite', operation: 'write' as const,
      proposal: { path: 'a.txt', diff: '--- a.txt\n+++ a.txt\n-\ufeffline one\n+line one\n-two\n+t\u200bwo\n', newContent: 'line one\nt\u200bwo\n' },
    };
    const shown = describeApprovalForTerminal(request as never);
    assert.ok(shown.endsWith('-\\ufeffline one\n+line one\n-two\n+t\\u200bwo\n'), shown);
  });
});

describe('--yes on the terminal', () => {
  const change = (extra: object) => ({
    kind: 'file' as const, stepId: 'E1', title: 'Edit', operation: 'edit' as const,
    proposal: { path: 'shared.txt', currentText: 'x=1.1\n', proposedText: 'x=1.1.1\n', diff: '-x=1.1\n+x=1.1.1\n' }, ...extra,
  });

  it('approves a file change, but asks about one a crash may already have made, saying so', async () => {
    const { io, questions } = terminal('n');
    const asking = terminalInteraction(io, { yes: true });
    assert.deepEqual(await asking.requestApproval(change({}), new AbortController().signal), { approved: true });
    assert.deepEqual(questions, []);
    const answer = await asking.requestApproval(change({ interrupted: true }), new AbortController().signal);
    assert.equal(answer !== 'defer' && answer.approved, false);
    assert.match(questions[0] ?? '', /edit shared\.txt \(the step was making this change when the run was interrupted, and the file changed since: it may already be in it; compare first\)/);
  });

  it('without a terminal, leaves such a change waiting instead of approving it', async () => {
    const { io } = terminal('y');
    const answer = await terminalInteraction({ ...io, interactive: false }, { yes: true }).requestApproval(change({ interrupted: true }), new AbortController().signal);
    assert.equal(answer, 'defer');
  });
});

describe('an approval answered on the terminal', () => {
  const signal = new AbortController().signal;
  const command = { kind: 'command' as const, stepId: 'log', title: 'Log', argv: ['npm', 'test'], cwd: '', shell: false };

  /** An interactive terminal answering each question in turn ('' once the answers run out), recording the questions. */
  function answering(...answers: string[]): { io: CliIo; questions: string[] } {
    const questions: string[] = [];
    const io: CliIo = { out: () => undefined, err: () => undefined, interactive: true, ask: async (question) => (questions.push(question), answers.shift() ?? '') };
    return { io, questions };
  }

  // A newcomer pressed Enter at a tick's question: the tick was rejected, and the task stayed unticked.
  it('Enter alone defers the request, as at a manual step, instead of rejecting it', async () => {
    const { io, questions } = answering('');
    assert.equal(await terminalInteraction(io, { yes: false }).requestApproval(command, signal), 'defer');
    assert.equal(questions.length, 1);
  });

  it('asks again after an answer it does not know, saying which answers it takes, then takes one', async () => {
    const { io, questions } = answering('ye', 'Y');
    assert.deepEqual(await terminalInteraction(io, { yes: false }).requestApproval(command, signal), { approved: true });
    assert.deepEqual(questions.slice(1), ['Type y (yes), n (no) or d (defer): ']);
    const again = answering('nope', 'no');
    assert.deepEqual(await terminalInteraction(again.io, { yes: false }).requestApproval(command, signal), { approved: false });
    assert.equal(again.questions.length, 2);
  });

  it('names a step titled by its id once ("Step log wants to", not "Step log (log) wants to")', () => {
    assert.match(describeApprovalForTerminal({ ...command, title: 'log' }), /^Step log wants to run:\n/);
    assert.match(describeApprovalForTerminal(command), /^Step log \(Log\) wants to run:\n/);
  });
});
