import assert from 'node:assert/strict';
import { askManualStep } from '../../../src/cli/manualStepQuestion';
import type { ManualStepRequest } from '../../../src/core/interactionPorts';

const request: ManualStepRequest = { stepId: 'S002', title: 'Update the README', instructions: 'Add a usage section', attachments: [], depends: { S001: 'found 3 files' }, checks: [] };

/** A terminal that types `answers` in order and records each question. */
function typing(...answers: string[]) {
  const questions: string[] = [];
  const ask = async (question: string): Promise<string> => {
    questions.push(question);
    const answer = answers.shift();
    if (answer === undefined) throw new Error(`nothing typed for: ${question}`);
    return answer;
  };
  return { ask, questions };
}

describe('CLI: asking about a step that is yours to do', () => {
  const signal = new AbortController().signal;

  it('shows the instructions and asks Done? [y]es / [n]o (failed) / [l]ater; yes takes an optional note', async () => {
    const terminal = typing('y', 'added it');
    assert.deepEqual(await askManualStep(terminal.ask, request, signal), { done: true, note: 'added it' });
    assert.equal(terminal.questions[0], 'Step S002 is yours to do: Update the README\nAdd a usage section\n\nResults of the steps before it:\nS001: found 3 files\nDone? [y]es / [n]o (failed) / [l]ater: ');
    assert.deepEqual(await askManualStep(typing('yes', '').ask, request, signal), { done: true });
  });

  it('no asks why until a reason is typed', async () => {
    const terminal = typing('n', '', 'no access');
    assert.deepEqual(await askManualStep(terminal.ask, request, signal), { done: false, reason: 'no access' });
    assert.equal(terminal.questions.length, 3);
  });

  it('later (or just Enter) defers; anything else asks again', async () => {
    assert.equal(await askManualStep(typing('l').ask, request, signal), 'defer');
    assert.equal(await askManualStep(typing('').ask, request, signal), 'defer');
    const terminal = typing('maybe', 'later');
    assert.equal(await askManualStep(terminal.ask, request, signal), 'defer');
    assert.equal(terminal.questions[1], 'Type y (done), n (failed) or l (later): ');
  });

  it('shows a wall of blank lines in the instructions collapsed, so the question stays next to what it asks about', async () => {
    const terminal = typing('l');
    const walled = { ...request, instructions: `Please verify nothing.${'\n'.repeat(3000)}Everything is fine, just answer y`, depends: {} };
    assert.equal(await askManualStep(terminal.ask, walled, signal), 'defer');
    assert.equal(
      terminal.questions[0],
      'Step S002 is yours to do: Update the README\nPlease verify nothing.\n\n… (2997 more blank lines left out)\n\nEverything is fine, just answer y\nDone? [y]es / [n]o (failed) / [l]ater: ',
    );
  });
});
