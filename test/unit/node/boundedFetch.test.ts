import assert from 'node:assert/strict';
import { boundedFetch } from '../../../src/node/boundedFetch';
import { boundedReplyFetch, ReplyBodyTooLargeError } from '../../../src/node/boundedReplyFetch';

/** A fetch that answers every request with `body` (sent in `chunkSize`-byte chunks), `status` and `type`. */
function answering(body: string, type: string, status = 200, chunkSize = 7): (input: unknown) => Promise<Response> {
  const bytes = new TextEncoder().encode(body);
  return () => {
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(at, at + chunkSize));
        at += chunkSize;
      },
    });
    return Promise.resolve(new Response(status === 204 ? null : stream, { status, headers: { 'content-type': type } }));
  };
}

const tooLarge = (events: boolean): Error => new Error(events ? 'event too large' : 'body too large');

describe('boundedFetch: an answer read at most to its bound', () => {
  it('refuses a JSON body past the bound as it arrives, and passes one within it whole', async () => {
    const fetchBounded = boundedFetch({ maxBody: 100, maxEvent: 100, tooLarge }, answering(JSON.stringify({ text: 'x'.repeat(200) }), 'application/json'));
    await assert.rejects((await fetchBounded('u')).text(), /body too large/);
    const within = boundedFetch({ maxBody: 100, maxEvent: 100, tooLarge }, answering('{"text":"short"}', 'application/json'));
    assert.equal(await (await within('u')).text(), '{"text":"short"}');
  });

  it('bounds an event stream one event at a time: many small events pass, one long event is refused (LF, CR or CRLF)', async () => {
    const small = Array.from({ length: 50 }, (_, index) => `data: ${'y'.repeat(40)}${index}\n\n`).join('');
    const passing = boundedFetch({ maxBody: 100, maxEvent: 100, tooLarge }, answering(small, 'text/event-stream'));
    assert.equal(await (await passing('u')).text(), small, 'a stream of 2,500 bytes in events of 50 passed whole');
    for (const end of ['\n', '\r', '\r\n']) {
      const crlf = `data: ${'z'.repeat(60)}${end}${end}data: ${'z'.repeat(60)}${end}${end}`;
      assert.equal(await (await boundedFetch({ maxBody: 100, maxEvent: 100, tooLarge }, answering(crlf, 'text/event-stream'))('u')).text(), crlf, JSON.stringify(end));
    }
    // One event of two lines is one event: its lines count together.
    const long = `data: ${'z'.repeat(60)}\ndata: ${'z'.repeat(60)}\n\n`;
    await assert.rejects((await boundedFetch({ maxBody: 100, maxEvent: 100, tooLarge }, answering(long, 'text/event-stream'))('u')).text(), /event too large/);
  });

  it('bounds a body and an event each by its own bound', async () => {
    const limit = { maxBody: 1_000, maxEvent: 100, tooLarge };
    const body = JSON.stringify({ text: 'x'.repeat(500) });
    assert.equal(await (await boundedFetch(limit, answering(body, 'application/json'))('u')).text(), body);
    await assert.rejects((await boundedFetch(limit, answering(`data: ${'x'.repeat(200)}\n\n`, 'text/event-stream'))('u')).text(), /event too large/);
  });

  it('leaves alone an answer without a body, and gives a redirect without its body, unread (its headers describe it)', async () => {
    const empty = await boundedFetch({ maxBody: 1, maxEvent: 1, tooLarge }, answering('', 'application/json', 204))('u');
    assert.equal(empty.status, 204);
    const redirect = await boundedFetch({ maxBody: 1, maxEvent: 1, tooLarge }, answering('moved elsewhere', 'text/plain', 302))('u');
    assert.equal(redirect.status, 302);
    assert.equal(await redirect.text(), '', 'a redirect whose body never ends would be read to the time limit');
  });

  it("a model server's reply past its bound fails with ReplyBodyTooLargeError, saying so in one event of a stream", async () => {
    const reply = boundedReplyFetch(1_000, 64, answering(`data: ${'r'.repeat(100)}\n\n`, 'text/event-stream'));
    const failed = await (await reply('u')).text().then(() => undefined, (error: unknown) => error);
    assert.ok(failed instanceof ReplyBodyTooLargeError, String(failed));
    assert.match(failed.message, /went past 64 bytes in one event/);
  });
});
