import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parentDeathLauncher, pidNamespaceLauncher } from '../../../src/node/pidNamespace';
import { escapes, pidsWith, startedWith, survivorsAfter, uniqueSleep } from '../../support/processWatch';

const runnerModule = path.resolve(__dirname, '../../../src/node/nodeCommandRunner.ts');

/** A Node process (the CLI, the extension host) running `argv` with a command runner; it never ends by itself. */
function host(dir: string, argv: string[], pidNamespace: boolean): ChildProcess {
  const program = `
const { createNodeCommandRunner } = require(${JSON.stringify(runnerModule)});
createNodeCommandRunner(${JSON.stringify(dir)}, { pidNamespace: ${pidNamespace} })
  .run({ argv: ${JSON.stringify(argv)}, cwd: '', timeoutMs: 600000, maxOutputBytes: 1024 }, new AbortController().signal);
setInterval(() => undefined, 60000);`;
  return spawn(process.execPath, ['--require', 'tsx/cjs', '-e', program], { stdio: 'ignore' });
}

/** Live processes whose command line names `marker`: a launcher or shell a failing test left behind. */
function launchersOf(marker: string): number[] {
  return fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name) && cmdline(name).includes(marker)).map(Number);
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function cmdline(pid: string): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

describe('createNodeCommandRunner: commands die with the process that runs them, even killed with SIGKILL', function () {
  this.timeout(30_000);
  let dir: string;
  const started: string[] = [];
  const hosts: ChildProcess[] = [];
  beforeEach(async function () {
    if ((await parentDeathLauncher()).length === 0) this.skip();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-death-'));
  });
  afterEach(() => {
    for (const child of hosts.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const marker of started.splice(0)) for (const pid of [...pidsWith(marker), ...launchersOf(marker)]) killQuietly(pid);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const killedHost = async (argv: string[], marker: string, pidNamespace: boolean): Promise<number[]> => {
    started.push(marker);
    const child = host(dir, argv, pidNamespace);
    hosts.push(child);
    await startedWith(marker);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    return survivorsAfter(marker, 2000);
  };

  it('in a PID namespace: the namespace (a setsid grandchild included) is emptied', async function () {
    if ((await pidNamespaceLauncher()) === undefined) this.skip();
    const marker = uniqueSleep();
    assert.deepEqual(await killedHost(['sh', '-c', escapes['a setsid grandchild'](marker)], marker, true), [], 'the command outlived its host');
  });

  it('without a PID namespace: the command itself is killed', async () => {
    const marker = uniqueSleep();
    assert.deepEqual(await killedHost(['sleep', marker], marker, false), [], 'the command outlived its host');
  });
});
