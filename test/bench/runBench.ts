// Runs every `*.bench.ts` in this folder in name order. Each exports `runBench(): Promise<void>`
// that prints its measurements, as ratios against a baseline measured in the same run, and checks each
// of its targets (benchTargets.ts). Ends with the verdicts; exits non-zero when a target was missed.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { targetVerdicts } from './benchTargets';

async function main(): Promise<number> {
  const files = readdirSync(__dirname).filter((name) => name.endsWith('.bench.ts')).sort();
  for (const file of files) {
    console.log(`\n## ${file}`);
    const before = targetVerdicts().length;
    const bench = (await import(join(__dirname, file))) as { runBench?: () => Promise<void> };
    if (typeof bench.runBench !== 'function') throw new Error(`${file} does not export runBench()`);
    await bench.runBench();
    if (targetVerdicts().length === before) throw new Error(`${file} checked no target`);
  }
  const missed = targetVerdicts().filter((verdict) => !verdict.met);
  console.log(`\n${targetVerdicts().length - missed.length} of ${targetVerdicts().length} targets met${missed.length > 0 ? `; missed: ${missed.map((verdict) => verdict.label).join('; ')}` : ''}`);
  return missed.length > 0 ? 1 : 0;
}

main().then((code) => process.exit(code), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
