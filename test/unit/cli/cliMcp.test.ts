import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCliMcpConfig } from '../../../src/cli/cliMcp';
import { UsageError } from '../../../src/cli/cliIo';
import { startLinkSwapper } from '../node/linkSwapper';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const servers = (name: string): string => JSON.stringify({ servers: { [name]: { command: 'node', args: [`${name}.js`] } } });
const names = (config: { servers: readonly { name: string }[] }): string[] => config.servers.map((server) => server.name);
const usage = (pattern: RegExp) => (error: unknown): boolean => error instanceof UsageError && pattern.test(error.message);

// A hostile repository's .vscode/mcp.json, read by every CLI command that starts MCP servers.
describe('loadCliMcpConfig: the workspace .vscode/mcp.json is read through its confinement, bounded', function () {
  if (process.platform !== 'linux') return;
  this.timeout(20_000);
  const workspace = temporaryDirectory('cli-mcp-config-');
  const outside = temporaryDirectory('cli-mcp-config-outside-');
  const vscodeFolder = (): string => join(workspace.path, '.vscode');
  const mcpJson = (): string => join(vscodeFolder(), 'mcp.json');
  beforeEach(() => {
    mkdirSync(vscodeFolder());
    writeFileSync(join(outside.path, 'mcp.json'), servers('outside'));
  });

  it('reads a regular mcp.json inside the workspace, and none is no server', async () => {
    assert.deepEqual(names(await loadCliMcpConfig(workspace.path, undefined)), []);
    writeFileSync(mcpJson(), servers('inside'));
    assert.deepEqual(names(await loadCliMcpConfig(workspace.path, undefined)), ['inside']);
  });

  it('refuses an mcp.json linked to /dev/zero at once, naming the file, instead of reading without end', async () => {
    symlinkSync('/dev/zero', mcpJson());
    await assert.rejects(loadCliMcpConfig(workspace.path, undefined), usage(/^The MCP configuration .*\/\.vscode\/mcp\.json leads outside the workspace .* through a symbolic link, so it was not read/));
  });

  it('refuses an mcp.json that is a named pipe without waiting for a writer', async () => {
    spawnSync('mkfifo', [mcpJson()]);
    await assert.rejects(loadCliMcpConfig(workspace.path, undefined), usage(/mcp\.json is not a regular file \(it is a folder, a device, a named pipe or a socket\), so it was not read\. Replace it with a regular file\.$/));
  });

  it('never offers the servers of an mcp.json outside the workspace, whether the file or its folder is the link', async () => {
    symlinkSync(join(outside.path, 'mcp.json'), mcpJson());
    await assert.rejects(loadCliMcpConfig(workspace.path, undefined), usage(/leads outside the workspace/));
    const second = join(workspace.path, 'second');
    mkdirSync(second);
    symlinkSync(outside.path, join(second, '.vscode'));
    await assert.rejects(loadCliMcpConfig(second, undefined), usage(/^The MCP configuration .*second\/\.vscode\/mcp\.json leads outside the workspace/));
  });

  it('refuses a huge mcp.json (a sparse 2 GB file) before reading it, naming the limit', async () => {
    writeFileSync(mcpJson(), '');
    truncateSync(mcpJson(), 2 ** 31);
    await assert.rejects(loadCliMcpConfig(workspace.path, undefined), usage(/mcp\.json is larger than 1000000 bytes, the most read of such a file, so it was not read\. Make it smaller\.$/));
  });

  it('never offers the outside servers while .vscode, or mcp.json itself, is swapped with a link out during the reading', async function () {
    // The swapper spins a core: beside ESLint on the other one (npm test), 600 readings took over 20 s.
    this.timeout(90_000);
    writeFileSync(mcpJson(), servers('inside'));
    symlinkSync(join(outside.path, 'mcp.json'), join(vscodeFolder(), 'link.json'));
    symlinkSync(outside.path, join(workspace.path, 'link'));
    const seen = { inside: 0, outside: 0 };
    for (const [first, second] of [
      [vscodeFolder(), join(workspace.path, 'link')],
      [mcpJson(), join(vscodeFolder(), 'link.json')],
    ] as const) {
      const swapper = await startLinkSwapper(first, second);
      try {
        for (let index = 0; index < 300; index++) {
          const found = await loadCliMcpConfig(workspace.path, undefined).then(names, (): string[] => []);
          if (found.includes('outside')) seen.outside++;
          if (found.includes('inside')) seen.inside++;
        }
      } finally {
        await swapper.stop();
      }
    }
    assert.equal(seen.outside, 0, `the outside servers were offered ${seen.outside} times (inside ${seen.inside})`);
    assert.ok(seen.inside > 0, 'some readings found the servers inside');
  });

  it("reads the user's own --mcp-config through links and pipes, bounded by the bytes read: /dev/zero stops at the limit", async () => {
    const file = join(outside.path, 'mine.json');
    writeFileSync(file, servers('mine'));
    symlinkSync(file, join(outside.path, 'link.json'));
    assert.deepEqual(names(await loadCliMcpConfig(workspace.path, join(outside.path, 'link.json'))), ['mine']);
    const fifo = join(outside.path, 'fifo.json');
    spawnSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', `printf '%s' '${servers('piped')}' > '${fifo}'`]);
    assert.deepEqual(names(await loadCliMcpConfig(workspace.path, fifo)), ['piped']);
    writer.kill();
    await assert.rejects(loadCliMcpConfig(workspace.path, '/dev/zero'), usage(/^The MCP configuration \/dev\/zero is larger than 1000000 bytes, the most read; make it smaller\.$/));
  });

  it('task-planner tools in a workspace whose mcp.json is a link to /dev/zero ends at once, saying why', async () => {
    symlinkSync('/dev/zero', mcpJson());
    const { code, stderr } = await runCli(['tools', '--workspace', workspace.path]);
    assert.equal(code, 2);
    assert.match(stderr, /mcp\.json leads outside the workspace .* through a symbolic link, so it was not read/);
  });
});
