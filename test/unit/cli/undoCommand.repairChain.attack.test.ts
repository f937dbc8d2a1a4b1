// Attack on "never done twice, never corrupted" across processes, over a run a repair continued: a repair is a run of
// its own (`<first>-replan-<n>`) that keeps the first run's completed steps and their changes. The lock of one of the
// two ids let another process undo the other: `undo <first>` took the first run's changes back while its repair was
// being resumed in another process, and the repair went on from files that were no longer there.
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FakeOpenAiServer } from '../../fakes/fakeOpenAiServer';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';
import { ended, holdRun } from '../../support/heldRun';

const root = resolve(__dirname, '../../..');
const builtCli = process.env['TASK_PLANNER_TEST_CLI'];
const cliCommand = builtCli ? [builtCli] : ['--import', 'tsx', join(root, 'src/cli/cli.ts')];

/** Resolves once `file` exists (watched, not polled); rejects when `child` ends first. */
function appeared(file: string, child: ChildProcessWithoutNullStreams, output: () => string): Promise<void> {
  return new Promise((settle, reject) => {
    const folder = resolve(file, '..');
    const watcher = watch(folder, () => {
      if (existsSync(file)) done();
    });
    const done = (): void => {
      watcher.close();
      child.off('close', ended);
      settle();
    };
    const ended = (code: number | null): void => {
      watcher.close();
      reject(new Error(`the resume ended (${code}) before its command started: ${output()}`));
    };
    child.once('close', ended);
    if (existsSync(file)) done();
  });
}

describe('attack: undo and resume of a run and of its repair in two processes at once', function () {
  this.timeout(120_000);
  const dir = temporaryDirectory('cli-repair-chain-');
  let server: FakeOpenAiServer;
  const children: ChildProcessWithoutNullStreams[] = [];
  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.kill('SIGKILL');
      await ended(child);
    }
    await server.close();
  });

  /** A first run that wrote first.txt and failed, and its repair waiting at a question; both ids. */
  async function repairedRun(ws: string): Promise<{ first: string; repair: string; model: string[] }> {
    mkdirSync(ws, { recursive: true });
    const model = ['--workspace', ws, '--base-url', server.baseURL, '--model', 'gpt-4o-mini'];
    const planFile = join(dir.path, `${ws.split('/').pop() ?? ''}.plan.json`);
    writeFileSync(
      planFile,
      JSON.stringify({
        objective: 'Note and copy the data',
        steps: [
          { id: 'note', tool: 'write_file', args: { path: 'first.txt', content: 'from the first run\n' } },
          { id: 'read', title: 'Read the data', tool: 'read_file', args: { path: 'missing.json' }, dependsOn: ['note'], onFailure: 'replan' },
        ],
      }),
    );
    // The repair asks a question, then runs a command that says it started and waits for the file "go".
    const waitForGo = "const fs=require('fs');fs.writeFileSync('started','');(function w(){fs.existsSync('go')?process.exit(0):setTimeout(w,20)})()";
    server.enqueue({
      kind: 'message',
      content: JSON.stringify({
        objective: 'x',
        steps: [
          { id: 'ask', title: 'Ask', kind: 'clarification', input: 'Which file?', dependsOn: [] },
          { id: 'wait', title: 'Wait', kind: 'tool', tool: 'run_command', args: { argv: ['node', '-e', waitForGo] }, dependsOn: ['ask'] },
        ],
      }),
    });
    const ran = await runCli(['run', planFile, ...model, '--yes', '--json']);
    assert.equal(ran.code, 3, ran.stderr);
    const repair = (JSON.parse(ran.stdout) as { runId: string }).runId;
    assert.match(repair, /-replan-1$/);
    assert.equal(readFileSync(join(ws, 'first.txt'), 'utf8'), 'from the first run\n');
    return { first: repair.replace(/-replan-1$/, ''), repair, model };
  }

  it('undo of the first run while its repair is resumed in another process is refused, and changes nothing', async () => {
    const ws = join(dir.path, 'ws-undo');
    const { first, repair, model } = await repairedRun(ws);
    const resume = spawn(process.execPath, [...cliCommand, 'resume', repair, ...model, '--answer', 'ask=data.json', '--yes'], { cwd: root });
    children.push(resume);
    let output = '';
    resume.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    resume.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await appeared(join(ws, 'started'), resume, () => output);
    // Seen before the fix: exit 0, "Undo removed first.txt", while the repair that kept it ran on.
    const undone = await runCli(['undo', first, '--workspace', ws]);
    assert.ok(existsSync(join(ws, 'first.txt')), `undo took back the first run's change while its repair ran: ${undone.stdout}`);
    assert.equal(undone.code, 1, undone.stderr);
    assert.match(undone.stderr, new RegExp(`Run ${first} is in use by another task-planner \\(process ${resume.pid}\\): nothing was done`));
    writeFileSync(join(ws, 'go'), '');
    assert.equal(await ended(resume), 0, output);
    // The repair done, the run is free: undo takes back the first run's change.
    const later = await runCli(['undo', first, '--workspace', ws]);
    assert.equal(later.code, 0, later.stderr);
    assert.ok(!existsSync(join(ws, 'first.txt')));
  });

  it('resume of the repair while an undo of the first run holds it in another process is refused, and runs nothing', async () => {
    const ws = join(dir.path, 'ws-resume');
    const { first, repair, model } = await repairedRun(ws);
    const holder = await holdRun(join(ws, '.task-planner', 'runs'), first);
    children.push(holder.child);
    // Were the command run, it would not wait.
    writeFileSync(join(ws, 'go'), '');
    // Seen before the fix: the repair ran its command, kept the first run's note, whatever that undo took back meanwhile.
    const resumed = await runCli(['resume', repair, ...model, '--answer', 'ask=data.json', '--yes']);
    assert.ok(!existsSync(join(ws, 'started')), `the repair ran while the first run was held: ${resumed.stderr}`);
    assert.equal(resumed.code, 1, resumed.stderr);
    assert.match(resumed.stderr, new RegExp(`Run ${first} is in use by another task-planner \\(process ${holder.pid}\\): nothing was done`));
  });
});
