import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAiServer } from '../../fakes/fakeOpenAiServer';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

// Attack on "No secret leaves": a model server (or a proxy in front of it) that refuses the key and echoes the request's
// Authorization header in its 401 body, in several spellings. The error it makes ends up in the step's failure, so in the
// journal, stdout/stderr, the trace sent over OTLP with content, and the trace file `task-planner trace --trace` writes.

const apiKey = 'sk-echo-ATTACK-9f8e7d6c5b4a39281706';

/** Every place of 8 characters or more of the key in `text` (the redactor's unit), to say where one leaked. */
function keyRuns(text: string): string[] {
  const found: string[] = [];
  for (let start = 0; start + 8 <= apiKey.length; start++) if (text.includes(apiKey.slice(start, start + 8))) found.push(apiKey.slice(start, start + 8));
  return found;
}

/** An OTLP/HTTP receiver on 127.0.0.1 keeping each body as it came. */
class Collector {
  readonly bodies: string[] = [];
  private server: Server | undefined;
  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        this.bodies.push(body);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((done) => this.server?.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  close(): Promise<void> {
    return new Promise((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}

describe('attack: a model server echoing the API key in its refusal', function () {
  this.timeout(90_000);
  const workspace = temporaryDirectory('cli-key-echo-');
  let model: FakeOpenAiServer;
  let collector: Collector;
  let endpoint: string;
  beforeEach(async () => {
    model = await new FakeOpenAiServer().start();
    collector = new Collector();
    endpoint = await collector.start();
    writeFileSync(
      join(workspace.path, 'plan.json'),
      JSON.stringify({ objective: 'Summarise', steps: [{ id: 'S1', title: 'Summarise', kind: 'agent', input: 'Summarise the notes.' }] }),
    );
    model.on(
      () => true,
      (request) => {
        const sent = String(request.headers.authorization ?? '');
        const key = sent.replace(/^Bearer /, '');
        return {
          kind: 'error',
          status: 401,
          message: `Incorrect API key provided. You sent "Authorization: ${sent}" (${encodeURIComponent(key)}; ${JSON.stringify({ key })}; without its prefix: ${key.slice(3)}).`,
        };
      },
    );
  });
  afterEach(async () => {
    await model.close();
    await collector.close();
  });

  it('attack: the key reaches none of stdout, stderr, the journal, the OTLP trace with content, nor the trace file', async () => {
    const result = await runCli(
      ['run', join(workspace.path, 'plan.json'), '--workspace', workspace.path, '--base-url', model.baseURL, '--trace-endpoint', endpoint, '--trace-content', '--json'],
      { OPENAI_API_KEY: apiKey },
    );
    assert.equal(model.chatRequests[0]?.headers.authorization, `Bearer ${apiKey}`, 'the server was sent the key');
    assert.notEqual(result.code, 0, 'the refused key fails the run');
    assert.match(result.stdout + result.stderr, /Incorrect API key provided/, "the server's words are shown");
    assert.ok(collector.bodies.length > 0, 'the trace was sent');
    const runId = (JSON.parse(result.stdout) as { runId: string }).runId;
    const traceFile = join(workspace.path, 'trace.jsonl');
    const traced = await runCli(['trace', runId, '--workspace', workspace.path, '--trace', traceFile, '--trace-content'], { OPENAI_API_KEY: apiKey });
    assert.equal(traced.code, 0, traced.stderr);
    const runs = join(workspace.path, '.task-planner', 'runs');
    const journal = readdirSync(runs).map((file) => readFileSync(join(runs, file), 'utf8')).join('\n');
    assert.match(journal, /Incorrect API key provided/, "the journal holds the server's words");
    for (const [where, text] of [
      ['stdout', result.stdout],
      ['stderr', result.stderr],
      ['the journal', journal],
      ['the OTLP trace', collector.bodies.join('\n')],
      ['the trace on screen', traced.stdout + traced.stderr],
      ['the trace file', readFileSync(traceFile, 'utf8')],
    ] as const) {
      assert.deepEqual(keyRuns(text), [], `the key reached ${where}`);
    }
  });
});
