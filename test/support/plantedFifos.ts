import { spawnSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';

/**
 * Named pipes a test plants where Task Planner keeps a file of its own (`make`), released after each test (`releaseAll`,
 * in an `afterEach`): without the guard under test a read waits on a pipe for ever, and a writer that comes and goes ends
 * that wait, so the suite can end.
 */
export function plantedFifos(): { make(path: string): void; releaseAll(): void } {
  const planted: string[] = [];
  return {
    make(path) {
      spawnSync('mkfifo', [path]);
      planted.push(path);
    },
    releaseAll() {
      for (const fifo of planted.splice(0)) {
        try {
          closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
        } catch {
          // Nobody was waiting on it.
        }
      }
    },
  };
}
