import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createOtlpTraceExporter } from '../../../src/node/otlpTraceExporter';
import type { TraceSpan } from '../../../src/core/trace/traceSpan';

// Attacks on sending a run's trace to the collector the user named: a trace of more spans than the SDK sends at once, a
// collector that never finishes its answer (the CLI waits for the trace before it exits), and one echoing the key the
// user's OpenTelemetry headers gave it in its status line (printed on stderr, in a CI log).

/** A collector on 127.0.0.1 that counts the spans it was sent and answers each request with `answer`. */
class Collector {
  spans = 0;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  constructor(private readonly answer: (request: IncomingMessage, response: ServerResponse) => void) {}
  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        this.spans += (body.match(/"spanId"/g) ?? []).length;
        this.answer(request, response);
      });
    });
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((done) => this.server?.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1/traces`;
  }
  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}

function runSpans(steps: number): TraceSpan[] {
  const spans: TraceSpan[] = [{ id: 'run', name: 'run r', kind: 'run', start: 1_000, end: 9_000, status: 'ok', attributes: { 'task_planner.run.id': 'r' } }];
  for (let step = 1; step <= steps; step++) {
    spans.push({ id: `step:S${step}#1`, parentId: 'run', name: `step S${step}`, kind: 'step', start: 1_000 + step, end: 2_000 + step, status: 'ok', attributes: {} });
  }
  return spans;
}

const settled = (promise: Promise<void>): Promise<Error | undefined> =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );

describe('attack: the collector and the size of the trace', function () {
  this.timeout(20_000);
  let collector: Collector | undefined;
  afterEach(() => collector?.close());

  it('a trace of 300 spans reaches the collector whole (past 30 the SDK refused each: "Concurrent export limit reached")', async () => {
    collector = new Collector((_request, response) => setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 20));
    const url = await collector.start();
    const failure = await settled(createOtlpTraceExporter(url, 'test').export(runSpans(299)));
    assert.equal(failure, undefined, failure?.message);
    assert.equal(collector.spans, 300);
  });

  it('a collector that never finishes its answer (a byte every 100 ms) does not hold the export past its time limit', async () => {
    collector = new Collector((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => (response.destroyed ? clearInterval(drip) : response.write(' ')), 100);
      response.on('close', () => clearInterval(drip));
    });
    const url = await collector.start();
    const started = Date.now();
    const failure = await settled(createOtlpTraceExporter(url, 'test', undefined, { timeoutMs: 1_500 }).export(runSpans(3)));
    assert.ok(failure instanceof Error, 'a collector that never answered counted as the trace sent');
    assert.match(failure.message, /^The trace could not be sent to http:\/\/127\.0\.0\.1:\d+\/v1\/traces: no answer within 2 s/);
    assert.ok(Date.now() - started < 10_000, `the export took ${Date.now() - started} ms`);
  });

  it('a collector echoing the key of the user\'s headers in its 401 status line: the failure does not repeat it', async () => {
    const token = 'otlp-SECRET-token-0123456789';
    collector = new Collector((request, response) => {
      response.statusMessage = `Unauthorized: ${String(request.headers['authorization'])} and ${String(request.headers['x-api-key'])}`;
      response.writeHead(401).end(`bad ${String(request.headers['authorization'])}`);
    });
    const url = await collector.start();
    const failure = await settled(createOtlpTraceExporter(url, 'test', { authorization: `Bearer ${token}`, 'x-api-key': 'k3y-tail' }).export(runSpans(1)));
    assert.ok(failure instanceof Error);
    assert.match(failure.message, /Unauthorized/);
    assert.doesNotMatch(failure.message, /SECRET-token|0123456789|k3y-tail/);
  });
});
