import assert from 'node:assert/strict';
import { maxJournaledResultChars, maxJournaledSeenFiles, maxJournaledTurnCalls, maxJournaledTurnChars } from '../../../../src/core/agent/agentTranscript';
import { agentTurnJournal, continuedConversation } from '../../../../src/core/engine/agentTurnJournal';
import { runEventProblem } from '../../../../src/core/engine/runEventSchema';
import type { RunEventBody } from '../../../../src/core/engine/runEvents';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { makeStep } from '../../../support/randomPlans';

const usage = { promptTokens: 5, completionTokens: 1 };
const lineOf = (body: RunEventBody): string => JSON.stringify({ ...body, runId: 'r', seq: 1, time: 0 });

describe('agentTurnJournal', () => {
  it('journals each reply and stores it before its calls run; each result after', async () => {
    const bodies: RunEventBody[] = [];
    let flushed = 0;
    const journal = agentTurnJournal(
      'S1',
      undefined,
      (body) => bodies.push(body),
      async () => (flushed++, true),
    );
    assert.equal(await journal.turn({ turn: 1, text: 'reading', toolCalls: [{ id: 'a', name: 'read_file', arguments: '{}' }], usage, costUsd: 0.01 }), true);
    assert.equal(flushed, 1);
    journal.result({ turn: 1, callId: 'a', content: '{"tool":"read_file"}', ran: true });
    assert.deepEqual(bodies, [
      {
        type: 'agent_turn',
        stepId: 'S1',
        turn: 1,
        text: 'reading',
        toolCalls: [{ id: 'a', name: 'read_file', arguments: '{}' }],
        promptTokens: 5,
        completionTokens: 1,
        costUsd: 0.01,
      },
      { type: 'agent_tool_result', stepId: 'S1', turn: 1, callId: 'a', content: '{"tool":"read_file"}', ran: true },
    ]);
    for (const body of bodies) assert.equal(runEventProblem(JSON.parse(lineOf(body))), undefined);
  });

  it('keeps every line bounded: a reply or a result too long to journal is journaled cut, without it, and still reads as a run event', async () => {
    const bodies: RunEventBody[] = [];
    const journal = agentTurnJournal(
      'S1',
      undefined,
      (body) => bodies.push(body),
      async () => true,
    );
    const huge = 'x'.repeat(maxJournaledTurnChars);
    await journal.turn({ turn: 1, text: 'writing', toolCalls: [{ id: 'a', name: 'write_file', arguments: huge }], usage });
    await journal.turn({
      turn: 2,
      text: '',
      toolCalls: Array.from({ length: maxJournaledTurnCalls + 1 }, (_, index) => ({ id: `c${index}`, name: 'read_file', arguments: '{}' })),
      usage,
    });
    journal.result({ turn: 2, callId: 'c0', content: 'y'.repeat(maxJournaledResultChars + 1), ran: true });
    journal.result({
      turn: 2,
      callId: 'c1',
      content: '{}',
      ran: true,
      seen: Object.fromEntries(Array.from({ length: maxJournaledSeenFiles + 1 }, (_, index) => [`f${index}`, 'ab'])),
    });
    assert.deepEqual(
      bodies.map((body) => [body.type, 'cut' in body ? body.cut : undefined]),
      [
        ['agent_turn', true],
        ['agent_turn', true],
        ['agent_tool_result', true],
        ['agent_tool_result', true],
      ],
    );
    for (const body of bodies) {
      const line = lineOf(body);
      assert.ok(line.length < 1_000, `${line.length} characters`);
      assert.equal(runEventProblem(JSON.parse(line)), undefined);
    }
    // A line longer than the writer journals is damage, not a conversation to continue.
    assert.match(
      runEventProblem(
        JSON.parse(lineOf({ type: 'agent_tool_result', stepId: 'S1', turn: 1, callId: 'a', content: 'y'.repeat(maxJournaledResultChars + 1) })),
      ) ?? '',
      /content/,
    );
  });

  it('continues only an agent step its own loop runs, with a turn to continue', () => {
    const transcript = { turns: [{ turn: 1, text: '', toolCalls: [], usage, results: new Map() }] };
    const llm = scriptedLlm(['x']);
    assert.equal(continuedConversation(makeStep('S1'), transcript, { llm, stepRunner: undefined }), transcript);
    assert.equal(continuedConversation(makeStep('S1'), { turns: [] }, { llm, stepRunner: undefined }), undefined);
    assert.equal(continuedConversation(makeStep('S1'), transcript, { llm, stepRunner: async () => 'done' }), undefined);
    assert.equal(continuedConversation(makeStep('S1', { kind: 'synthesis_gate' }), transcript, { llm, stepRunner: undefined }), undefined);
  });
});
