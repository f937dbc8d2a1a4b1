// Runs every `*.bench.ts` in this folder in name order. Each exports `runBench(): Promise<void>`
// that prints its measurements, as ratios against a baseline measured in the same run.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

async function main(): Promise<void> {
  const files = readdirSync(__dirname).filter((name) => name.endsWith('.bench.ts')).sort();
  for (const file of files) {
    console.log(`\n## ${file}`);
    const bench = (await import(join(__dirname, file))) as { runBench?: () => Promise<void> };
    if (typeof bench.runBench !== 'function') throw new Error(`${file} does not export runBench()`);
    await bench.runBench();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
