import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listServerModels } from '../../../../src/core/llm/modelSetup';

// Attack on "Your API key is sent only to the address it was entered for" in "Set up a model": the key typed for
// `…/v1/me` is sent with `GET …/v1/me/models`; a server answering with a redirect to another path of its origin (another
// account of a gateway) got the key there too, since fetch drops the Authorization header only across origins.

describe('attack: listServerModels and a redirect', () => {
  it('attack: a 307 to another path of the same origin does not take the key there; the listing fails', async () => {
    const seen: { path: string; authorization: string | undefined }[] = [];
    const server = createServer((request, response) => {
      seen.push({ path: request.url ?? '', authorization: request.headers.authorization });
      if (request.url?.startsWith('/v1/me/')) response.writeHead(307, { location: '/v1/attacker/models' }).end();
      else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ id: 'stolen-model' }] }));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/me`;
      const listing = await listServerModels(base, { apiKey: 'sk-typed-for-me-0123456789' });
      assert.deepEqual(seen.map((request) => request.path), ['/v1/me/models'], 'the other path was asked, with the key');
      assert.deepEqual(listing, { ok: false, problem: 'not_listed', detail: 'HTTP 307' });
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });
});
