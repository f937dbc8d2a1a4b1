import assert from 'node:assert/strict';
import { UsageError } from '../../../src/cli/cliIo';
import { cliModel, type CliModelOptions } from '../../../src/cli/cliModel';
import { FakeOpenAiServer } from '../../fakes/fakeOpenAiServer';

const apiKey = 'sk-cli-model-SECRET-24680';

describe('cliModel', function () {
  this.timeout(10_000);
  const base: CliModelOptions = { baseUrl: undefined, model: undefined, env: { OPENAI_API_KEY: apiKey }, maxRequests: undefined, maxTokens: undefined, maxCost: undefined, timeout: undefined, allowInsecureKey: false };
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.close());

  it('--timeout (seconds) ends an attempt whose server sent headers and then nothing, and the retry gets the answer', async () => {
    server.enqueue({ kind: 'stall' }, { kind: 'message', content: 'second attempt' });
    const llm = cliModel({ ...base, baseUrl: server.baseURL, timeout: '0.3' });
    // Without the limit the stalled attempt never ends (the test's own time-out fails it).
    const reply = await llm!.chat({ messages: [{ role: 'user', content: 'hi' }], signal: new AbortController().signal, stream: true });
    assert.equal(reply.text, 'second attempt');
    assert.equal(server.chatRequests.length, 2);
  });

  it('refuses a --timeout that is not a positive number of seconds', () => {
    for (const timeout of ['0', '-1', 'soon', '']) assert.throws(() => cliModel({ ...base, timeout }), (error: unknown) => error instanceof UsageError && /--timeout must be a positive number of seconds/.test(error.message), timeout);
  });

  it('refuses to send the key over plain http to another machine unless --allow-insecure-key', () => {
    assert.throws(() => cliModel({ ...base, baseUrl: 'http://192.0.2.10:8000/v1' }), (error: unknown) => error instanceof UsageError && /unencrypted.*--allow-insecure-key/.test(error.message));
    assert.equal(cliModel({ ...base, baseUrl: 'http://192.0.2.10:8000/v1', allowInsecureKey: true })?.model, 'gpt-4o-mini');
    assert.equal(cliModel({ ...base, env: {}, baseUrl: 'http://192.0.2.10:8000/v1' })?.model, 'gpt-4o-mini', 'no key, nothing to refuse');
  });

  it('refuses credentials in --base-url without printing them', () => {
    assert.throws(() => cliModel({ ...base, baseUrl: 'https://alice:s3cretpassw0rd@api.example.com/v1' }), (error: unknown) => error instanceof UsageError && /user name or password/.test(error.message) && !error.message.includes('s3cretpassw0rd'));
  });
});
