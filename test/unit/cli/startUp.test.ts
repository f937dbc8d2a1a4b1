import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { FakeOpenAiServer, planReply } from '../../fakes/fakeOpenAiServer';
import { temporaryDirectory } from '../../support/temporaryDirectory';

/** What a run of the built CLI compiled: each script's name and size in characters, in order. */
async function compiledScripts(cli: string, args: string[], folder: string): Promise<{ name: string; size: number }[]> {
  const hook = join(folder, 'recordCompiles.cjs');
  writeFileSync(
    hook,
    `const Module = require('node:module');
const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) {
  process.stderr.write('compiled ' + content.length + ' ' + filename + '\\n');
  return compile.apply(this, arguments);
};`,
  );
  const run = await new Promise<{ code: number | null; stderr: string }>((done, fail) => {
    const child = spawn(process.execPath, ['--require', hook, cli, ...args], { cwd: folder, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stderr }));
  });
  assert.equal(run.code, 0, run.stderr);
  return [...run.stderr.matchAll(/^compiled (\d+) (.+)$/gm)].map((match) => ({ name: basename(match[2] ?? ''), size: Number(match[1]) }));
}

describe('the command line reads the tokenizer tables only when it counts tokens', function () {
  this.timeout(60_000);
  const folder = temporaryDirectory('cli-start-');
  const cli = process.env['TASK_PLANNER_TEST_CLI'];

  beforeEach(function () {
    // Only the built CLI is bundled; run from the sources through tsx, every module is a file of its own.
    if (!cli) this.skip();
  });

  it('--help and a run without a model compile cli.js alone, under 7 MB (8.9 MB with the tables inside)', async () => {
    const help = await compiledScripts(cli!, ['--help'], folder.path);
    assert.deepEqual(help.map((script) => script.name), ['cli.js']);
    assert.ok(help[0]!.size < 7_000_000, `cli.js is ${help[0]!.size} characters`);
    writeFileSync(join(folder.path, 'p.plan.json'), JSON.stringify({ objective: 'x', steps: [{ id: 'a', title: 'A', tool: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] }));
    const run = await compiledScripts(cli!, ['run', 'p.plan.json', '--workspace', folder.path, '--yes'], folder.path);
    assert.ok(!run.some((script) => script.name === 'tokenizer.js'), run.map((script) => script.name).join(', '));
  });

  it('planning with a model loads dist/tokenizer.js beside cli.js on its first count', async () => {
    const server = await new FakeOpenAiServer().start();
    try {
      server.enqueue(planReply([{ id: 'S1', title: 'Read the readme', kind: 'tool', tool: 'read_file', args: { path: 'README.md' }, dependsOn: [] }]));
      writeFileSync(join(folder.path, 'README.md'), '# Demo\n');
      const plan = await compiledScripts(cli!, ['plan', 'Read the readme', '--workspace', folder.path, '--base-url', server.baseURL, '--model', 'gpt-4o-mini', '--json'], folder.path);
      assert.deepEqual(plan.map((script) => script.name).filter((name) => name.endsWith('.js')).slice(0, 2), ['cli.js', 'tokenizer.js']);
    } finally {
      await server.close();
    }
  });
});
