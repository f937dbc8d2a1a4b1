import type { AgentResultRecord, AgentTranscript, RestoredTurn } from '../agent/agentTranscript';
import type { RunEvent } from './runEvents';

/**
 * The conversation of the last attempt of each agent step of `stepIds` (those a stop left unfinished), from the journal's
 * `events` in order: the `agent_turn` and `agent_tool_result` events since the step's last `step_started` that began a
 * conversation, across the `step_started` events that `continues` it (a resume that continued it, interrupted again).
 * A turn journaled again replaces it and every turn after it; a turn journaled `cut`, out of order, or naming one call id
 * twice ends the conversation before it; a result `cut`, or of a call its turn does not ask for, counts as missing (the call
 * runs again). Steps without a journaled turn are left out: a journal written before these events resumes them afresh.
 */
export function interruptedAgents(events: readonly RunEvent[], stepIds: ReadonlySet<string>): Map<string, AgentTranscript> {
  const turnsOf = new Map<string, { turns: MutableTurn[] }>();
  for (const event of events) {
    if (!('stepId' in event) || !stepIds.has(event.stepId)) continue;
    if (event.type === 'step_started') {
      if (event.continues !== true || !turnsOf.has(event.stepId)) turnsOf.set(event.stepId, { turns: [] });
      continue;
    }
    const conversation = turnsOf.get(event.stepId);
    if (conversation === undefined) continue;
    if (event.type === 'agent_turn') {
      const kept = conversation.turns.filter((turn) => turn.turn < event.turn);
      conversation.turns = kept;
      const ids = new Set(event.toolCalls.map((call) => call.id));
      if (event.cut === true || event.turn !== kept.length + 1 || ids.size !== event.toolCalls.length) continue;
      conversation.turns.push({
        turn: event.turn,
        text: event.text,
        toolCalls: event.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
        usage: {
          promptTokens: event.promptTokens,
          completionTokens: event.completionTokens,
          ...(event.cachedTokens === undefined ? {} : { cachedPromptTokens: event.cachedTokens }),
        },
        ...(event.costUsd === undefined ? {} : { costUsd: event.costUsd }),
        results: new Map(),
      });
    } else if (event.type === 'agent_tool_result') {
      const turn = conversation.turns.find((candidate) => candidate.turn === event.turn);
      if (turn === undefined || !turn.toolCalls.some((call) => call.id === event.callId)) continue;
      if (event.cut === true) {
        turn.results.delete(event.callId);
        continue;
      }
      turn.results.set(event.callId, {
        turn: event.turn,
        callId: event.callId,
        content: event.content,
        ran: event.ran === true,
        ...(event.change === undefined ? {} : { change: event.change }),
        ...(event.seen === undefined ? {} : { seen: event.seen }),
      });
    }
  }
  const transcripts = new Map<string, AgentTranscript>();
  for (const [stepId, { turns }] of turnsOf) {
    // Of an answer (a turn without calls), nothing follows: a turn after it is no conversation the loop made.
    const answered = turns.findIndex((turn) => turn.toolCalls.length === 0);
    const whole = answered < 0 ? turns : turns.slice(0, answered + 1);
    if (whole.length > 0) transcripts.set(stepId, { turns: whole });
  }
  return transcripts;
}

interface MutableTurn extends RestoredTurn {
  results: Map<string, AgentResultRecord>;
}
