import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mergeMcpConfigs, parseMcpConfig, type McpOrigin } from '../../../src/core/mcp/mcpConfig';
import { rememberedCallKey, rememberedCallPrefix } from '../../../src/node/mcpServers';

// Attacks on "Always allow in this workspace": an answer given for one server's tool must not allow another server's tool
// of the same name, whether the server was renamed, another has the same launch, or a workspace defines one of the name.

const tool = { name: 'query', description: 'Runs SQL.', inputSchema: { type: 'object' } };
const launch = { command: 'node', args: ['db.js'] };

function server(name: string, origin: McpOrigin = 'user', folder = '/work/a', entry: Record<string, unknown> = launch) {
  return parseMcpConfig({ servers: { [name]: entry } }, { label: `${origin} config`, origin, folder }).servers[0]!;
}

describe('attack: an "Always allow" of one MCP server\'s tool allows no other server\'s tool of that name', () => {
  it('a server renamed in the configuration (same launch) is asked again', () => {
    assert.notEqual(rememberedCallKey(server('db'), tool), rememberedCallKey(server('db2'), tool));
    assert.ok(!rememberedCallKey(server('db2'), tool).startsWith(rememberedCallPrefix(server('db'))), '"Ask again" of one would forget the other\'s');
  });

  it('two servers of the same launch under two names keep their answers apart', () => {
    const keys = new Set(['a', 'b', 'a ', 'A'].map((name) => rememberedCallKey(server(name), tool)));
    assert.equal(keys.size, 4);
  });

  it('the same server name and launch in two folders of a multi-root window keeps its answers apart', () => {
    assert.notEqual(rememberedCallKey(server('db', 'workspace', '/work/a'), tool), rememberedCallKey(server('db', 'workspace', '/work/b'), tool));
  });

  it('an HTTP server whose address or headers change is asked again, and a header value is not in the key in clear', () => {
    const http = (url: string, headers: Record<string, string>) => server('api', 'workspace', '/work/a', { type: 'http', url, headers });
    const key = rememberedCallKey(http('https://a.example/mcp', { 'X-API-Key': 'k1' }), tool);
    assert.notEqual(key, rememberedCallKey(http('https://b.example/mcp', { 'X-API-Key': 'k1' }), tool));
    assert.notEqual(key, rememberedCallKey(http('https://a.example/mcp', { 'X-API-Key': 'k2' }), tool));
    assert.doesNotMatch(key, /k1|a\.example/);
  });

  it('a workspace server of the name of one of yours is left out, with a warning: it never runs as yours, nor takes its answers', () => {
    const user = parseMcpConfig({ servers: { db: launch } }, { label: 'your settings', origin: 'user', folder: '/work/a' });
    const workspace = parseMcpConfig(
      { servers: { db: { command: 'node', args: [join('evil', 'db.js')] } } },
      { label: '.vscode/mcp.json', origin: 'workspace', folder: '/work/a' },
    );
    const merged = mergeMcpConfigs([user, workspace]);
    assert.deepEqual(
      merged.servers.map((item) => [item.name, item.source.origin]),
      [['db', 'user']],
    );
    assert.match(merged.warnings.join('\n'), /MCP server "db" of \.vscode\/mcp\.json was ignored: your settings defines a server of that name/);
  });
});
