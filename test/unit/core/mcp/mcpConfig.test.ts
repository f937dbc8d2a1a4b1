import assert from 'node:assert/strict';
import {
  inputsUsedBy,
  McpConfigError,
  mcpInputKey,
  mcpServerLaunchKey,
  mcpServerTarget,
  mergeMcpConfigs,
  parseMcpConfig,
  parseMcpConfigText,
  resolveMcpVariables,
} from '../../../../src/core/mcp/mcpConfig';
import type { McpServerConfig } from '../../../../src/core/mcp/mcpConfig';

const user = { label: 'the setting taskPlanner.mcp.servers', origin: 'user' as const, folder: '/w' };
const workspace = { label: '/ws/.vscode/mcp.json', origin: 'workspace' as const, folder: '/ws' };

describe('parseMcpConfig', () => {
  it('reads VS Code mcp.json: stdio with or without type, http with headers, inputs, comments and trailing commas', () => {
    const config = parseMcpConfigText(
      `{
        // a comment with "quotes" and a , before }
        "inputs": [{ "type": "promptString", "id": "gh-token", "description": "GitHub token", "password": true }],
        "servers": {
          "fs": { "command": "npx", "args": ["-y", "server", "\${workspaceFolder}"], "env": { "A": "1" }, },
          "gh": { "type": "http", "url": "https://api.example.com/mcp", "headers": { "Authorization": "Bearer \${input:gh-token}" } },
          /* block */ "url-with-comma": { "type": "stdio", "command": "node", "args": ["a,}"] }
        }
      }`,
      user,
    );
    assert.deepEqual(
      config.servers.map((server) => [server.name, server.type]),
      [
        ['fs', 'stdio'],
        ['gh', 'http'],
        ['url-with-comma', 'stdio'],
      ],
    );
    assert.deepEqual(config.inputs, [{ id: 'gh-token', description: 'GitHub token', password: true, source: user }]);
    const third = config.servers[2];
    assert.ok(third?.type === 'stdio');
    assert.deepEqual(third.args, ['a,}'], 'strings keep their commas and brackets');
    assert.deepEqual(inputsUsedBy(config.servers[1] as never), ['gh-token']);
  });

  it('names the file and the field of every problem', () => {
    assert.throws(
      () => parseMcpConfig({ servers: { db: { type: 'http', url: 'ftp://x' }, run: { args: ['x'] }, extra: { command: 'x', colour: 'red' } } }, workspace),
      (error: unknown) =>
        error instanceof McpConfigError &&
        error.message.startsWith('/ws/.vscode/mcp.json is not a valid MCP configuration') &&
        /servers\.db\.url: expected an http:\/\/ or https:\/\/ URL/.test(error.message) &&
        /servers\.run\.command/.test(error.message) &&
        /servers\.extra/.test(error.message) &&
        /colour/.test(error.message),
    );
    assert.throws(() => parseMcpConfigText('{ "servers": ', user), /the setting taskPlanner\.mcp\.servers is not valid JSON/);
  });

  it('attack: refuses a server name with a line break or a control character, which would forge lines of its start question', () => {
    const forged = 'memory" of your settings? It runs: npx -y @modelcontextprotocol/server-memory\n[y/N] y\n\n';
    for (const name of [forged, 'a\tb', 'a\rb', 'a\u001b[2Kb', 'a\u0085b', 'a\u2028b', 'a\u202eb', 'a\u007fb']) {
      assert.throws(
        () => parseMcpConfig({ servers: { [name]: { command: 'node', args: ['evil.js'] } } }, workspace),
        (error: unknown) =>
          error instanceof McpConfigError &&
          /^\/ws\/\.vscode\/mcp\.json is not a valid MCP configuration:\n {2}- servers\..*: a server name holds a line break, a tab or another control character; use letters/.test(error.message) &&
          !/[\n\r\t\u001b\u0085\u2028\u202e\u007f]/.test(error.message.split('\n')[1] ?? ''),
        JSON.stringify(name),
      );
    }
    // Spaces, quotes, punctuation and letters of any script stay allowed.
    assert.equal(parseMcpConfig({ servers: { 'My "DB" (prod) — ünïcode 数据': { command: 'x' } } }, workspace).servers.length, 1);
  });

  it('refuses variables it would pass on unexpanded, and inputs that are not declared', () => {
    assert.throws(() => parseMcpConfig({ servers: { s: { command: 'x', env: { K: '${env:HOME}' } } } }, user), /servers\.s\.env\.K uses \$\{env:HOME\}: only/);
    assert.throws(
      () => parseMcpConfig({ servers: { s: { command: 'x', args: ['${input:nope}'] } } }, user),
      /servers\.s\.args\[0\] uses \$\{input:nope\}: no input with id "nope"/,
    );
  });

  it('keeps allowedTools of the user only: a workspace cannot pre-allow its own tools', () => {
    const mine = parseMcpConfig({ servers: { s: { command: 'x', allowedTools: ['*'] } } }, user);
    assert.deepEqual(mine.servers[0]?.allowedTools, ['*']);
    const theirs = parseMcpConfig({ servers: { s: { command: 'x', allowedTools: ['*'] } } }, workspace);
    assert.deepEqual(theirs.servers[0]?.allowedTools, []);
    assert.match(theirs.warnings[0] as string, /"allowedTools" of server "s" was ignored: only your own settings/);
  });

  it('says what it ignored beside "servers" and "inputs": a server put at the top, another tool\'s "mcpServers", a typo (a trial)', () => {
    const top = parseMcpConfig({ mine: { command: 'node', args: ['server.js'] } }, user);
    assert.deepEqual(top.servers, []);
    assert.deepEqual(top.warnings, [
      'the setting taskPlanner.mcp.servers: "mine" was ignored: an MCP configuration holds only "servers" and "inputs". Put each server under "servers", by its name: { "servers": { "my-server": { "command": "…", "args": [] } } }.',
    ]);
    const other = parseMcpConfigText('{ "mcpServers": { "a": { "command": "x" } }, "server": {}, "inputs": [] }', workspace);
    assert.match(other.warnings[0] ?? '', /^\/ws\/\.vscode\/mcp\.json: "mcpServers", "server" were ignored: /);
    // A name that would turn the text around it is shown escaped.
    const many = parseMcpConfig({ 'f\u202eg': 6, a: 1, b: 2, c: 3, d: 4, e: 5, h: 7, servers: {} }, user);
    assert.match(many.warnings[0] ?? '', /: "f.+g", "a", "b", "c", "d" and 2 more were ignored/);
    assert.doesNotMatch(many.warnings[0] ?? '', /\u202e/);
    assert.deepEqual(parseMcpConfig({ servers: { s: { command: 'x' } }, inputs: [] }, user).warnings, []);
  });

  it('merges with the first definition of a name winning, so a workspace cannot replace a server of the user', () => {
    const merged = mergeMcpConfigs([
      parseMcpConfig({ servers: { db: { command: 'mine' } } }, user),
      parseMcpConfig({ servers: { db: { command: 'theirs' }, other: { command: 'o' } } }, workspace),
    ]);
    assert.deepEqual(
      merged.servers.map((server) => [server.name, server.type === 'stdio' ? server.command : '']),
      [
        ['db', 'mine'],
        ['other', 'o'],
      ],
    );
    assert.match(merged.warnings[0] as string, /MCP server "db" of \/ws\/\.vscode\/mcp\.json was ignored/);
  });

  it('resolves ${workspaceFolder} and inputs, and shows the command line on one line', () => {
    const [server] = parseMcpConfig(
      {
        inputs: [{ type: 'promptString', id: 'k' }],
        servers: { s: { command: 'node', args: ['${workspaceFolder}/a b.js', '--key=${input:k}'], env: { K: '${input:k}' } } },
      },
      user,
    ).servers;
    const resolved = resolveMcpVariables(server as never, { k: 'v' });
    assert.ok(resolved.type === 'stdio');
    assert.deepEqual([resolved.args, resolved.env], [['/w/a b.js', '--key=v'], { K: 'v' }]);
    assert.equal(mcpServerTarget(resolved), 'K=v node "/w/a b.js" --key=v');
    const multiline = parseMcpConfig({ servers: { s: { command: 'a\nb' } } }, user).servers[0];
    assert.equal(mcpServerTarget(multiline as never), '"a\\nb"');
  });

  it('reads every comment form and keeps comment-like text inside strings', () => {
    const text = '{"servers":{"a":{"command":"x//y","args":["/*z*/","q\\"//r",1/**/]}}, "inputs": [ ] ,} // end';
    assert.throws(() => parseMcpConfigText(text, user), /servers\.a\.args\[2\]: .*string/, 'a block comment is a separator, not a value');
    const fine = parseMcpConfigText('{"servers":{"a":{"command":"x//y","args":["/*z*/","q\\"//r"/**/]/*x*/}}}// no newline', user).servers[0];
    assert.ok(fine?.type === 'stdio');
    assert.deepEqual([fine.command, fine.args], ['x//y', ['/*z*/', 'q"//r']]);
    assert.equal(parseMcpConfigText('{"servers":{}} /* never closed', user).servers.length, 0, 'an unclosed block comment runs to the end');
    assert.throws(() => parseMcpConfigText('{"servers":{"a":{"command":"x","args":["a",,]}}}', user), /not valid JSON/, 'only one trailing comma is forgiven');
  });

  it('refuses entries that are not objects, unknown types and too many servers, listing at most ten problems', () => {
    for (const entry of [null, 'npx server', 5]) assert.throws(() => parseMcpConfig({ servers: { s: entry } }, user), /servers\.s: /);
    assert.throws(() => parseMcpConfig({ servers: { s: { type: 'sse', url: 'https://x' } } }, user), /servers\.s/);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`s${index}`, { command: 'x' }]));
    assert.throws(() => parseMcpConfig({ servers: many }, user), /defines 51 MCP servers; at most 50 are supported/);
    assert.equal(parseMcpConfig({ servers: Object.fromEntries(Object.entries(many).slice(0, 50)) }, user).servers.length, 50);
    const broken = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`b${index}`, { command: 5 }]));
    try {
      parseMcpConfig({ servers: broken }, user);
      assert.fail('no error');
    } catch (error) {
      assert.equal((error as Error).message.split('\n').filter((line) => line.startsWith('  - ')).length, 10);
    }
    assert.throws(() => parseMcpConfig({ inputs: [{ type: 'promptString', id: 'bad id' }] }, user), /inputs\[0\]\.id: use 1 to 100 letters/);
    assert.throws(() => parseMcpConfig([], user), /the file: /);
  });

  it("checks variables in nested fields but not in VS Code's own dev block, and resolves them in cwd, envFile, url and headers", () => {
    assert.doesNotThrow(() => parseMcpConfig({ servers: { s: { command: 'x', dev: { watch: '${env:X}' } } } }, user));
    const config = parseMcpConfig(
      {
        inputs: [{ type: 'promptString', id: 'k' }],
        servers: {
          s: { command: 'x', cwd: '${workspaceFolder}/sub', envFile: '${workspaceFolder}/.env' },
          h: { type: 'http', url: 'https://x/${input:k}', headers: { A: '${input:k}' } },
        },
      },
      user,
    );
    const [stdioServer, httpServer] = config.servers.map((server) => resolveMcpVariables(server, { k: 'v' }));
    assert.ok(stdioServer?.type === 'stdio' && httpServer?.type === 'http');
    assert.deepEqual([stdioServer.cwd, stdioServer.envFile], ['/w/sub', '/w/.env']);
    assert.deepEqual([httpServer.url, httpServer.headers], ['https://x/v', { A: 'v' }]);
    assert.equal(mcpServerTarget(httpServer), 'https://x/v with the headers A: v');
    assert.deepEqual(inputsUsedBy(config.servers[1] as never), ['k']);
    const plain = parseMcpConfig({ servers: { s: { command: 'x' } } }, user).servers[0];
    assert.ok(plain?.type === 'stdio');
    assert.equal('cwd' in plain || 'envFile' in plain, false);
    assert.equal('cwd' in resolveMcpVariables(plain, {}), false);
    assert.throws(() => parseMcpConfig({ servers: { s: { command: 'x', env: { K: '${input:}' } } } }, user), /no input with id ""/);
  });

  it("merges inputs by id within a source, and keeps a workspace's input of the user's id apart from the user's", () => {
    const merged = mergeMcpConfigs([
      parseMcpConfig({ inputs: [{ type: 'promptString', id: 'k', description: 'mine' }] }, user),
      parseMcpConfig({ inputs: [{ type: 'promptString', id: 'k', description: 'mine again' }] }, { ...user, label: '--mcp-config me.json' }),
      parseMcpConfig(
        {
          inputs: [
            { type: 'promptString', id: 'k', description: 'theirs' },
            { type: 'promptString', id: 'j' },
          ],
        },
        workspace,
      ),
      parseMcpConfig({ inputs: [{ type: 'promptString', id: 'k', description: 'the other folder' }] }, { ...workspace, folder: '/other' }),
    ]);
    assert.deepEqual(
      merged.inputs.map((item) => [item.id, item.description, mcpInputKey(item.id, item.source)]),
      [
        ['k', 'mine', 'k'],
        ['k', 'theirs', '/ws#k'],
        ['j', '', '/ws#j'],
        ['k', 'the other folder', '/other#k'],
      ],
    );
  });

  it("shows an http server's headers in its start question, an input in them as written", () => {
    const [server] = parseMcpConfig(
      { inputs: [{ type: 'promptString', id: 'gh' }], servers: { h: { type: 'http', url: 'https://evil.example/mcp', headers: { Authorization: 'Bearer ${input:gh}' } } } },
      workspace,
    ).servers;
    assert.ok(server);
    assert.equal(mcpServerTarget(server), 'https://evil.example/mcp with the headers Authorization: Bearer ${input:gh}');
  });

  it("shows a workspace server's environment, folder and env file in its start question, and asks again when any of them changes", () => {
    const [allowed, withPath, withOptions, elsewhere] = parseMcpConfig(
      {
        servers: {
          a: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
          b: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { PATH: '${workspaceFolder}/bin' } },
          c: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { NODE_OPTIONS: '--require ./evil.js' } },
          d: { command: 'npx', args: [''], cwd: 'sub dir', envFile: '../../home/me/.env' },
        },
      },
      workspace,
    ).servers as [never, never, never, never];
    assert.equal(mcpServerTarget(withPath), 'PATH=${workspaceFolder}/bin npx -y @modelcontextprotocol/server-memory');
    assert.equal(mcpServerTarget(withOptions), 'NODE_OPTIONS="--require ./evil.js" npx -y @modelcontextprotocol/server-memory');
    assert.equal(mcpServerTarget(elsewhere), 'npx "" (in "sub dir", with the variables of ../../home/me/.env)');
    const keys = [allowed, withPath, withOptions, elsewhere].map((server: McpServerConfig) => mcpServerLaunchKey({ ...server, name: 'same' }));
    assert.equal(new Set(keys).size, 4, 'each change of what runs is a new question');
    const inOtherFolder = { ...(allowed as McpServerConfig), source: { ...workspace, folder: '/other' } } as McpServerConfig;
    assert.notEqual(mcpServerLaunchKey(inOtherFolder), mcpServerLaunchKey(allowed), "the same line in another folder's mcp.json runs elsewhere: a new question");
    const long = (tail: string): McpServerConfig => ({ ...(allowed as McpServerConfig), args: ['x'.repeat(2000), tail] }) as McpServerConfig;
    assert.equal(mcpServerTarget(long('a')), mcpServerTarget(long('b')), 'the shown line is bounded');
    assert.notEqual(mcpServerLaunchKey(long('a')), mcpServerLaunchKey(long('b')), 'the remembered answer is not');
    const http = parseMcpConfig({ servers: { h: { type: 'http', url: 'https://x/mcp', headers: { A: '1' } } } }, workspace).servers[0] as McpServerConfig;
    assert.notEqual(mcpServerLaunchKey(http), mcpServerLaunchKey({ ...http, headers: { A: '2' } } as McpServerConfig));
  });
});
