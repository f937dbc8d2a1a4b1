import assert from 'node:assert/strict';
import {
  inputsUsedBy,
  McpConfigError,
  mcpServerTarget,
  mergeMcpConfigs,
  parseMcpConfig,
  parseMcpConfigText,
  resolveMcpVariables,
} from '../../../../src/core/mcp/mcpConfig';

const user = { label: 'the setting taskPlanner.mcp.servers', origin: 'user' as const };
const workspace = { label: '/ws/.vscode/mcp.json', origin: 'workspace' as const };

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
    assert.deepEqual(config.inputs, [{ id: 'gh-token', description: 'GitHub token', password: true }]);
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
    const resolved = resolveMcpVariables(server as never, { workspaceFolder: '/w', inputs: { k: 'v' } });
    assert.ok(resolved.type === 'stdio');
    assert.deepEqual([resolved.args, resolved.env], [['/w/a b.js', '--key=v'], { K: 'v' }]);
    assert.equal(mcpServerTarget(resolved), 'node "/w/a b.js" --key=v');
    const multiline = parseMcpConfig({ servers: { s: { command: 'a\nb' } } }, user).servers[0];
    assert.equal(mcpServerTarget(multiline as never), '"a\\nb"');
  });
});
