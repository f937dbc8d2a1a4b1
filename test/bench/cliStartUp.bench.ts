// The command line's start-up: `task-planner --help` from a fresh production-like build (dist/cli.js built into a
// temporary folder by esbuild.mjs, as `npm run build` makes it), against a bare `node -e 0` measured in the same run,
// medians of 7 wall-clock times each. The tokenizer's tables (dist/tokenizer.js) load on the first token count, so a
// start that counts nothing never reads them: with them inside cli.js, --help took 7.8× bare node; the target is 6×.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkTarget } from './benchTargets';

const root = resolve(__dirname, '..', '..');

/** Median wall-clock milliseconds of 7 runs of node with `args`, each checked to exit 0. */
function medianStart(args: string[]): number {
  const times: number[] = [];
  for (let index = 0; index < 7; index++) {
    const started = performance.now();
    const run = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    times.push(performance.now() - started);
    if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status ?? run.signal}: ${run.stderr}`);
  }
  times.sort((a, b) => a - b);
  return times[3] as number;
}

export function runBench(): Promise<void> {
  const outdir = mkdtempSync(join(tmpdir(), 'cli-start-bench-'));
  try {
    const build = spawnSync(process.execPath, ['esbuild.mjs', '--outdir', outdir], { cwd: root, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`the build failed: ${build.stderr}`);
    medianStart(['-e', '0']); // warm-up: the file cache
    const bare = medianStart(['-e', '0']);
    const help = medianStart([join(outdir, 'cli.js'), '--help']);
    console.log(`start-up (medians of 7): node -e 0 ${bare.toFixed(0)} ms; task-planner --help ${help.toFixed(0)} ms`);
    checkTarget('CLI start-up, --help / bare node', `${(help / bare).toFixed(1)}×`, '≤ 6×', help / bare <= 6);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
  return Promise.resolve();
}
