import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { escapes, pidsWith, survivorsAfter, uniqueSleep } from '../../support/processWatch';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

// Against real MCP servers from npm (server-everything over stdio and streamable HTTP, server-memory) and a fixture that misbehaves.
const root = resolve(__dirname, '../../..');
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const memory = join(root, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const misbehaving = join(root, 'test/fixtures/mcp/misbehavingServer.cjs');
const daemonizing = join(root, 'test/fixtures/mcp/daemonizingServer.cjs');
const plan = (name: string) => join(root, 'test/fixtures/mcp', name);
const validName = /^[a-zA-Z0-9_-]{1,64}$/;

interface StepJson {
  status: string;
  error?: string;
  result?: { text: string; structuredContent?: unknown; media?: unknown };
}

describe('MCP servers in the CLI (real servers)', function () {
  this.timeout(120_000);
  const workspace = temporaryDirectory('cli-mcp-', { perSuite: true });
  const config = (name: string, servers: Record<string, unknown>): string => {
    const file = join(workspace.path, name);
    writeFileSync(file, JSON.stringify({ servers }));
    return file;
  };
  const stdio = (script: string, extra: Record<string, unknown> = {}) => ({
    command: process.execPath,
    args: [script, ...(script === everything ? ['stdio'] : [])],
    ...extra,
  });

  it('tools: lists built-in and MCP tools with their source; hostile tool names become valid unique names', async () => {
    const file = config('tools.json', { everything: stdio(everything), memory: stdio(memory), bad: stdio(misbehaving) });
    const { code, stdout, stderr } = await runCli(['tools', '--workspace', workspace.path, '--mcp-config', file, '--json']);
    assert.equal(code, 0, stderr);
    const listed = JSON.parse(stdout) as {
      tools: { name: string; source: string; effect: string; parameters: unknown }[];
      servers: { name: string; state: string }[];
    };
    const source = (name: string) => listed.tools.find((tool) => tool.name === name)?.source;
    assert.equal(source('read_file'), 'builtin');
    assert.equal(source('mcp__everything__echo'), 'everything');
    assert.equal(source('mcp__memory__read_graph'), 'memory');
    assert.ok(listed.tools.filter((tool) => tool.source !== 'builtin').every((tool) => tool.effect === 'external'));
    const badNames = listed.tools.filter((tool) => tool.source === 'bad').map((tool) => tool.name);
    assert.equal(badNames.length, 14);
    for (const name of badNames) assert.match(name, validName);
    assert.equal(new Set(listed.tools.map((tool) => tool.name)).size, listed.tools.length);
    assert.deepEqual(
      listed.servers.map((server) => [server.name, server.state]),
      [
        ['everything', 'running'],
        ['memory', 'running'],
        ['bad', 'running'],
      ],
    );
    const text = await runCli(['tools', '--workspace', workspace.path, '--mcp-config', file]);
    assert.match(text.stdout, /mcp__everything__get-tiny-image {2}\[MCP server "everything", external\]/);
    assert.ok(!text.stdout.includes('\u001b'), 'no control character of a tool name reaches the terminal');
  });

  it('run: validates and runs a plan calling server-everything and server-memory; structured and image results come back', async () => {
    const file = config('run.json', {
      everything: stdio(everything),
      memory: stdio(memory, { env: { MEMORY_FILE_PATH: join(workspace.path, 'memory.jsonl') } }),
    });
    const invalid = await runCli(['validate', plan('mcp.plan.json'), '--workspace', workspace.path]);
    assert.equal(invalid.code, 1, 'without the servers the MCP tools are unknown');
    assert.match(invalid.stdout, /unknown_tool/);
    const valid = await runCli(['validate', plan('mcp.plan.json'), '--workspace', workspace.path, '--mcp-config', file]);
    assert.equal(valid.code, 0, valid.stdout + valid.stderr);
    const { code, stdout, stderr } = await runCli(['run', plan('mcp.plan.json'), '--workspace', workspace.path, '--mcp-config', file, '--yes', '--json']);
    assert.equal(code, 0, stderr);
    const steps = (JSON.parse(stdout) as { steps: Record<string, StepJson> }).steps;
    assert.equal(steps.echo?.result?.text, 'Echo: hello from a plan');
    assert.deepEqual(Object.keys(steps.weather?.result?.structuredContent as object).sort(), ['conditions', 'humidity', 'temperature']);
    assert.deepEqual(steps.image?.result?.media, [{ type: 'image', mimeType: 'image/png', bytes: 4033 }]);
    assert.match(steps.recall?.result?.text ?? '', /TaskPlanner/);
  });

  it('run without a terminal and without --yes: each MCP call waits for approval, naming the server', async () => {
    const file = config('approve.json', {
      everything: stdio(everything),
      memory: stdio(memory, { env: { MEMORY_FILE_PATH: join(workspace.path, 'memory2.jsonl') }, allowedTools: ['*'] }),
    });
    const { code, stdout, stderr } = await runCli(['run', plan('mcp.plan.json'), '--workspace', workspace.path, '--mcp-config', file, '--json']);
    assert.equal(code, 3, stderr);
    const result = JSON.parse(stdout) as { pending: { stepId: string; kind: string; request: { kind: string; source: string } }[] };
    assert.deepEqual(result.pending.map((item) => [item.stepId, item.kind, item.request.kind, item.request.source]).sort(), [
      ['echo', 'approval', 'tool', 'MCP server "everything"'],
      ['image', 'approval', 'tool', 'MCP server "everything"'],
      ['weather', 'approval', 'tool', 'MCP server "everything"'],
    ]);
  });

  it('a stdio server gets inputs from TASK_PLANNER_MCP_INPUT_<ID> and none of our credentials', async () => {
    const file = join(workspace.path, 'env.json');
    writeFileSync(
      file,
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'db-pass', description: 'Database password', password: true }],
        servers: { everything: { ...stdio(everything), env: { DB_PASS: '${input:db-pass}' }, allowedTools: ['get-env'] } },
      }),
    );
    const planFile = join(workspace.path, 'env.plan.json');
    writeFileSync(planFile, JSON.stringify({ id: 'env', objective: 'Env', steps: [{ id: 'env', title: 'Read the environment', tool: 'mcp__everything__get-env', args: {} }] }));
    const secrets = { OPENAI_API_KEY: 'sk-mcp-test-SECRET-2468abcdefgh', GITHUB_TOKEN: 'ghp_mcpTestSecretValue1234567890', TASK_PLANNER_MCP_INPUT_DB_PASS: 'hunter2-input' };
    const { code, stdout, stderr } = await runCli(['run', planFile, '--workspace', workspace.path, '--mcp-config', file, '--json'], secrets);
    assert.equal(code, 0, stderr);
    const text = (JSON.parse(stdout) as { steps: Record<string, StepJson> }).steps.env?.result?.text ?? '';
    assert.match(text, /"DB_PASS": ?"hunter2-input"/);
    assert.ok(!text.includes('sk-mcp-test') && !text.includes('ghp_mcpTest') && !text.includes('GITHUB_TOKEN'), 'no credential of ours reaches the server');
    const missing = await runCli(['tools', '--workspace', workspace.path, '--mcp-config', file]);
    assert.match(missing.stderr, /MCP input "db-pass" \(Database password\) is not set: give it in the environment variable TASK_PLANNER_MCP_INPUT_DB_PASS/);
    assert.match(missing.stderr, /MCP server "everything" was not started: MCP server "everything" needs the input "db-pass", which was not given/);
  });

  it('survives a server that never answers, fails and dies mid-call: bounded time, the server named, its stderr tail escaped', async () => {
    const file = config('bad.json', { bad: stdio(misbehaving, { allowedTools: ['*'] }) });
    // A call that never timed out would never end: the suite's time-out bounds the run.
    const { code, stdout, stderr } = await runCli([
      'run',
      plan('misbehaving.plan.json'),
      '--workspace',
      workspace.path,
      '--mcp-config',
      file,
      '--mcp-timeout',
      // Also the servers' start: 3 s was too short for two node processes on a loaded machine.
      '6',
      '--concurrency',
      '1',
      '--json',
    ]);
    assert.equal(code, 5, `steps failed and the run went on: partial (exit 5)\n${stderr}`);
    const steps = (JSON.parse(stdout) as { steps: Record<string, StepJson> }).steps;
    assert.equal(steps.hang?.error, 'MCP server "bad" did not answer tool "hang" within 6 s.');
    assert.equal(steps.stderr?.result?.text, 'flooded');
    assert.equal(steps.fail?.error, 'Tool "fail" of MCP server "bad" reported an error: the database is on fire');
    assert.equal(steps.alive?.result?.text, 'still here', 'a call that timed out does not break the server');
    assert.match(
      steps.die?.error ?? '',
      /^MCP server "bad" stopped while tool "die" was running\. Its last output \(stderr\):\n[^]*end of flood\nabout to die: \\u001b\[2Jcleared\?$/,
    );
    assert.ok((steps.die?.error ?? '').length < 2200, 'the stderr tail is bounded');
    assert.match(steps.after?.error ?? '', /^MCP server "bad" is not running \(it stopped\), so tool "echo" was not called/);
    assert.ok(stdout.length < 100_000);
  });

  // Apart from the calls above, under the default time limit: a flood's cost is the machine's (a clean clone on a loaded
  // 2-core machine took over 6 s to pass 12 MB through the pipe), and the server is stopped when its message passes 10 MB,
  // not when the limit is reached.
  it('stops a server whose answer is larger than a message may be, and the step fails saying so', async () => {
    const file = config('flooder.json', { flooder: stdio(misbehaving, { allowedTools: ['*'] }) });
    const { code, stdout, stderr } = await runCli(['run', plan('flood.plan.json'), '--workspace', workspace.path, '--mcp-config', file, '--json']);
    assert.equal(code, 5, `the step failed, skipped: partial (exit 5)\n${stderr}`);
    const steps = (JSON.parse(stdout) as { steps: Record<string, StepJson> }).steps;
    assert.match(steps.flood?.error ?? '', /^MCP server "flooder" stopped while tool "flood" was running \(it sent a message larger than 10 MB/);
    assert.ok(stdout.length < 100_000, 'none of the flood reaches the output');
  });

  it("nothing a server started outlives the command: a server's setsid grandchild is gone once tools ends", async () => {
    const marker = uniqueSleep();
    try {
      const file = config('daemon.json', { daemon: stdio(daemonizing, { env: { DAEMON_SCRIPT: escapes['a setsid grandchild'](marker) } }) });
      const { code, stdout, stderr } = await runCli(['tools', '--workspace', workspace.path, '--mcp-config', file, '--json']);
      assert.equal(code, 0, stderr);
      assert.ok((JSON.parse(stdout) as { tools: { source: string }[] }).tools.some((tool) => tool.source === 'daemon'), 'the server ran');
      assert.deepEqual(await survivorsAfter(marker, 1000), [], 'its grandchild outlived the CLI');
    } finally {
      for (const pid of pidsWith(marker)) process.kill(pid, 'SIGKILL');
    }
  });

  it('a server that never answers at start is reported within the time limit; the other tools still work', async () => {
    const file = config('silent.json', { silent: stdio(misbehaving, { env: { MODE: 'hang-start' } }), everything: stdio(everything) });
    // A start that never timed out would never end: the suite's time-out bounds the command.
    const { code, stdout, stderr } = await runCli(['tools', '--workspace', workspace.path, '--mcp-config', file, '--mcp-timeout', '8', '--json']);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /MCP server "silent" was not started: MCP server "silent" could not be started: .*timed out/i);
    const listed = JSON.parse(stdout) as { tools: { source: string }[] };
    assert.ok(listed.tools.some((tool) => tool.source === 'everything'));
    assert.ok(!listed.tools.some((tool) => tool.source === 'silent'));
  });

  it("a workspace's .vscode/mcp.json server starts only when allowed (--yes), and cannot allow its own tools", async () => {
    const folder = { path: mkdtempSync(join(tmpdir(), 'cli-mcp-ws-')) };
    try {
      mkdirSync(join(folder.path, '.vscode'));
      writeFileSync(join(folder.path, '.vscode', 'mcp.json'), JSON.stringify({ servers: { everything: { ...stdio(everything), allowedTools: ['*'] } } }));
      const refused = await runCli(['tools', '--workspace', folder.path, '--json']);
      assert.equal(refused.code, 0, refused.stderr);
      assert.match(refused.stderr, /"allowedTools" of server "everything" was ignored: only your own settings can allow tools/);
      assert.match(
        refused.stderr,
        /MCP server "everything" was not started: it is defined by .*mcp\.json, and a workspace's server starts only when you allow it: pass --yes/,
      );
      assert.ok(!(JSON.parse(refused.stdout) as { tools: { source: string }[] }).tools.some((tool) => tool.source === 'everything'));
      const allowed = await runCli(['tools', '--workspace', folder.path, '--json', '--yes']);
      assert.ok((JSON.parse(allowed.stdout) as { tools: { source: string }[] }).tools.some((tool) => tool.source === 'everything'));
      writeFileSync(join(folder.path, '.vscode', 'mcp.json'), '{ "servers": { "x": { "type": "http", "url": "not a url" } } }');
      const broken = await runCli(['tools', '--workspace', folder.path]);
      assert.equal(broken.code, 2);
      assert.match(broken.stderr, /mcp\.json is not a valid MCP configuration:\n {2}- servers\.x\.url: expected an http:\/\/ or https:\/\/ URL/);
    } finally {
      rmSync(folder.path, { recursive: true, force: true });
    }
  });

  describe('over streamable HTTP', () => {
    let server: ChildProcess | undefined;
    let port = 0;
    before(async () => {
      port = await freePort();
      server = spawn(process.execPath, [everything, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
      await new Promise<void>((ready, fail) => {
        let seen = '';
        server?.stderr?.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          if (seen.includes('listening on port')) ready();
        });
        server?.on('exit', () => fail(new Error(`server-everything exited: ${seen}`)));
      });
    });
    after(() => server?.kill());

    it('lists and calls the tools of server-everything reached by URL', async () => {
      const file = config('http.json', { web: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } });
      const { code, stdout, stderr } = await runCli(['tools', '--workspace', workspace.path, '--mcp-config', file, '--json']);
      assert.equal(code, 0, stderr);
      assert.ok((JSON.parse(stdout) as { tools: { name: string }[] }).tools.some((tool) => tool.name === 'mcp__web__get-sum'));
      const planFile = join(workspace.path, 'http.plan.json');
      writeFileSync(
        planFile,
        JSON.stringify({ id: 'http', objective: 'Add', steps: [{ id: 'sum', title: 'Add two numbers', tool: 'mcp__web__get-sum', args: { a: 2, b: 3 } }] }),
      );
      const run = await runCli(['run', planFile, '--workspace', workspace.path, '--mcp-config', file, '--yes', '--json']);
      assert.equal(run.code, 0, run.stderr);
      assert.match((JSON.parse(run.stdout) as { steps: Record<string, StepJson> }).steps.sum?.result?.text ?? '', /\b5\b/);
    });
  });
});

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
