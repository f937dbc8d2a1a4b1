import assert from 'node:assert/strict';
import { isLlmError, type LlmError } from '../../../src/core/llm/llmError';
import type { LlmChatResponse } from '../../../src/core/llm/llmTypes';
import type { LlmClient, Logger } from '../../../src/core/servicePorts';
import { createOpenAiClient, type OpenAiClientOptions } from '../../../src/node/openAiClient';
import { FakeOpenAiServer } from '../../fakes/fakeOpenAiServer';
import { ManualClock } from '../../fakes/manualClock';

/** The key every harness client sends; no error message may contain it. */
export const apiKey = 'sk-test-SECRET-123456';
/** The harness clock's start, ms since the epoch. */
export const start = Date.parse('2026-01-01T00:00:00Z');

/** A fake server and a clock that jumps to the next sleep, fresh for every test of the suite. */
export interface OpenAiHarness {
  server: FakeOpenAiServer;
  clock: ManualClock;
  /** A client of the fake server for `gpt-4o-mini`, with the harness key and clock; `patch` overrides. */
  client(patch?: Partial<OpenAiClientOptions>): LlmClient;
}

/** Installs mocha hooks that start a fake server before each test and close it (no socket left open) after. */
export function useOpenAiHarness(): OpenAiHarness {
  const harness = {
    client: (patch: Partial<OpenAiClientOptions> = {}): LlmClient =>
      createOpenAiClient({ baseURL: patch.baseURL ?? harness.server.baseURL, apiKey, model: 'gpt-4o-mini', clock: harness.clock, ...patch }),
  } as OpenAiHarness;
  beforeEach(async () => {
    harness.server = await new FakeOpenAiServer({ models: ['gpt-4o-mini'] }).start();
    harness.clock = new ManualClock(start, { autoAdvance: true });
  });
  afterEach(async () => {
    await harness.server.close();
    assert.equal(harness.server.openSockets, 0);
  });
  return harness;
}

/** The `LlmError` the call ends with; fails the test when it succeeds, throws something else or shows the key. */
export async function rejection(promise: Promise<LlmChatResponse>): Promise<LlmError> {
  try {
    await promise;
  } catch (error: unknown) {
    assert.ok(isLlmError(error), `expected an LlmError, got ${String(error)}`);
    assert.ok(!error.message.includes(apiKey), 'the API key leaked into the error message');
    return error;
  }
  assert.fail('expected the call to fail');
}

/** A logger that keeps every entry. */
export function recordingLogger(): Logger & { entries: { level: string; message: string; data: Record<string, unknown> | undefined }[] } {
  const entries: { level: string; message: string; data: Record<string, unknown> | undefined }[] = [];
  const record = (level: string) => (message: string, data?: Record<string, unknown>): void => void entries.push({ level, message, data });
  return { entries, debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
}
