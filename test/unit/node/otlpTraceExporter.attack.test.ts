import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryRunStore } from '../../../src/core/engine/memoryRunStore';
import type { JournalEntry } from '../../../src/core/runStorePorts';
import { exportRunTraces } from '../../../src/core/trace/exportRunTrace';
import { createOtlpTraceExporter } from '../../../src/node/otlpTraceExporter';
import { hostileTraceJournal } from '../../support/hostileTraceJournal';

// Attacks on "a trace is sent only where you say" (docs/tracing.md): the collector the user named answers with a redirect
// to another server, and the environment names another collector (OTEL_EXPORTER_OTLP_ENDPOINT and its traces variant,
// which the OpenTelemetry SDK reads by itself). Neither other server may receive a byte of the trace, content included.

/** A server on 127.0.0.1 answering each request with `answer`, counting what it received. */
class Server127 {
  readonly bodies: string[] = [];
  private server: Server | undefined;
  constructor(private readonly answer: (request: IncomingMessage, response: ServerResponse) => void) {}
  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('latin1')));
      request.on('end', () => {
        this.bodies.push(body);
        this.answer(request, response);
      });
    });
    await new Promise<void>((done) => this.server?.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  close(): Promise<void> {
    return new Promise((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}

async function exportHostileRun(url: string): Promise<unknown> {
  const store = createMemoryRunStore();
  await store.append('r-hostile', JSON.parse(JSON.stringify(hostileTraceJournal())) as JournalEntry[]);
  return exportRunTraces(store, ['r-hostile'], createOtlpTraceExporter(url, 'test'), { content: true }).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('attack: the trace sent elsewhere than the collector the user named', function () {
  this.timeout(30_000);
  let elsewhere: Server127;
  let elsewhereUrl: string;
  const saved = { all: process.env['OTEL_EXPORTER_OTLP_ENDPOINT'], traces: process.env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] };
  beforeEach(async () => {
    elsewhere = new Server127((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    elsewhereUrl = await elsewhere.start();
  });
  afterEach(async () => {
    await elsewhere.close();
    for (const [name, value] of [['OTEL_EXPORTER_OTLP_ENDPOINT', saved.all], ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', saved.traces]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  for (const status of [301, 302, 307, 308]) {
    it(`attack: a collector answering ${status} to another server: the trace is not sent there, and the export says it failed`, async () => {
      const collector = new Server127((_request, response) => response.writeHead(status, { location: `${elsewhereUrl}/v1/traces` }).end());
      const url = `${await collector.start()}/v1/traces`;
      try {
        const failure = await exportHostileRun(url);
        assert.ok(collector.bodies.length > 0, 'the named collector was sent the trace');
        assert.deepEqual(elsewhere.bodies, [], 'the server the redirect named received the trace');
        assert.ok(failure instanceof Error, 'a redirect counted as the trace sent');
        assert.match(failure.message, /^The trace could not be sent to http:\/\/127\.0\.0\.1:\d+\/v1\/traces/);
      } finally {
        await collector.close();
      }
    });
  }

  it('attack: OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT naming another collector do not take the trace there', async () => {
    process.env['OTEL_EXPORTER_OTLP_ENDPOINT'] = elsewhereUrl;
    process.env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] = `${elsewhereUrl}/v1/traces`;
    const collector = new Server127((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    const url = `${await collector.start()}/v1/traces`;
    try {
      assert.equal(await exportHostileRun(url), undefined, 'the export failed');
      assert.ok(collector.bodies.length > 0, 'the named collector was sent the trace');
      assert.deepEqual(elsewhere.bodies, [], 'the collector the environment named received the trace');
    } finally {
      await collector.close();
    }
  });
});
