import assert from 'node:assert/strict';
import type { createVscodeLmClient as CreateVscodeLmClient } from '../../../src/vscode/vscodeLmClient';
import { requireWithVscode } from '../../fakes/requireWithVscode';

// Attacks on what a VS Code chat model's call counts against the run's budget (`taskPlanner.budget.maxTokens`): the API
// reports no usage, so the client counts; a reply of tool calls (a `write_file` of a whole file) counted 0 tokens, and so
// did every reply of a model whose `countTokens` fails.

class TextPart {
  constructor(readonly value: string) {}
}
class ToolCallPart {
  constructor(
    readonly callId: string,
    readonly name: string,
    readonly input: object,
  ) {}
}
class CancellationTokenSource {
  readonly token = { isCancellationRequested: false };
  cancel(): void {
    this.token.isCancellationRequested = true;
  }
  dispose(): void {}
}
const api = {
  LanguageModelTextPart: TextPart,
  LanguageModelToolCallPart: ToolCallPart,
  LanguageModelToolResultPart: class {},
  LanguageModelChatMessage: { User: (content: unknown) => ({ role: 'user', content }), Assistant: (content: unknown) => ({ role: 'assistant', content }) },
  CancellationTokenSource,
  CancellationError: class extends Error {},
  LanguageModelError: class extends Error {},
};
const { createVscodeLmClient } = requireWithVscode<{ createVscodeLmClient: typeof CreateVscodeLmClient }>(require.resolve('../../../src/vscode/vscodeLmClient'), api);

/** A chat model streaming `parts` (an endless generator too), whose tokenizer counts a token per 4 characters, or fails when `countFails`. */
function model(parts: Iterable<unknown>, countFails = false): never {
  return {
    id: 'copilot-x',
    family: 'x',
    name: 'X',
    sendRequest: () =>
      Promise.resolve({
        stream: (async function* () {
          yield* parts;
        })(),
      }),
    countTokens: (text: unknown) =>
      countFails ? Promise.reject(new Error('no tokenizer')) : Promise.resolve(Math.ceil((typeof text === 'string' ? text : JSON.stringify(text)).length / 4)),
  } as never;
}

describe('attack: a VS Code chat model\'s reply counted against the budget', () => {
  const signal = new AbortController().signal;
  const messages = [{ role: 'user' as const, content: 'Write the file.' }];

  it('a reply of tool calls counts their arguments (a 40,000-character write_file counted 0 completion tokens)', async () => {
    const content = 'line of the file\n'.repeat(2_400);
    const client = createVscodeLmClient({ model: model([new ToolCallPart('c1', 'write_file', { path: 'a.ts', content })]) });
    const reply = await client.chat({ messages, signal, stream: true });
    assert.equal(reply.toolCalls.length, 1);
    assert.ok(reply.usage.completionTokens >= content.length / 32, `counted ${reply.usage.completionTokens} tokens for ${content.length} characters`);
  });

  it('a model whose countTokens fails still counts what was sent and received', async () => {
    const answer = 'word '.repeat(4_000);
    const client = createVscodeLmClient({ model: model([new TextPart(answer)], true) });
    const reply = await client.chat({ messages: [{ role: 'user', content: 'prompt '.repeat(4_000) }], signal });
    assert.ok(reply.usage.promptTokens >= 28_000 / 32, `prompt: ${reply.usage.promptTokens}`);
    assert.ok(reply.usage.completionTokens >= answer.length / 32, `completion: ${reply.usage.completionTokens}`);
  });

  it('a reply past 2,000,000 characters or 1,000 tool calls ends as an error that says so, and the model is told to stop (it streamed without end into memory)', async () => {
    let closed = 0;
    const endless = (part: () => unknown): never =>
      model(
        (function* () {
          try {
            for (;;) yield part();
          } finally {
            closed++;
          }
        })(),
      );
    const text = await createVscodeLmClient({ model: endless(() => new TextPart('x'.repeat(100_000))) }).chat({ messages, signal }).then(
      () => assert.fail('an endless reply was taken'),
      (error: Error & { kind?: string }) => error,
    );
    assert.match(text.message, /went past 2000000 characters, more than any answer Task Planner accepts/);
    assert.equal(text.kind, 'other');
    let id = 0;
    const calls = await createVscodeLmClient({ model: endless(() => new ToolCallPart(`c${id++}`, 'read_file', {})) }).chat({ messages, signal }).then(
      () => assert.fail('endless tool calls were taken'),
      (error: Error) => error,
    );
    assert.match(calls.message, /held more than 1000 tool calls/);
    assert.equal(closed, 2, 'each stream was closed');
  });
});
