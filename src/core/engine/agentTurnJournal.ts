import {
  maxJournaledResultChars,
  maxJournaledSeenFiles,
  maxJournaledTurnCalls,
  maxJournaledTurnChars,
  type AgentJournal,
  type AgentTranscript,
} from '../agent/agentTranscript';
import type { RunEventBody } from './runEvents';
import type { Step } from '../plan/planSchema';
import type { ResolvedRunOptions } from './runOptions';

/**
 * The `AgentJournal` of an agent attempt of step `stepId`: each model reply is an `agent_turn` event, stored (`flush`)
 * before its calls run, and each call's result an `agent_tool_result` event; `restored`, the conversation of the
 * interrupted attempt this one continues. Each line stays bounded: a turn longer than `maxJournaledTurnChars` (or with
 * more than `maxJournaledTurnCalls` calls) is journaled `cut`, without its text and calls, and a result longer than
 * `maxJournaledResultChars` `cut`, without its content; a resumed run then asks the model again from that turn, or runs
 * that call again.
 */
export function agentTurnJournal(
  stepId: string,
  restored: AgentTranscript | undefined,
  journal: (body: RunEventBody) => void,
  flush: () => Promise<boolean>,
): AgentJournal {
  return {
    ...(restored === undefined ? {} : { restored }),
    turn({ turn, text, toolCalls, usage, costUsd }) {
      const chars = toolCalls.reduce((sum, call) => sum + call.id.length + call.name.length + call.arguments.length, text.length);
      const cut = chars > maxJournaledTurnChars || toolCalls.length > maxJournaledTurnCalls;
      journal({
        type: 'agent_turn',
        stepId,
        turn,
        text: cut ? '' : text,
        toolCalls: cut ? [] : toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
        promptTokens: count(usage.promptTokens),
        completionTokens: count(usage.completionTokens),
        ...(usage.cachedPromptTokens === undefined ? {} : { cachedTokens: count(usage.cachedPromptTokens) }),
        ...(costUsd === undefined || count(costUsd) !== costUsd ? {} : { costUsd }),
        ...(cut ? { cut: true as const } : {}),
      });
      return flush();
    },
    result({ turn, callId, content, ran, change, seen }) {
      const paths = Object.keys(seen ?? {});
      const cut =
        content.length > maxJournaledResultChars ||
        callId.length > maxJournaledTurnChars ||
        paths.length > maxJournaledSeenFiles ||
        paths.some((path) => path.length > maxJournaledTurnChars);
      journal({
        type: 'agent_tool_result',
        stepId,
        turn,
        callId: callId.length > maxJournaledTurnChars ? '' : callId,
        content: cut ? '' : content,
        ...(ran ? { ran: true as const } : {}),
        ...(change === undefined ? {} : { change }),
        ...(seen === undefined || cut ? {} : { seen }),
        ...(cut ? { cut: true as const } : {}),
      });
    },
  };
}

/**
 * The conversation of `step`'s interrupted agent attempt its first attempt in this run continues: `interrupted`,
 * when the step's own agent loop runs it (an agent step, a model, no `stepRunner` of the host's).
 */
export function continuedConversation(
  step: Step,
  interrupted: AgentTranscript | undefined,
  options: Pick<ResolvedRunOptions, 'stepRunner' | 'llm'>,
): AgentTranscript | undefined {
  const ownLoop = step.kind === 'agent' && options.stepRunner === undefined && options.llm !== undefined;
  return ownLoop && interrupted !== undefined && interrupted.turns.length > 0 ? interrupted : undefined;
}

/** `value` when it is a count (finite, not negative), else 0. */
function count(value: number): number {
  return Number.isFinite(value) && value >= 0 ? value : 0;
}
