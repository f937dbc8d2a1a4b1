import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseMcpConfig } from '../../../src/core/mcp/mcpConfig';
import { McpServers } from '../../../src/node/mcpServers';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const misbehaving = join(resolve(__dirname, '../../..'), 'test/fixtures/mcp/misbehavingServer.cjs');

/** The state of each server of `entries` (all allowed to start) once started. */
async function statesOf(entries: Record<string, unknown>, origin: 'user' | 'workspace', folder: string): Promise<Record<string, string>> {
  const group = new McpServers({
    config: parseMcpConfig({ servers: entries }, { label: 'test config', origin, folder }),
    reserved: new Set(),
    baseEnv: process.env,
    startTimeoutMs: 20_000,
    callTimeoutMs: 5_000,
    mayStart: () => Promise.resolve(true),
    inputValue: () => Promise.resolve(undefined),
  });
  try {
    await group.start(new AbortController().signal);
    return Object.fromEntries(group.list().map(({ config, state }) => [config.name, 'reason' in state ? state.reason : state.state]));
  } finally {
    await group.stopAll();
  }
}

const withEnvFile = (envFile: string): unknown => ({ command: process.execPath, args: [misbehaving], envFile });

// An env file a server's configuration names is read as the configuration is: a workspace's through its confinement, any one bounded.
describe('MCP env files: regular files only, bounded by the bytes read', function () {
  if (process.platform !== 'linux') return;
  this.timeout(30_000);
  const folder = temporaryDirectory('mcp-envfile-bounds-');

  it("refuses a workspace's env file that is a named pipe, without waiting for a writer", async () => {
    spawnSync('mkfifo', [join(folder.path, 'pipe.env')]);
    const states = await statesOf({ piped: withEnvFile('pipe.env') }, 'workspace', folder.path);
    assert.match(states['piped'] ?? '', /^MCP server "piped": its envFile .*\/pipe\.env is not a regular file \(it is a folder, a device, a named pipe or a socket\), so it was not read/);
  });

  it("refuses a huge workspace env file (a sparse 2 GB file) before reading it, naming the limit", async () => {
    const file = join(folder.path, 'huge.env');
    writeFileSync(file, '');
    truncateSync(file, 2 ** 31);
    const states = await statesOf({ huge: withEnvFile('huge.env') }, 'workspace', folder.path);
    assert.match(states['huge'] ?? '', /^MCP server "huge": its envFile .*\/huge\.env is larger than 100000 bytes, the most read of such a file, so it was not read\. Make it smaller\.$/);
  });

  it("stops reading the user's own env file at the limit, counting the bytes read: /dev/zero", async () => {
    const states = await statesOf({ zero: withEnvFile('/dev/zero') }, 'user', folder.path);
    assert.equal(states['zero'], 'MCP server "zero": its envFile /dev/zero is larger than 100000 bytes, the most read.');
  });

  it("reads a workspace's env file inside it (also through a link inside) and the user's own through a pipe", async () => {
    mkdirSync(join(folder.path, 'env'));
    writeFileSync(join(folder.path, 'env', 'real.env'), 'MODE=normal\n');
    symlinkSync('env/real.env', join(folder.path, 'link.env'));
    const fifo = join(folder.path, 'mine.env');
    spawnSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', `printf 'MODE=normal\\n' > '${fifo}'`]);
    try {
      assert.deepEqual(await statesOf({ linked: withEnvFile('link.env') }, 'workspace', folder.path), { linked: 'running' });
      assert.deepEqual(await statesOf({ piped: withEnvFile(fifo) }, 'user', folder.path), { piped: 'running' });
    } finally {
      writer.kill();
    }
  });
});
