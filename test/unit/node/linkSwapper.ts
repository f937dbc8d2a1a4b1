import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { lstatSync, renameSync } from 'node:fs';

// Exchanges two entries as fast as it can until killed: atomically with
// renameat2(RENAME_EXCHANGE) when libc has it, else with a tight loop of plain renames.
const pythonSwapper = `
import ctypes, os, sys
a, b = sys.argv[1].encode(), sys.argv[2].encode()
libc = ctypes.CDLL(None, use_errno=True)
exchange = getattr(libc, 'renameat2', None)
if exchange is not None and exchange(-100, a, -100, b, 2) != 0:
    exchange = None
sys.stdout.write('ready\\n'); sys.stdout.flush()
while True:
    if exchange is not None:
        exchange(-100, a, -100, b, 2)
    else:
        os.rename(a, a + b'.swap'); os.rename(b, a); os.rename(a + b'.swap', b)
`;

// The same with Node when there is no python3: plain renames only.
const nodeSwapper = `
const fs = require('fs');
const [a, b] = process.argv.slice(1);
process.stdout.write('ready\\n');
for (;;) { try { fs.renameSync(a, a + '.swap'); fs.renameSync(b, a); fs.renameSync(a + '.swap', b); } catch {} }
`;

/** A child process swapping two directory entries back and forth while it runs. */
export interface LinkSwapper {
  /** Stops the swapper and puts the two entries back as they were when it started. */
  stop(): Promise<void>;
}

/**
 * Starts a process that keeps exchanging the entries at `first` and `second` (absolute
 * paths in one directory), for races against a workspace; resolves once it is swapping.
 */
export async function startLinkSwapper(first: string, second: string): Promise<LinkSwapper> {
  const firstWasLink = lstatSync(first).isSymbolicLink();
  const python = spawnSync('python3', ['-c', 'import ctypes'], { stdio: 'ignore' }).status === 0;
  const child: ChildProcess = python
    ? spawn('python3', ['-c', pythonSwapper, first, second], { stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(process.execPath, ['-e', nodeSwapper, first, second], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the swapper ended early with code ${String(code)}`)));
    child.stdout?.once('data', () => resolve());
  });
  return {
    async stop() {
      // A swapper that already ended (its paths were gone) gives no exit event to wait for.
      if (child.exitCode === null && child.signalCode === null) {
        child.removeAllListeners('exit');
        const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGKILL');
        await ended;
      }
      putBack(first, second, firstWasLink);
    },
  };
}

/**
 * Where a swapper was stopped, `first` and `second` may be exchanged, or halfway through the three renames of the
 * swapper that has no atomic exchange (`first.swap` left over): puts both back as they were, for whatever the test does next.
 */
function putBack(first: string, second: string, firstWasLink: boolean): void {
  const there = (path: string): boolean => lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  const swap = `${first}.swap`;
  if (there(swap)) {
    if (!there(first)) renameSync(swap, first);
    else if (!there(second)) {
      renameSync(first, second);
      renameSync(swap, first);
    }
  }
  if (lstatSync(first).isSymbolicLink() !== firstWasLink) {
    renameSync(first, swap);
    renameSync(second, first);
    renameSync(swap, second);
  }
}
