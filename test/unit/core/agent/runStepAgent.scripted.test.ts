import assert from 'node:assert/strict';
import { z } from 'zod';
import { agentRules, runStepAgent, type StepAgentOptions } from '../../../../src/core/agent/runStepAgent';
import { StepFailure } from '../../../../src/core/tools/stepFailure';
import type { LlmChatRequest, LlmToolCall } from '../../../../src/core/llm/llmTypes';
import type { Tool } from '../../../../src/core/tools/tool';
import { ManualClock } from '../../../fakes/manualClock';
import { scriptedLlm, type ScriptedReply } from '../../../fakes/scriptedLlm';
import { makeToolContext } from '../../../fakes/toolContext';

/** A tool that answers every call with `text`, or fails with it when `fails`. */
const echoTool = (name: string, text: string, fails = false): Tool => ({
  name,
  description: `answers ${name}`,
  effects: 'read',
  inputSchema: z.object({ n: z.number().optional() }),
  run: async () => {
    if (fails) throw new Error(text);
    return text;
  },
});
const calls = (...names: string[]): LlmToolCall[] => names.map((name, index) => ({ id: `c${index}`, name, arguments: JSON.stringify({ n: index }) }));
const toolMessages = (request: LlmChatRequest | undefined): string[] => (request?.messages ?? []).flatMap((message) => (message.role === 'tool' ? [message.content] : []));

describe('runStepAgent with a scripted model', () => {
  let output: string;
  beforeEach(() => {
    output = '';
  });
  const run = (replies: ScriptedReply[], patch: Partial<StepAgentOptions> = {}, llmOptions: Parameters<typeof scriptedLlm>[1] = {}) => {
    const llm = scriptedLlm(replies, llmOptions);
    const promise = runStepAgent({
      llm,
      stepId: 'S1',
      agentPrompt: '  You summarise notes.  ',
      stepPrompt: 'Summarise notes.md',
      tools: [echoTool('read', 'données €😀'), echoTool('broken', 'disk on fire', true)],
      toolContext: makeToolContext({ stepId: 'S1' }),
      clock: new ManualClock(0),
      signal: new AbortController().signal,
      maxTurns: 4,
      timeoutMs: Infinity,
      toolResultTokens: 1_000,
      maxToolCallsPerTurn: 16,
      maxToolResultBytes: 256 * 1024,
      output: (text) => (output += text),
      ...patch,
    });
    return { llm, promise };
  };
  const failure = async (promise: Promise<unknown>): Promise<StepFailure> => {
    const error: unknown = await promise.then(() => undefined, (caught: unknown) => caught);
    assert.ok(error instanceof StepFailure, `expected a StepFailure, got ${String(error)}`);
    return error;
  };

  it('gives the model the agent prompt with the rules, offers no tools to an agent without any, and returns the trimmed answer with its usage and cost', async () => {
    const { llm, promise } = run([{ toolCalls: calls('read') }, '  The notes say hi.  '], {}, { tokensPerCall: 7, costPerCall: 0.5 });
    const result = await promise;
    assert.deepEqual(result, { text: 'The notes say hi.', changes: { applied: [], rejected: [], failed: [] }, turns: 2, toolCalls: 1, usage: { promptTokens: 14, completionTokens: 14 }, costUsd: 1 });
    assert.deepEqual(llm.requests[0]?.messages.slice(0, 2), [
      { role: 'system', content: `You summarise notes.\n\n${agentRules}` },
      { role: 'user', content: 'Summarise notes.md' },
    ]);
    assert.deepEqual(llm.requests[0]?.tools?.map((tool) => tool.name), ['read', 'broken']);

    const bare = run(['Answer.'], { tools: [] });
    await bare.promise;
    assert.equal(Object.hasOwn(bare.llm.requests[0]!, 'tools'), false);
  });

  it('sums the cached prompt tokens of the calls that report them', async () => {
    let call = 0;
    const usage = (cachedPromptTokens?: number) => ({ promptTokens: 2_000, completionTokens: 5, ...(cachedPromptTokens === undefined ? {} : { cachedPromptTokens }) });
    const { promise } = run([() => (call++ === 0 ? { toolCalls: calls('read'), usage: usage() } : { text: 'Done.', usage: usage(1_920) })]);
    assert.deepEqual((await promise).usage, { promptTokens: 4_000, completionTokens: 10, cachedPromptTokens: 1_920 });
  });

  it('reports no cost once one call\'s cost is unknown', async () => {
    let call = 0;
    const { promise } = run([() => (call++ === 0 ? { toolCalls: calls('read'), costUsd: 0.5 } : { text: 'Done.' })]);
    const result = await promise;
    assert.equal(Object.hasOwn(result, 'costUsd'), false);
  });

  it('streams the model\'s text and says when a reply broke off, and nothing of tool-call deltas', async () => {
    const streaming: ScriptedReply = (request) => {
      request.onDelta?.({ kind: 'text', text: 'Working' });
      request.onDelta?.({ kind: 'tool_call', index: 0, argumentsDelta: '{"secret":' });
      request.onDelta?.({ kind: 'retry', attempt: 2, reason: 'connection reset' });
      request.onDelta?.({ kind: 'text', text: 'Done' });
      return 'Done';
    };
    await run([streaming]).promise;
    assert.equal(output, "Working\n(the model's reply broke off; retrying: connection reset)\nDone");
  });

  it('fails, retryably, on an empty answer', async () => {
    const error = await failure(run(['   ']).promise);
    assert.equal(error.message, "Step S1's agent ended without an answer (empty reply).");
    assert.equal(error.retryable, true);
  });

  it('may answer on its last turn', async () => {
    const result = await run([{ toolCalls: calls('read') }, 'Done.'], { maxTurns: 2 }).promise;
    assert.equal(result.turns, 2);
  });

  it('says how many calls of a turn were not run, only when there were too many', async () => {
    await run([{ toolCalls: calls('read', 'read', 'read') }, 'Done.'], { maxToolCallsPerTurn: 2 }).promise;
    assert.match(output, /\n\(1 of 3 tool calls not run: at most 2 per turn\)\n/);
    output = '';
    await run([{ toolCalls: calls('read', 'read') }, 'Done.'], { maxToolCallsPerTurn: 2 }).promise;
    assert.doesNotMatch(output, /not run/);
  });

  it('shows each call and each failed call in the output', async () => {
    await run([{ toolCalls: calls('broken') }, 'Done.']).promise;
    assert.match(output, /\n→ broken n: 0\n/);
    assert.match(output, /✘ broken: disk on fire\n/);
    output = '';
    await run([{ toolCalls: calls('read') }, 'Done.']).promise;
    assert.doesNotMatch(output, /✘/);
  });

  it('counts tool results in UTF-8 bytes, gives a result that exactly fills the limit, and runs nothing once it is full', async () => {
    const probe = run([{ toolCalls: calls('read') }, 'Done.']);
    await probe.promise;
    const [first] = toolMessages(probe.llm.requests[1]);
    const bytes = Buffer.byteLength(first!, 'utf8');
    assert.ok(bytes > first!.length, 'the result has multi-byte characters');

    const full = run([{ toolCalls: calls('read', 'read') }, 'Done.'], { maxToolResultBytes: bytes });
    await full.promise;
    const [given, refused] = toolMessages(full.llm.requests[1]);
    assert.equal(given, first);
    assert.equal((JSON.parse(refused!) as { error: string }).error, `Not run: the tool results of this step already fill ${bytes} bytes, the most one request carries (${bytes} bytes). Answer with what you have, or say what is missing.`);

    const over = run([{ toolCalls: calls('read') }, 'Done.'], { maxToolResultBytes: bytes - 1 });
    await over.promise;
    assert.match((JSON.parse(toolMessages(over.llm.requests[1])[0]!) as { error: string }).error, new RegExp(`^The call ran, but its result \\(${bytes} bytes\\) is not given`));
  });
});
