// Attack on "work never lost": the CLI stopped (killed, or Ctrl+C) while the model was asked for a repair plan, after its
// failed run had journaled its end. The failed run was final: `runs` listed it as failed, `resume` said there was nothing
// to resume, and the repair was lost; the user had to plan the task again.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FakeOpenAiServer, matchers, planReply } from '../../fakes/fakeOpenAiServer';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const root = resolve(__dirname, '../../..');
const builtCli = process.env['TASK_PLANNER_TEST_CLI'];
const cliCommand = builtCli ? [builtCli] : ['--import', 'tsx', join(root, 'src/cli/cli.ts')];

describe('attack: the CLI stopped while a repair plan was asked, after its run failed', function () {
  this.timeout(120_000);
  const dir = temporaryDirectory('cli-repair-cut-');
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterEach(async () => {
    await server.close();
  });

  for (const signal of ['SIGKILL', 'SIGINT'] as const) {
    it(`${signal}: runs lists the run as interrupted, and resume asks for the repair and runs it; the finished step is not run again`, async () => {
      const ws = join(dir.path, signal);
      mkdirSync(ws, { recursive: true });
      const model = ['--workspace', ws, '--base-url', server.baseURL, '--model', 'gpt-4o-mini'];
      const planFile = join(dir.path, `${signal}.plan.json`);
      writeFileSync(
        planFile,
        JSON.stringify({
          objective: 'Note and read the data',
          steps: [
            { id: 'note', tool: 'write_file', args: { path: 'notes.txt', content: 'noted\n' } },
            { id: 'read', title: 'Read the data', tool: 'read_file', args: { path: 'missing.json' }, dependsOn: ['note'], onFailure: 'replan' },
          ],
        }),
      );
      const child = spawn(process.execPath, [...cliCommand, 'run', planFile, ...model, '--yes', '--json'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      // The process stops as the model is asked for the repair plan: the failed run's end is journaled by then.
      server.on(matchers.any(), () => {
        child.kill(signal);
        return { kind: 'stall' };
      }, 1);
      await new Promise((settle) => child.once('close', settle));
      assert.equal(server.chatRequests.length, 1, output);
      // The user wrote on in the note meanwhile: a step run again would put it back.
      writeFileSync(join(ws, 'notes.txt'), 'noted\nand more by hand\n');

      const listed = await runCli(['runs', '--workspace', ws, '--json']);
      const rows = JSON.parse(listed.stdout) as { runId: string; status: string }[];
      assert.equal(rows.length, 1, listed.stdout);
      assert.equal(rows[0]?.status, 'interrupted', `${listed.stdout}\n${output}`);
      const runId = rows[0].runId;

      server.on(matchers.any(), planReply([
        { id: 'note', title: 'Note', kind: 'tool', tool: 'write_file', args: { path: 'notes.txt', content: 'noted\n' } },
        { id: 'fix', title: 'Write the data', kind: 'tool', tool: 'write_file', args: { path: 'missing.json', content: '{}\n' }, dependsOn: ['note'] },
      ], 'Note and read the data'), 1);
      const resumed = await runCli(['resume', runId, ...model, '--yes', '--json']);
      assert.equal(resumed.code, 0, `${resumed.stderr}\n${resumed.stdout}`);
      assert.equal((JSON.parse(resumed.stdout) as { runId: string }).runId, `${runId}-replan-1`);
      assert.equal(readFileSync(join(ws, 'missing.json'), 'utf8'), '{}\n');
      assert.equal(readFileSync(join(ws, 'notes.txt'), 'utf8'), 'noted\nand more by hand\n', 'the finished step ran again');
      assert.ok(existsSync(join(ws, '.task-planner', 'runs')));
    });
  }
});
