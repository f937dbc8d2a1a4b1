import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pidsWith, survivorsAfter, uniqueSleep } from '../../support/processWatch';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const root = resolve(__dirname, '../../..');
const builtCli = process.env['TASK_PLANNER_TEST_CLI'];
const cliCommand = builtCli ? [builtCli] : ['--import', 'tsx', join(root, 'src/cli/cli.ts')];

/** Polls until `sleep <marker>` runs; tsx takes a few seconds to start the CLI from its sources. */
async function startedWithin(marker: string, ms: number): Promise<void> {
  for (let waited = 0; waited < ms; waited += 20) {
    if (pidsWith(marker).length > 0) return;
    await new Promise((settle) => setTimeout(settle, 20));
  }
  throw new Error(`the command (sleep ${marker}) did not start`);
}

/** Live processes whose command line names `marker` (a launcher or shell a failing test left behind). */
function processesNaming(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('task-planner run stopped by a signal kills its command and journals the run as resumable', function () {
  this.timeout(60_000);
  const dir = temporaryDirectory('cli-signal-');
  const markers: string[] = [];
  afterEach(() => {
    for (const marker of markers.splice(0)) {
      for (const pid of processesNaming(marker)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
  });

  /** Starts a run whose one command sleeps for 300 s, sends `signal` to the CLI once the command runs; how the CLI ended. */
  async function stoppedRun(signal: NodeJS.Signals): Promise<{ code: number | null; stdout: string; stderr: string; marker: string }> {
    const marker = uniqueSleep();
    markers.push(marker);
    const plan = { objective: 'wait', steps: [{ id: 's', title: 'Wait', tool: 'run_command', args: { argv: ['sh', '-c', `sleep ${marker}; echo done`], timeoutMs: 600_000 } }] };
    writeFileSync(join(dir.path, 'wait.plan.json'), JSON.stringify(plan));
    const env = { ...process.env };
    delete env['OPENAI_API_KEY'];
    delete env['TASK_PLANNER_API_KEY'];
    const child = spawn(process.execPath, [...cliCommand, 'run', join(dir.path, 'wait.plan.json'), '--workspace', dir.path, '--yes'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = new Promise<number | null>((settle) => child.once('close', (code) => settle(code)));
    try {
      await startedWithin(marker, 30_000);
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
    child.kill(signal);
    return { code: await ended, stdout, stderr, marker };
  }

  async function journaledStatus(): Promise<string | undefined> {
    const runs = await runCli(['runs', '--workspace', dir.path, '--json']);
    return (JSON.parse(runs.stdout) as { status: string }[])[0]?.status;
  }

  for (const [signal, reason, status] of [
    ['SIGINT', 'Interrupted (Ctrl+C).', 'cancelled'],
    ['SIGTERM', 'The command line was asked to end (SIGTERM).', 'interrupted'],
    ['SIGHUP', 'Its terminal was closed (SIGHUP).', 'interrupted'],
  ] as const) {
    it(`${signal}: the command is killed, the CLI exits 4 and the journal says ${status}, its reason said once`, async () => {
      const { code, stdout, stderr, marker } = await stoppedRun(signal);
      assert.deepEqual(await survivorsAfter(marker, 2000), [], 'the command outlived the CLI');
      assert.equal(code, 4, stderr);
      assert.ok(stdout.includes(`\n  Reason: ${reason}\n`), stdout);
      // Once, by the closing summary: the progress said it too (a Ctrl+C read "cancelled: Interrupted (Ctrl+C)" twice).
      assert.equal((stdout + stderr).split(reason).length, 2, stdout + stderr);
      assert.equal(await journaledStatus(), status);
      // The resume to paste names the workspace: "task-planner resume RUN" pasted in another folder found no run.
      assert.match(stdout, new RegExp(`\\nResume it with:\\n {2}task-planner resume \\S+ --workspace ${dir.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n?$`));
    });
  }

  it('SIGKILL: the command dies with the CLI, and `runs` lists the run as interrupted, saying how to go on', async () => {
    const { marker } = await stoppedRun('SIGKILL');
    assert.deepEqual(await survivorsAfter(marker, 2000), [], 'the command outlived the CLI');
    // The journal still says running (nothing could write after SIGKILL); no living process holds its lock.
    assert.equal(await journaledStatus(), 'interrupted');
    const listed = await runCli(['runs', '--workspace', dir.path]);
    assert.match(listed.stdout, / interrupted +0\/1 /);
    assert.match(listed.stdout, /An interrupted run goes on from where it stopped, finished steps not redone: task-planner resume \S+ --workspace \S+/);
    // Answered before it asked (a newcomer's --approve after Ctrl+C at the question): said why nothing waits, and what to paste.
    const runId = (JSON.parse((await runCli(['runs', '--workspace', dir.path, '--json'])).stdout) as { runId: string }[])[0]?.runId ?? '';
    const answered = await runCli(['resume', runId, '--workspace', dir.path, '--approve', 's']);
    assert.equal(answered.code, 2, answered.stderr);
    assert.match(answered.stderr, /matches no pending request and was not used \(pending: none\)\.\n/);
    assert.match(answered.stderr, /stopped with no request left waiting \(a question asked on the terminal ends with the run\), so there is nothing to answer yet\. Resume it without answers/);
    assert.ok(answered.stderr.includes(`\n  task-planner resume ${runId} --workspace ${dir.path}\n`), answered.stderr);
  });
});
