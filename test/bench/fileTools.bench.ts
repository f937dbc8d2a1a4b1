// File tool benchmarks (issue 4): list_files and search_text over a generated workspace of
// 20,000 files, each timed against a baseline run on the same tree in the same run
// (`find -type f` for listing, `grep -r` for searching). Targets: every tool within 3x of
// grep, also as the editor runs search_text (narrowed by the ripgrep VS Code ships:
// code-server's copy under test/host, or an `rg` on PATH); a literal search_text within
// 1.5x of `grep -rn` as the command line runs it (the files read on reader threads first).
// The event loop's reader alone, and list_files against `rg --files`, for comparison.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { listFilesTool } from '../../src/core/tools/listFilesTool';
import { searchTextTool } from '../../src/core/tools/searchTextTool';
import { createNodeWorkspace } from '../../src/node/nodeWorkspace';
import { findBundledRipgrep, findRipgrepOnPath, ripgrepWalkFlags } from '../../src/node/ripgrepSearcher';
import { makeToolContext } from '../fakes/toolContext';
import { checkTarget } from './benchTargets';

const fileCount = 20_000;
const filesPerDirectory = 100;
const needle = 'NEEDLE_7f3a';
const repeats = 5;

function generateTree(root: string): number {
  let needles = 0;
  const filler = Array.from({ length: 40 }, (_, line) => `export const value${line} = compute(${line}, 'some ordinary source text here');`).join('\n');
  for (let index = 0; index < fileCount; index++) {
    const directory = path.join(root, `pkg${Math.floor(index / 2000)}`, `dir${Math.floor(index / filesPerDirectory)}`);
    if (index % filesPerDirectory === 0) fs.mkdirSync(directory, { recursive: true });
    const hasNeedle = index % 97 === 0;
    if (hasNeedle) needles++;
    fs.writeFileSync(path.join(directory, `file${index}.ts`), `// file ${index}\n${filler}\n${hasNeedle ? `const marker = '${needle}';\n` : ''}`);
  }
  return needles;
}

/**
 * Times `ours` and `baseline` alternately (after one warm-up each), so load from other
 * processes hits both alike; returns the median time of each and the median of the ratios.
 */
async function paired(ours: () => Promise<unknown>, baseline: () => unknown): Promise<{ ms: number; baselineMs: number; ratio: number }> {
  await ours();
  baseline();
  const mine: number[] = [];
  const theirs: number[] = [];
  const ratios: number[] = [];
  for (let index = 0; index < repeats; index++) {
    let started = performance.now();
    await ours();
    mine.push(performance.now() - started);
    started = performance.now();
    baseline();
    theirs.push(performance.now() - started);
    ratios.push((mine.at(-1) as number) / (theirs.at(-1) as number));
  }
  return { ms: medianOf(mine), baselineMs: medianOf(theirs), ratio: medianOf(ratios) };
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function shell(argv: string[], cwd: string): string {
  const result = spawnSync(argv[0] as string, argv.slice(1), { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0 && result.status !== 1) throw new Error(`${argv.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

export async function runBench(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-bench-files-'));
  try {
    const generated = performance.now();
    const needles = generateTree(root);
    console.log(`generated ${fileCount} files (${needles} containing the needle) in ${(performance.now() - generated).toFixed(0)} ms`);
    const ctx = makeToolContext({ workspace: createNodeWorkspace(root) });
    const { textSearcher: _threads, ...loopOnly } = createNodeWorkspace(root);
    const loopCtx = makeToolContext({ workspace: loopOnly });
    const signal = new AbortController().signal;

    const listed = await listFilesTool.run(ctx, { limit: 10_000 }, signal);
    if (listed.total !== fileCount) throw new Error(`list_files found ${listed.total} files, expected ${fileCount}`);
    const found = await searchTextTool.run(ctx, { query: needle, maxMatches: 2000 }, signal);
    if (found.matches.length !== needles) throw new Error(`search_text found ${found.matches.length} matches, expected ${needles}`);
    if (JSON.stringify(await searchTextTool.run(loopCtx, { query: needle, maxMatches: 2000 }, signal)) !== JSON.stringify(found)) {
      throw new Error('search_text on reader threads differs from the event loop\'s reader');
    }
    const grepCount = shell(['grep', '-rl', needle, '.'], root).trim().split('\n').length;
    if (grepCount !== needles) throw new Error(`grep found ${grepCount} files, expected ${needles}`);

    const ripgrep = findBundledRipgrep(path.join(__dirname, '..', 'host', 'node_modules', 'code-server', 'lib', 'vscode')) ?? findRipgrepOnPath(process.env.PATH);
    const rgCtx = ripgrep === undefined ? undefined : makeToolContext({ workspace: createNodeWorkspace(root, { ripgrepPath: ripgrep }) });
    if (rgCtx !== undefined) {
      const viaRg = await searchTextTool.run(rgCtx, { query: needle, maxMatches: 2000 }, signal);
      if (JSON.stringify(viaRg) !== JSON.stringify(found)) throw new Error('search_text through ripgrep differs from the core reader');
    }

    const results: [string, string, { ms: number; baselineMs: number; ratio: number }][] = [
      ['list_files', 'find . -type f', await paired(() => listFilesTool.run(ctx, { limit: 10_000 }, signal), () => shell(['find', '.', '-type', 'f'], root))],
      ['list_files', 'grep -rc', await paired(() => listFilesTool.run(ctx, { limit: 10_000 }, signal), () => shell(['grep', '-rc', needle, '.'], root))],
      ['search_text (literal)', 'grep -rn', await paired(() => searchTextTool.run(ctx, { query: needle, maxMatches: 2000 }, signal), () => shell(['grep', '-rn', needle, '.'], root))],
      ['search_text (literal)', 'grep -rc', await paired(() => searchTextTool.run(ctx, { query: needle, maxMatches: 2000 }, signal), () => shell(['grep', '-rc', needle, '.'], root))],
      ['search_text (ignore case)', 'grep -rni', await paired(() => searchTextTool.run(ctx, { query: needle.toLowerCase(), caseSensitive: false, maxMatches: 2000 }, signal), () => shell(['grep', '-rni', needle.toLowerCase(), '.'], root))],
      ['search_text (regex)', 'grep -rnE', await paired(() => searchTextTool.run(ctx, { query: 'NEEDLE_[0-9a-f]{4}', regex: true, maxMatches: 2000 }, signal), () => shell(['grep', '-rnE', 'NEEDLE_[0-9a-f]{4}', '.'], root))],
      ['search_text (event loop)', 'grep -rn', await paired(() => searchTextTool.run(loopCtx, { query: needle, maxMatches: 2000 }, signal), () => shell(['grep', '-rn', needle, '.'], root))],
    ];
    const literal = results[2]?.[2] as { ratio: number };
    const viaRipgrep =
      rgCtx === undefined ? undefined : await paired(() => searchTextTool.run(rgCtx, { query: needle, maxMatches: 2000 }, signal), () => shell(['grep', '-rn', needle, '.'], root));
    if (viaRipgrep !== undefined) results.push(['search_text (ripgrep)', 'grep -rn', viaRipgrep]);
    // Listing is not handed to ripgrep (it cannot list a link without following it); this shows what that would gain.
    const rgListing =
      ripgrep === undefined ? undefined : await paired(() => listFilesTool.run(ctx, { limit: 10_000 }, signal), () => shell([ripgrep, ...ripgrepWalkFlags, '--files', '.'], root));
    if (rgListing !== undefined) results.push(['list_files', 'rg --files', rgListing]);
    console.log(`${fileCount} files; each tool run alternately with its baseline, ${repeats} times after a warm-up; medians:`);
    for (const [label, baselineLabel, result] of results) {
      console.log(`${label.padEnd(26)} ${result.ms.toFixed(1).padStart(8)} ms   ${result.ratio.toFixed(2)}x ${baselineLabel} (${result.baselineMs.toFixed(1)} ms)`);
    }
    const grepRatios = results.filter(([, baselineLabel]) => baselineLabel.startsWith('grep')).map(([, , result]) => result.ratio);
    const worst = Math.max(...grepRatios);
    checkTarget('every file tool / grep (worst)', `${worst.toFixed(2)}×`, '≤ 3×', worst <= 3);
    checkTarget('literal search_text as the command line runs it (reader threads) / grep -rn', `${literal.ratio.toFixed(2)}×`, '≤ 1.5×', literal.ratio <= 1.5);
    if (rgListing !== undefined) {
      console.log(`list_files against rg --files under the same rules: ${rgListing.ratio.toFixed(2)}x (below 1: handing the listing to ripgrep would not speed it up)`);
    }
    // The 1.5x target is the command line's; on two cores ripgrep reads no faster than grep, and the narrowing runs two of it beside the listing.
    // Without a ripgrep (test/host not installed, none on PATH) the target is missed: the bench cannot vouch for it.
    checkTarget(
      `search_text through ripgrep (the editor's narrowing) / grep -rn${ripgrep === undefined ? '' : ` (${ripgrep})`}`,
      viaRipgrep === undefined ? 'not measured: no ripgrep (run test/host/setup.sh)' : `${viaRipgrep.ratio.toFixed(2)}×`,
      '≤ 3×',
      viaRipgrep !== undefined && viaRipgrep.ratio <= 3,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
