import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLlmError } from '../../../src/core/llm/llmError';
import type { LlmMessage } from '../../../src/core/llm/llmTypes';
import { createOpenAiClient } from '../../../src/node/openAiClient';

// Attacks on "Your API key is sent only to the address it was entered for" (a key is bound to origin AND path: another
// path of one gateway is another account) and on fetch_url's rule that a redirect to this machine or the local network asks:
// a model server answering with a redirect. `fetch` follows one by itself: to another path of the same origin it carried the
// key (the Authorization header is dropped only across origins), and to another origin, this machine included, it sent the
// request again, with the prompts and the code they quote; a workspace's base URL (announced, sent without the key) could so
// bounce requests to a server on the user's machine and read its answers back in the next request.

const apiKey = 'sk-rdx-ATTACK-0123456789abcdef';
const user: LlmMessage[] = [{ role: 'user', content: 'Here is my code: PRIVATE SOURCE' }];

interface Received {
  path: string;
  authorization: string | undefined;
  body: string;
}

/** A server on 127.0.0.1 answering with `answer`, keeping every request. */
async function server(answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ url: string; port: number; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const http: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ path: request.url ?? '', authorization: request.headers.authorization, body });
      answer(request, response);
    });
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () => new Promise((done) => http.close(() => done())),
  };
}

const completion = JSON.stringify({
  id: 'c1',
  object: 'chat.completion',
  created: 0,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'answer from wherever' } }],
  usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
});

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isLlmError(error), String(error));
    return error;
  }
  return assert.fail('the request followed the redirect and succeeded');
}

describe('attack: a model server answering with a redirect', function () {
  this.timeout(20_000);

  for (const status of [307, 308]) {
    it(`attack: ${status} to another path of the same origin (another account of a gateway) does not take the key there`, async () => {
      const gateway = await server((request, response) => {
        if (request.url?.startsWith('/v1/me/')) response.writeHead(status, { location: '/v1/attacker/chat/completions' }).end();
        else response.writeHead(200, { 'content-type': 'application/json' }).end(completion);
      });
      try {
        const llm = createOpenAiClient({ baseURL: `${gateway.url}/v1/me`, apiKey, model: 'gpt-4o-mini', maxAttempts: 1 });
        const error = await failure(llm.chat({ messages: user, signal: new AbortController().signal }));
        assert.deepEqual(
          gateway.received.filter((request) => request.path.startsWith('/v1/attacker')).map((request) => request.authorization),
          [],
          'the other path was sent the request',
        );
        assert.match(error.message, /redirect/i);
        assert.match(error.message, /\/v1\/attacker\/chat\/completions/, 'names where it was sent');
        assert.ok(!error.message.includes(apiKey));
      } finally {
        await gateway.close();
      }
    });
  }

  it('attack: 307 from a workspace\'s server to a server on this machine: the prompt is not sent there, nor its answer read', async () => {
    const local = await server((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(completion));
    // `localhost` is another origin than 127.0.0.1: fetch drops the Authorization header, not the body.
    const workspaceServer = await server((_request, response) => response.writeHead(307, { location: `http://localhost:${local.port}/admin/chat/completions` }).end());
    try {
      const llm = createOpenAiClient({ baseURL: `${workspaceServer.url}/v1`, model: 'gpt-4o-mini', maxAttempts: 1 });
      await failure(llm.chat({ messages: user, signal: new AbortController().signal }));
      assert.equal(workspaceServer.received.length, 1);
      assert.deepEqual(local.received, [], 'the server the redirect named was sent the prompt');
    } finally {
      await local.close();
      await workspaceServer.close();
    }
  });

  it('a redirect is not retried: one request, and the error says to set the address that answers', async () => {
    const moved = await server((_request, response) => response.writeHead(308, { location: 'https://api.example.com/v2/chat/completions?key=hunter2hunter2' }).end());
    try {
      const llm = createOpenAiClient({ baseURL: `${moved.url}/v1`, apiKey, model: 'gpt-4o-mini', maxAttempts: 3, initialBackoffMs: 1, maxBackoffMs: 1 });
      const error = await failure(llm.chat({ messages: user, signal: new AbortController().signal }));
      assert.equal(moved.received.length, 1, 'a redirect was retried');
      assert.match(error.message, /https:\/\/api\.example\.com\/v2\/chat\/completions/);
      // The base URL to set, not the endpoint's whole address (set whole, the next request went to …/chat/completions/chat/completions).
      assert.match(error.message, /set https:\/\/api\.example\.com\/v2 as the base URL\./);
      assert.ok(!error.message.includes('hunter2hunter2'), 'the query of the address it names may hold a key');
    } finally {
      await moved.close();
    }
  });

  // A second trial: a relative Location gave "set /v2 as the base URL", and a sign-in page was suggested as one.
  it('names a relative redirect as the address it leads to, and suggests a base URL only for a model endpoint', async () => {
    for (const [location, expected, advice] of [
      ['/v2/chat/completions', /to http:\/\/127\.0\.0\.1:\d+\/v2\/chat\/completions,/, /set http:\/\/127\.0\.0\.1:\d+\/v2 as the base URL\./],
      ['https://sso.example.com/login?next=%2Fv1', /to https:\/\/sso\.example\.com\/login,/, /Check the base URL: it is the address your model's API answers at/],
    ] as const) {
      const moved = await server((_request, response) => response.writeHead(307, { location }).end());
      try {
        const llm = createOpenAiClient({ baseURL: `${moved.url}/v1`, apiKey, model: 'gpt-4o-mini', maxAttempts: 1 });
        const error = await failure(llm.chat({ messages: user, signal: new AbortController().signal }));
        assert.match(error.message, expected);
        assert.match(error.message, advice);
        assert.doesNotMatch(error.message, /sso\.example\.com\/login as the base URL/);
      } finally {
        await moved.close();
      }
    }
  });
});
