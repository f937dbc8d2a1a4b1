import { toolCallLine } from '../text/toolCallLine';
import { StepFailure } from '../tools/stepFailure';
import type { LlmToolCall } from '../llm/llmTypes';
import type { ToolContext } from '../tools/tool';
import { isChangeEffect } from './changeLog';
import { callAgentTool, notRunOutcome, type AgentToolOutcome } from './agentToolCall';
import type { AgentConversation } from './agentConversation';
import type { AgentCallChange, AgentJournal, AgentResultRecord } from './agentTranscript';

/** What running a turn's calls needs of the agent's options (`StepAgentOptions`). */
export interface TurnCallOptions {
  stepId: string;
  toolContext: ToolContext;
  maxTurns: number;
  toolResultTokens: number;
  maxToolCallsPerTurn: number;
  maxToolResultBytes: number;
  output(text: string): void;
  progress?(message: string): void;
  journal?: AgentJournal;
}

/**
 * Runs the tool calls of turn `turn` (the assistant message asking for them is already in the conversation) and adds
 * each result: of the first `maxToolCallsPerTurn` only, and none once the results sent back fill `maxToolResultBytes`
 * (the others are answered "not run" with the reason). A call whose result an interrupted attempt journaled (`restored`)
 * is not run again: its journaled result is given back instead. Each new result is journaled. Throws a `StepFailure` when
 * the `LoopGuard` sees the same call a third time.
 */
export async function runTurnCalls(
  conversation: AgentConversation,
  options: TurnCallOptions,
  signal: AbortSignal,
  turn: number,
  calls: readonly LlmToolCall[],
  restored?: ReadonlyMap<string, AgentResultRecord>,
): Promise<void> {
  if (calls.length > options.maxToolCallsPerTurn && restored === undefined) {
    const skipped = calls.length - options.maxToolCallsPerTurn;
    options.output(`\n(${skipped} of ${calls.length} tool calls not run: at most ${options.maxToolCallsPerTurn} per turn)\n`);
  }
  for (const [index, call] of calls.entries()) {
    const journaled = restorable(restored?.get(call.id), call);
    if (journaled !== undefined) {
      restoreResult(conversation, call, journaled);
      for (const [path, sha256] of Object.entries(journaled.seen ?? {})) {
        if (sha256 === null) options.toolContext.seenVersions?.delete(path);
        else options.toolContext.seenVersions?.set(path, sha256);
      }
      continue;
    }
    const versions = options.toolContext.seenVersions;
    const before = new Map(versions);
    const { content, ran, change } = await runCall(conversation, options, signal, turn, call, index, calls.length);
    const seen = versions === undefined ? undefined : seenDuring(before, versions);
    options.journal?.result({ turn, callId: call.id, content, ran, ...(change === undefined ? {} : { change }), ...(seen === undefined ? {} : { seen }) });
    conversation.resultBytes += utf8Length(content);
    conversation.messages.push({ role: 'tool', toolCallId: call.id, content });
  }
}

/**
 * `record` when it can be given back for `call`: the envelope of that tool's result, never a user's reply. The journal is the
 * workspace's (a committed one is someone else's): a forged `user_reply` would speak for the user, so `ask_user` asks again.
 */
function restorable(record: AgentResultRecord | undefined, call: LlmToolCall): AgentResultRecord | undefined {
  if (record === undefined) return undefined;
  let envelope: unknown;
  try {
    envelope = JSON.parse(record.content);
  } catch {
    return undefined;
  }
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) return undefined;
  const fields = envelope as Record<string, unknown>;
  const status = fields['status'];
  const known = status === 'ok' || status === 'error' || status === 'not_run';
  return fields['tool'] === call.name && known && !Object.hasOwn(fields, 'user_reply') ? record : undefined;
}

/** Gives back a result the interrupted attempt journaled, counting it as that attempt did. */
function restoreResult(conversation: AgentConversation, call: LlmToolCall, journaled: AgentResultRecord): void {
  if (journaled.ran) {
    conversation.toolCalls++;
    conversation.guard.check(call);
    conversation.guard.remember(call, journaled.content);
  }
  const change = journaled.change;
  if (change !== undefined) conversation.changes.record(call.name, call.arguments, change.outcome, change.reason, change.feedback === true);
  conversation.resultBytes += utf8Length(journaled.content);
  conversation.messages.push({ role: 'tool', toolCallId: call.id, content: journaled.content });
}

async function runCall(
  conversation: AgentConversation,
  options: TurnCallOptions,
  signal: AbortSignal,
  turn: number,
  call: LlmToolCall,
  index: number,
  count: number,
): Promise<{ content: string; ran: boolean; change?: AgentCallChange }> {
  if (index >= options.maxToolCallsPerTurn) {
    const reason = `Not run: at most ${options.maxToolCallsPerTurn} tool calls are run per turn, and this turn asked for ${count}. Call it again in a later turn if you still need it.`;
    return { content: notRunOutcome(call.name, reason).content, ran: false };
  }
  if (conversation.resultBytes >= options.maxToolResultBytes) {
    const reason = `Not run: the tool results of this step already fill ${conversation.resultBytes} bytes, the most one request carries (${options.maxToolResultBytes} bytes). Answer with what you have, or say what is missing.`;
    return { content: notRunOutcome(call.name, reason).content, ran: false };
  }
  const loop = conversation.guard.check(call);
  if (loop !== undefined) {
    options.output(`\n${loop}\n`);
    throw new StepFailure(`Step ${options.stepId}: ${loop}`, false);
  }
  conversation.toolCalls++;
  options.output(`\n→ ${toolCallLine(call.name, call.arguments)}\n`);
  options.progress?.(`turn ${turn} of ${options.maxTurns}: ${call.name}`);
  let outcome: AgentToolOutcome = await callAgentTool(call, conversation.toolsByName, options.toolContext, signal, options.toolResultTokens);
  const tool = conversation.toolsByName.get(call.name);
  let change: AgentCallChange | undefined;
  // A write that found the file as asked changed nothing: listed as applied, it read as a change outside the step's files.
  if (tool !== undefined && isChangeEffect(tool.effects) && outcome.unchanged !== true) {
    const feedback = outcome.feedback !== undefined;
    change = {
      outcome: outcome.ok ? 'applied' : outcome.rejected ? 'rejected' : 'failed',
      ...(outcome.ok || outcome.error === undefined ? {} : { reason: outcome.error }),
      ...(feedback ? { feedback: true as const } : {}),
    };
    conversation.changes.record(call.name, call.arguments, change.outcome, outcome.error, feedback);
  }
  conversation.guard.remember(call, outcome.content);
  // The person reads why in words (the envelope the model gets is JSON): a newcomer read `{"tool":"edit_file","status":"error",…}`.
  if (!outcome.ok) {
    const why = outcome.rejected ? `rejected by you${outcome.error ? `: ${outcome.error}` : ''}` : (outcome.error ?? outcome.content);
    options.output(`✘ ${call.name}: ${why}\n`);
  }
  const bytes = utf8Length(outcome.content);
  if (conversation.resultBytes + bytes > options.maxToolResultBytes) {
    outcome = notRunOutcome(
      call.name,
      `The call ran, but its result (${bytes} bytes) is not given: it would take the tool results of this step past ${options.maxToolResultBytes} bytes, the most one request carries. Ask for a smaller part (a line range, a narrower search), or answer with what you have.`,
    );
  }
  return { content: outcome.content, ran: true, ...(change === undefined ? {} : { change }) };
}

/** What a call changed in the step's `seenVersions` (`before` it ran): each path set, or `null` removed; `undefined` when nothing. */
function seenDuring(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): Record<string, string | null> | undefined {
  const seen: Record<string, string | null> = {};
  for (const [path, sha256] of after) if (before.get(path) !== sha256) seen[path] = sha256;
  for (const path of before.keys()) if (!after.has(path)) seen[path] = null;
  return Object.keys(seen).length === 0 ? undefined : seen;
}

/** Bytes of `text` in UTF-8, without encoding it. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}
