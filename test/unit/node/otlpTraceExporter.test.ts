import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { createMemoryRunStore } from '../../../src/core/engine/memoryRunStore';
import type { JournalEntry } from '../../../src/core/runStorePorts';
import { exportRunTraces } from '../../../src/core/trace/exportRunTrace';
import { createOtlpTraceExporter, otlpHeadersFrom } from '../../../src/node/otlpTraceExporter';
import { hostileTraceJournal, traceSecret } from '../../support/hostileTraceJournal';

/** A collector on 127.0.0.1 that keeps the bytes of every request, whatever its path. */
class RecordingCollector {
  readonly bodies: Buffer[] = [];
  readonly headers: IncomingHttpHeaders[] = [];
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      this.headers.push(request.headers);
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        this.bodies.push(request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((done) => this.server?.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1/traces`;
  }

  close(): Promise<void> {
    return new Promise((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}

describe('createOtlpTraceExporter: the spans as sent over OTLP/HTTP', function () {
  this.timeout(30_000);
  let collector: RecordingCollector;
  let url: string;
  beforeEach(async () => {
    collector = new RecordingCollector();
    url = await collector.start();
  });
  afterEach(() => collector.close());

  async function send(content: boolean): Promise<string> {
    const store = createMemoryRunStore();
    await store.append('r-hostile', JSON.parse(JSON.stringify(hostileTraceJournal())) as JournalEntry[]);
    await exportRunTraces(store, ['r-hostile'], createOtlpTraceExporter(url, 'test'), { content });
    assert.ok(collector.bodies.length > 0, 'the collector got the trace');
    return Buffer.concat(collector.bodies).toString('utf8');
  }

  it('without content, nothing a hostile model chose is in the bytes sent: neutral step, agent and tool names instead', async () => {
    const sent = await send(false);
    assert.doesNotMatch(sent, new RegExp(traceSecret, 'i'));
    for (const name of ['step S1', 'step S4', 'execute_tool mcp_tool_1', 'execute_tool tool_1', 'execute_tool read_file', 'agent_1']) assert.ok(sent.includes(name), name);
  });

  it('with content, the real ids, names and content are sent', async () => {
    const sent = await send(true);
    assert.ok(sent.includes(`step ${traceSecret}-read`));
    assert.ok(sent.includes(`Objective ${traceSecret}`));
    assert.ok(sent.includes(`mcp__${traceSecret}__lookup`));
  });

  // A helper's find (2026-12-07): the CLI takes OTEL_EXPORTER_OTLP_HEADERS out of its environment at start (a command could
  // read it there), and the SDK reads only the environment: a collector that wants its key refused every trace.
  it('sends the headers it is given (the CLI reads them from the OpenTelemetry variables it took out of its environment)', async () => {
    const headers = otlpHeadersFrom({ OTEL_EXPORTER_OTLP_HEADERS: 'x-team=a%20b, authorization=Bearer one', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'authorization=Bearer two' });
    assert.deepEqual(headers, { 'x-team': 'a b', authorization: 'Bearer two' });
    const store = createMemoryRunStore();
    await store.append('r-hostile', JSON.parse(JSON.stringify(hostileTraceJournal())) as JournalEntry[]);
    await exportRunTraces(store, ['r-hostile'], createOtlpTraceExporter(url, 'test', headers), { content: false });
    assert.ok(collector.headers.length > 0, 'the collector got the trace');
    for (const got of collector.headers) {
      assert.equal(got['authorization'], 'Bearer two');
      assert.equal(got['x-team'], 'a b');
    }
  });

  it('reads no headers from variables that name none, and keeps a value it cannot decode as it is', () => {
    assert.equal(otlpHeadersFrom({}), undefined);
    assert.equal(otlpHeadersFrom({ OTEL_EXPORTER_OTLP_HEADERS: ' , =x,novalue' }), undefined);
    assert.deepEqual(otlpHeadersFrom({ OTEL_EXPORTER_OTLP_HEADERS: 'k=%E0%A4%A,v=a=b' }), { k: '%E0%A4%A', v: 'a=b' });
  });
});
