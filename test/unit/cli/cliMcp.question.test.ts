import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withCliMcp } from '../../../src/cli/cliMcp';
import type { CliIo } from '../../../src/cli/cliIo';
import { temporaryDirectory } from '../../support/temporaryDirectory';

describe("the command line's question before a workspace's MCP server starts", () => {
  const workspace = temporaryDirectory('cli-mcp-question-');

  it('says an HTTP server connects to its address, showing the headers as written; refused, no input is asked', async () => {
    mkdirSync(join(workspace.path, '.vscode'));
    writeFileSync(
      join(workspace.path, '.vscode', 'mcp.json'),
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'token', password: true }],
        servers: { tracker: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${input:token}' } } },
      }),
    );
    const asked: string[] = [];
    const errors: string[] = [];
    const io = {
      interactive: true,
      out: () => undefined,
      err: (text: string) => void errors.push(text),
      ask: async (question: string) => (asked.push(question), 'n'),
    } as unknown as CliIo;
    const tools = await withCliMcp({ workspace: workspace.path, yes: false, env: {} }, io, async (offered) => offered.length);
    assert.equal(tools, 0);
    assert.equal(asked.length, 1, `asked: ${asked.join(' | ')}`);
    assert.match(asked[0] ?? '', /^Start MCP server "tracker" of .*\/\.vscode\/mcp\.json\? It connects to: http:\/\/127\.0\.0\.1:9\/mcp with the headers Authorization: Bearer \$\{input:token\}\n\[y\/N\] $/);
    assert.ok(errors.some((line) => /MCP server "tracker" was not started: you did not allow it/.test(line)), errors.join('\n'));
  });
});
