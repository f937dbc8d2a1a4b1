import assert from 'node:assert/strict';
import { interruptedAgents } from '../../../../src/core/engine/interruptedAgents';
import type { RunEvent, RunEventBody } from '../../../../src/core/engine/runEvents';

const stamp = (bodies: RunEventBody[]): RunEvent[] => bodies.map((body, index): RunEvent => ({ ...body, runId: 'r', seq: index + 1, time: index }));
const turn = (number: number, ids: string[], extra: Partial<Extract<RunEventBody, { type: 'agent_turn' }>> = {}): RunEventBody => ({
  type: 'agent_turn',
  stepId: 'S1',
  turn: number,
  text: `turn ${number}`,
  toolCalls: ids.map((id) => ({ id, name: 'read_file', arguments: '{"path":"a"}' })),
  promptTokens: 10,
  completionTokens: 2,
  ...extra,
});
const result = (number: number, callId: string, extra: Partial<Extract<RunEventBody, { type: 'agent_tool_result' }>> = {}): RunEventBody => ({
  type: 'agent_tool_result',
  stepId: 'S1',
  turn: number,
  callId,
  content: `{"tool":"read_file","status":"ok","untrusted_data":"${callId}"}`,
  ran: true,
  ...extra,
});
const started = (continues = false): RunEventBody => ({ type: 'step_started', stepId: 'S1', attempt: 1, ...(continues ? { continues: true as const } : {}) });
const shape = (events: RunEventBody[], steps = ['S1']) =>
  [...interruptedAgents(stamp(events), new Set(steps))].map(([id, transcript]) => [
    id,
    transcript.turns.map((t) => [t.turn, t.toolCalls.map((c) => c.id), [...t.results.keys()]]),
  ]);

describe('interruptedAgents', () => {
  it("the last attempt's turns with their journaled results; a step not asked for, or without a turn, is left out", () => {
    const events = [
      started(),
      turn(1, ['a']),
      result(1, 'a'),
      turn(2, ['b', 'c']),
      result(2, 'b'),
      { type: 'step_started', stepId: 'S2', attempt: 1 } as RunEventBody,
    ];
    assert.deepEqual(shape(events), [
      [
        'S1',
        [
          [1, ['a'], ['a']],
          [2, ['b', 'c'], ['b']],
        ],
      ],
    ]);
    assert.deepEqual(shape(events, ['S2']), []);
    assert.deepEqual(shape(events, []), []);
  });

  it('a new attempt starts a new conversation; one that continues keeps it, and its results and turns join it', () => {
    const retried = [started(), turn(1, ['a']), result(1, 'a'), { type: 'step_started', stepId: 'S1', attempt: 2 } as RunEventBody];
    assert.deepEqual(shape(retried), []);
    const continued = [started(), turn(1, ['a']), turn(2, ['b']), started(true), result(2, 'b'), turn(3, [])];
    assert.deepEqual(shape(continued), [
      [
        'S1',
        [
          [1, ['a'], []],
          [2, ['b'], ['b']],
          [3, [], []],
        ],
      ],
    ]);
  });

  it('a turn journaled again replaces it and the turns after it; a cut turn, a gap or a repeated call id ends the conversation before it', () => {
    assert.deepEqual(shape([started(), turn(1, ['a']), result(1, 'a'), turn(2, ['b']), started(true), turn(2, ['x'])]), [
      [
        'S1',
        [
          [1, ['a'], ['a']],
          [2, ['x'], []],
        ],
      ],
    ]);
    assert.deepEqual(shape([started(), turn(1, ['a']), result(1, 'a'), turn(2, [], { cut: true, text: '' }), result(2, 'z')]), [['S1', [[1, ['a'], ['a']]]]]);
    assert.deepEqual(shape([started(), turn(1, ['a']), turn(3, ['c'])]), [['S1', [[1, ['a'], []]]]]);
    assert.deepEqual(shape([started(), turn(1, ['a']), turn(2, ['b', 'b'])]), [['S1', [[1, ['a'], []]]]]);
  });

  it('a result cut, or for a call its turn did not ask for, counts as missing; nothing follows an answer', () => {
    assert.deepEqual(shape([started(), turn(1, ['a', 'b']), result(1, 'a', { cut: true, content: '' }), result(1, 'b'), result(1, 'forged')]), [
      ['S1', [[1, ['a', 'b'], ['b']]]],
    ]);
    assert.deepEqual(shape([started(), turn(1, ['a']), result(1, 'a'), turn(2, []), started(true), turn(3, ['c'])]), [
      [
        'S1',
        [
          [1, ['a'], ['a']],
          [2, [], []],
        ],
      ],
    ]);
  });

  it('restores what each turn spent and what each call changed', () => {
    const [transcript] = interruptedAgents(
      stamp([
        started(),
        turn(1, ['a'], { cachedTokens: 4, costUsd: 0.5 }),
        result(1, 'a', { change: { outcome: 'rejected', reason: 'no', feedback: true }, seen: { 'a.txt': 'f00d', 'b.txt': null } }),
      ]),
      new Set(['S1']),
    ).values();
    assert.deepEqual(transcript?.turns[0]?.usage, { promptTokens: 10, completionTokens: 2, cachedPromptTokens: 4 });
    assert.equal(transcript?.turns[0]?.costUsd, 0.5);
    assert.deepEqual(transcript?.turns[0]?.results.get('a')?.change, { outcome: 'rejected', reason: 'no', feedback: true });
    assert.deepEqual(transcript?.turns[0]?.results.get('a')?.seen, { 'a.txt': 'f00d', 'b.txt': null });
  });
});
