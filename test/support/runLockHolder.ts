// A process that holds a run's lock (test/unit/node/runLock.attack.test.ts): calls lockRun(DIR, RUN), prints
// "held <pid>" (or "refused <pid>" when another holds it), and holds what it took until its standard input ends.
import { lockRun, RunInUseError } from '../../src/node/runLock';

const [dir, runId] = [process.argv[2] ?? '', process.argv[3] ?? ''];

async function main(): Promise<void> {
  try {
    await lockRun(dir, runId);
    process.stdout.write(`held ${process.pid}\n`);
  } catch (error) {
    if (!(error instanceof RunInUseError)) throw error;
    process.stdout.write(`refused ${process.pid}\n`);
  }
  process.stdin.resume();
  await new Promise((settle) => process.stdin.once('end', settle));
}

void main();
