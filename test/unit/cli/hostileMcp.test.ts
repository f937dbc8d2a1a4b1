import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';
import { actingCharacters, firstMatch, invisibleCharacters } from '../../support/terminalOutput';

// Attacks as a hostile MCP server on the command line's terminal: names, descriptions, results, errors, notifications.
const root = resolve(__dirname, '../../..');
const hostileServer = join(root, 'test/fixtures/mcp/hostileServer.cjs');


function assertSafe(output: { stdout: string; stderr: string }, maxChars: number, maxLine = 5000): void {
  for (const stream of ['stdout', 'stderr'] as const) {
    assert.equal(firstMatch(actingCharacters, output[stream]), undefined, `${stream} has a raw control`);
  }
  const size = output.stdout.length + output.stderr.length;
  assert.ok(size <= maxChars, `${size} characters printed`);
  for (const line of `${output.stdout}\n${output.stderr}`.split('\n')) assert.ok(line.length <= maxLine, `a line of ${line.length} characters: ${line.slice(0, 100)}`);
}

describe('attack: a hostile MCP server writes to the CLI terminal', function () {
  this.timeout(120_000);
  const workspace = temporaryDirectory('atk-mcp-', { perSuite: true });
  let config = '';
  before(() => writeFileSync((config = join(workspace.path, 'mcp.json')), JSON.stringify({ servers: { h: { command: process.execPath, args: [hostileServer], allowedTools: ['*'] } } })));
  const plan = (steps: unknown[]): string => {
    const file = join(workspace.path, `p${Math.random().toString(36).slice(2)}.plan.json`);
    writeFileSync(file, JSON.stringify({ objective: 'o', steps }));
    return file;
  };

  it('tools: hostile names and a 200,000-character description with controls are listed escaped and bounded', async () => {
    const output = await runCli(['tools', '--workspace', workspace.path, '--mcp-config', config]);
    assert.equal(output.code, 0, output.stderr);
    assertSafe(output, 50_000);
    const json = await runCli(['tools', '--workspace', workspace.path, '--mcp-config', config, '--json']);
    assertSafe(json, 200_000);
  });

  it('run: a result, an isError result and a JSON-RPC error of 1 MB with controls are printed escaped and bounded', async () => {
    const file = plan([
      { id: 'ansi', tool: 'mcp__h__ansi', args: {}, onFailure: 'skip' },
      { id: 'fail', tool: 'mcp__h__fail', args: {}, onFailure: 'skip' },
      { id: 'rpc', tool: 'mcp__h__rpc_error', args: {}, onFailure: 'skip' },
    ]);
    const output = await runCli(['run', file, '--workspace', workspace.path, '--mcp-config', config, '--yes']);
    assertSafe(output, 100_000);
    const json = await runCli(['run', file, '--workspace', workspace.path, '--mcp-config', config, '--yes', '--json']);
    // Machine output: each result at most textCaps.result (200,000 characters) on its line.
    assertSafe(json, 2_000_000, 250_000);
  });

  it('run: 20,000 log and progress notifications with controls neither flood nor reach the terminal raw', async () => {
    const output = await runCli(['run', plan([{ id: 'chatty', tool: 'mcp__h__chatty', args: {} }]), '--workspace', workspace.path, '--mcp-config', config, '--yes']);
    assert.equal(output.code, 0, output.stderr.slice(-2000));
    assertSafe(output, 50_000);
  });

  it('run: a call cancelled by its time limit, answered afterwards, fails the step once and ends the run cleanly', async () => {
    const started = Date.now();
    const output = await runCli(['run', plan([{ id: 'late', tool: 'mcp__h__late', args: {}, timeoutMs: 500, onFailure: 'skip' }, { id: 'after', tool: 'list_files', args: {}, dependsOn: [] }]), '--workspace', workspace.path, '--mcp-config', config, '--yes', '--json']);
    assertSafe(output, 100_000);
    const result = JSON.parse(output.stdout) as { status: string; steps: Record<string, { status: string }> };
    assert.equal(result.steps['late']?.status, 'skipped', output.stdout.slice(0, 2000));
    assert.match(output.stdout, /timed out after 500 ms/);
    assert.doesNotMatch(output.stdout, /late \\u001b/, 'the late answer became the result');
    assert.ok(Date.now() - started < 30_000);
  });

  it('Unicode tag characters from a tool result are not printed raw', async () => {
    const output = await runCli(['run', plan([{ id: 'ansi', tool: 'mcp__h__ansi', args: {} }]), '--workspace', workspace.path, '--mcp-config', config, '--yes', '--json']);
    assert.equal(firstMatch(invisibleCharacters, output.stdout + output.stderr), undefined);
  });
});
