// A run's lock held by another process (test/support/runLockHolder.ts), as an undo or a resume of it elsewhere holds it.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');

/** A process holding run `runId`'s lock in the runs folder `runs`, once it says so (`held <pid>`). */
export function holdRun(runs: string, runId: string): Promise<{ child: ChildProcessWithoutNullStreams; pid: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test/support/runLockHolder.ts'), runs, runId], { cwd: root });
  return new Promise((settle, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const held = /^held (\d+)$/m.exec(out);
      if (held) settle({ child, pid: Number(held[1]) });
    });
    child.once('close', (code) => reject(new Error(`the holder ended (${code}) before it held the run: ${out}`)));
  });
}

/** Ends `child` (a holder lets go when its stdin closes) and resolves with its exit code once it exited. */
export function ended(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((settle) => {
    if (child.exitCode !== null || child.signalCode !== null) return settle(child.exitCode);
    child.once('close', (code) => settle(code));
    child.stdin.end();
  });
}
