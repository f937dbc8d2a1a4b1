import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAiServer } from '../../fakes/fakeOpenAiServer';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: OtlpValue }[];
}

/** An OTLP/HTTP (JSON) receiver on 127.0.0.1: keeps every span posted to /v1/traces. */
class OtlpReceiver {
  readonly spans: OtlpSpan[] = [];
  /** Every request's body as it came. */
  readonly bodies: string[] = [];
  requests = 0;
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        this.requests++;
        this.bodies.push(body);
        if (request.url === '/v1/traces' && request.method === 'POST') {
          const parsed = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
          for (const resource of parsed.resourceSpans) for (const scope of resource.scopeSpans) this.spans.push(...scope.spans);
        }
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

function attribute(span: OtlpSpan, key: string): string | number | boolean | undefined {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  if (value === undefined) return undefined;
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.doubleValue ?? value.boolValue;
}

describe('task-planner run --trace-endpoint, and task-planner trace', function () {
  this.timeout(90_000);
  const workspace = temporaryDirectory('cli-trace-');
  let model: FakeOpenAiServer;
  let receiver: OtlpReceiver;
  let endpoint: string;
  beforeEach(async () => {
    model = await new FakeOpenAiServer().start();
    receiver = new OtlpReceiver();
    endpoint = await receiver.start();
    writeFileSync(join(workspace.path, 'notes.txt'), 'SECRET FILE CONTENT\n');
    writeFileSync(
      join(workspace.path, 'plan.json'),
      JSON.stringify({
        objective: 'Summarise the notes PRIVATE OBJECTIVE',
        agents: { reader: { prompt: 'You read files.', tools: ['read_file'] } },
        steps: [
          { id: 'S1', title: 'Read the notes', kind: 'agent', agent: 'reader', input: 'Summarise notes.txt PRIVATE INPUT' },
          { id: 'S2', title: 'List the files', tool: 'list_files', args: { glob: '*.txt' }, dependsOn: ['S1'] },
        ],
      }),
    );
    model.enqueue(
      { kind: 'message', toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }], usage: { prompt_tokens: 300, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 128 } } },
      { kind: 'message', content: 'The notes say: SECRET FILE CONTENT', usage: { prompt_tokens: 400, completion_tokens: 30 } },
    );
  });
  afterEach(async () => {
    await model.close();
    await receiver.close();
  });

  const run = (...extra: string[]): ReturnType<typeof runCli> =>
    runCli(['run', join(workspace.path, 'plan.json'), '--workspace', workspace.path, '--base-url', model.baseURL, '--model', 'gpt-4o-mini', ...extra]);

  it('sends one trace whose spans nest run → step → model and tool calls, with tokens, and no content', async () => {
    const result = await run('--trace-endpoint', endpoint);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.match(result.stderr, /Trace sent to http:\/\/127\.0\.0\.1:\d+\/v1\/traces\./);
    const spans = receiver.spans;
    assert.equal(new Set(spans.map((span) => span.traceId)).size, 1, 'one trace');
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const parentName = (span: OtlpSpan): string | undefined => (span.parentSpanId ? byId.get(span.parentSpanId)?.name : undefined);
    const runSpan = spans.find((span) => span.name.startsWith('run '));
    assert.ok(runSpan !== undefined && !runSpan.parentSpanId);
    assert.deepEqual(
      spans.filter((span) => span !== runSpan).map((span) => [span.name, parentName(span)]).sort(),
      [
        ['chat gpt-4o-mini', 'step S1'],
        ['chat gpt-4o-mini', 'step S1'],
        ['execute_tool list_files', 'step S2'],
        ['execute_tool read_file', 'step S1'],
        ['step S1', runSpan.name],
        ['step S2', runSpan.name],
      ],
    );
    const chats = spans.filter((span) => span.name.startsWith('chat')).sort((a, b) => Number(BigInt(a.startTimeUnixNano) - BigInt(b.startTimeUnixNano)));
    assert.deepEqual(chats.map((span) => [attribute(span, 'gen_ai.operation.name'), attribute(span, 'gen_ai.request.model'), attribute(span, 'gen_ai.usage.input_tokens'), attribute(span, 'gen_ai.usage.output_tokens'), attribute(span, 'gen_ai.usage.cache_read.input_tokens')]), [
      ['chat', 'gpt-4o-mini', 300, 20, 128],
      ['chat', 'gpt-4o-mini', 400, 30, undefined],
    ]);
    assert.equal(attribute(spans.find((span) => span.name === 'execute_tool read_file')!, 'gen_ai.tool.name'), 'read_file');
    assert.equal(attribute(spans.find((span) => span.name === 'step S1')!, 'gen_ai.agent.name'), 'agent_1', 'an agent the plan names, by number');
    for (const span of spans) assert.ok(BigInt(span.endTimeUnixNano) >= BigInt(span.startTimeUnixNano), span.name);
    const sent = JSON.stringify(spans);
    assert.doesNotMatch(sent, /SECRET|PRIVATE|Read the notes/, 'no prompt, file content, objective or title without --trace-content');
  });

  it('--trace-content adds the objective, titles, inputs and results', async () => {
    const result = await run('--trace-endpoint', endpoint, '--trace-content');
    assert.equal(result.code, 0, result.stderr);
    const sent = JSON.stringify(receiver.spans);
    assert.match(sent, /PRIVATE OBJECTIVE/);
    assert.match(sent, /PRIVATE INPUT/);
    assert.match(sent, /The notes say: SECRET FILE CONTENT/);
  });

  it('without --trace-endpoint nothing is sent; trace prints the timed tree and --trace writes JSON lines', async () => {
    const result = await run();
    assert.equal(result.code, 0, result.stderr);
    assert.equal(receiver.requests, 0);
    const runId = readdirSync(join(workspace.path, '.task-planner', 'runs')).find((name) => name.endsWith('.jsonl'))?.replace('.jsonl', '') ?? '';
    const file = join(workspace.path, 'trace.jsonl');
    const tree = await runCli(['trace', runId, '--workspace', workspace.path, '--trace', file]);
    assert.equal(tree.code, 0, tree.stderr);
    const lines = tree.stdout.split('\n');
    assert.equal(lines[0], 'Each line: what ran, when it started (+ from the start of the run), how long it took, how it ended.');
    assert.match(lines[1] ?? '', new RegExp(`^run ${runId} {2}\\+0 ms {2}[\\d.]+ m?s {2}completed$`));
    assert.match(tree.stdout, /^ {2}step S1 {2}\+[\d.]+ m?s {2}[\d.]+ m?s {2}completed\n {4}chat gpt-4o-mini .* {2}300 in \(128 cached\), 20 out\n {4}execute_tool read_file .*\n {4}chat gpt-4o-mini .*400 in, 30 out\n {2}step S2 .*\n {4}execute_tool list_files/m);
    const spans = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { id: string; parentId?: string });
    assert.equal(spans.length, 7);
    assert.ok(spans.every((span, index) => index === 0 ? span.parentId === undefined : spans.slice(0, index).some((parent) => parent.id === span.parentId)));
    assert.equal(receiver.requests, 0);
    const missing = await runCli(['trace', 'nope', '--workspace', workspace.path]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /No run "nope"/);
  });

  it("never shows the endpoint's query (a collector's key may be in it), whether the trace was sent or not", async () => {
    const sent = await run('--trace-endpoint', `${endpoint}/v1/traces?api-key=COLLECTOR-KEY-123`);
    assert.equal(sent.code, 0, sent.stderr + sent.stdout);
    assert.match(sent.stderr, /Trace sent to http:\/\/127\.0\.0\.1:\d+\/v1\/traces\?…\./);
    // A collector that cannot be reached: the SDK's error names the address it tried.
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    const runId = readdirSync(join(workspace.path, '.task-planner', 'runs')).find((name) => name.endsWith('.jsonl'))?.replace('.jsonl', '') ?? '';
    const failed = await runCli(['trace', runId, '--workspace', workspace.path, '--trace-endpoint', `http://127.0.0.1:${port}/v1/traces?api-key=COLLECTOR-KEY-123`]);
    assert.equal(failed.code, 0, failed.stderr);
    assert.match(failed.stderr, /warning: The trace could not be sent to http:\/\/127\.0\.0\.1:\d+\/v1\/traces\?…/);
    assert.doesNotMatch(sent.stderr + sent.stdout + failed.stderr + failed.stdout, /COLLECTOR-KEY/);
  });

  it('step ids, agent and tool names a model chose leave only with --trace-content; the printed tree keeps them', async () => {
    const secret = 'SECRET-CONTENT-123';
    const plan = join(workspace.path, 'hostile.json');
    writeFileSync(
      plan,
      JSON.stringify({
        objective: 'Hostile',
        agents: { [`${secret}-agent`]: { prompt: 'You read files.', tools: ['read_file'] } },
        steps: [
          { id: `${secret}-read`, title: 'Read', kind: 'agent', agent: `${secret}-agent`, input: 'Read notes.txt' },
          { id: `${secret}-list`, title: 'List', tool: 'list_files', args: { glob: `${secret}*` }, dependsOn: [`${secret}-read`] },
        ],
      }),
    );
    // The model calls a tool named after the secret: no such tool, but the call is journaled.
    model.reset();
    model.enqueue({ kind: 'message', toolCalls: [{ name: secret, arguments: {} }] }, { kind: 'message', content: 'done' });
    const result = await runCli(['run', plan, '--workspace', workspace.path, '--base-url', model.baseURL, '--model', 'gpt-4o-mini', '--trace-endpoint', endpoint]);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.ok(receiver.bodies.length > 0);
    assert.doesNotMatch(receiver.bodies.join('\n'), new RegExp(secret), 'nothing the plan or the model named is sent');
    assert.deepEqual(receiver.spans.map((span) => span.name).filter((name) => !name.startsWith('run ')).sort(), [
      'chat gpt-4o-mini',
      'chat gpt-4o-mini',
      'execute_tool list_files',
      'execute_tool tool_1',
      'step S1',
      'step S2',
    ]);
    const runId = readdirSync(join(workspace.path, '.task-planner', 'runs')).find((name) => name.endsWith('.jsonl'))?.replace('.jsonl', '') ?? '';
    const file = join(workspace.path, 'hostile-trace.jsonl');
    const tree = await runCli(['trace', runId, '--workspace', workspace.path, '--trace', file]);
    assert.equal(tree.code, 0, tree.stderr);
    assert.match(tree.stdout, new RegExp(`^ {2}step ${secret}-read `, 'm'), 'the tree on the screen names the real steps');
    assert.doesNotMatch(readFileSync(file, 'utf8'), new RegExp(secret), 'the JSON lines follow what is sent');
    const json = await runCli(['trace', runId, '--workspace', workspace.path, '--json']);
    assert.doesNotMatch(json.stdout, new RegExp(secret));
    const withContent = await runCli(['trace', runId, '--workspace', workspace.path, '--json', '--trace-content']);
    assert.match(withContent.stdout, new RegExp(`step ${secret}-read`));
  });

  it('a bad endpoint is refused before anything runs', async () => {
    const result = await run('--trace-endpoint', 'ftp://example.com');
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--trace-endpoint: "ftp:\/\/example\.com" must start with http:\/\/ or https:\/\//);
    assert.equal(model.chatRequests.length, 0);
  });
});
