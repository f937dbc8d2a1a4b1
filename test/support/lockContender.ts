// A process that contends for run locks (test/unit/node/runLock.test.ts): for each round r of ROUNDS, at START + r * STEP
// milliseconds it calls lockRun(DIR, `race-<r>`), and prints one line "<r> held" or "<r> refused" per round; it holds
// what it took until its standard input ends.
import { lockRun, RunInUseError } from '../../src/node/runLock';

const [dir, rounds, start, step] = [process.argv[2] ?? '', Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5])];

async function main(): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    const wait = start + round * step - Date.now();
    if (wait > 0) await new Promise((settle) => setTimeout(settle, wait));
    try {
      await lockRun(dir, `race-${round}`);
      process.stdout.write(`${round} held\n`);
    } catch (error) {
      if (!(error instanceof RunInUseError)) throw error;
      process.stdout.write(`${round} refused\n`);
    }
  }
  // Held until the test says every contender is done with every round (its standard input ends): a lock is free once its
  // process ended, and a contender late to its rounds (a loaded machine started it seconds late) took the locks of one
  // that had ended, which read as two holding a round.
  process.stdin.resume();
  await new Promise((settle) => process.stdin.once('end', settle));
}

void main();
