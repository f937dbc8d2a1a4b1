#!/usr/bin/env node
// Mutation testing of the core with StrykerJS, one module group at a time (groups and their tests:
// test/mutation/mutationGroups.mjs). Prints the score of every mutated file and the mutants that
// survived in a file under its group's threshold; exits non-zero when any file is under it.
// Incremental: only mutants whose code or covering tests changed since the committed result
// (test/mutation/incremental/) are tested again, and a group none of whose inputs changed since its committed result
// (the digest in test/mutation/incremental/<group>.inputs: scripts/mutationInputs.mjs) is scored from that result without
// starting Stryker. HTML reports: test-results/mutation/<group>/ (of groups Stryker ran).
// Usage: node scripts/mutation.mjs [--ci] [--force] [--keep-baseline] [--table] [group ...]
//   --ci: the safety-critical groups only; --force: test every mutant again, ignoring earlier results and digests;
//   --keep-baseline: start from the committed results but write the new ones under test-results/
//   (npm test uses it, so a test run leaves the working tree as it was);
//   --table: run nothing, print the committed results as a Markdown table.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mutationGroups, reportDirectory } from '../test/mutation/mutationGroups.mjs';
import { mutationInputsDigest } from './mutationInputs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const named = args.filter((arg) => !arg.startsWith('--'));
const strykerArgs = args.includes('--force') ? ['--force'] : [];
const unknown = named.filter((name) => !mutationGroups.some((group) => group.name === name));
if (unknown.length > 0) {
  console.error(`No mutation group ${unknown.join(', ')}; groups: ${mutationGroups.map((group) => group.name).join(', ')}`);
  process.exit(2);
}
const groups = mutationGroups.filter((group) =>
  named.length > 0 ? named.includes(group.name) : !args.includes('--ci') || group.ci);

/** Killed and timed-out mutants count as detected; compile errors and ignored ones count for nothing. */
const detected = new Set(['Killed', 'Timeout']);
const undetected = new Set(['Survived', 'NoCoverage']);

/** Score of one file of a mutation-testing-report-schema JSON report, with its survivors. */
function scoreFile(file) {
  const mutants = file.mutants.filter((mutant) => detected.has(mutant.status) || undetected.has(mutant.status));
  const caught = mutants.filter((mutant) => detected.has(mutant.status)).length;
  return {
    score: mutants.length === 0 ? 100 : (100 * caught) / mutants.length,
    caught,
    total: mutants.length,
    missed: mutants.filter((mutant) => undetected.has(mutant.status)),
  };
}

/** The group's committed result (`json`), or the digest of what it was made from (`inputs`). */
const committedFile = (groupName, extension) => join(root, 'test/mutation/incremental', `${groupName}.${extension}`);

/** A copy of the group's committed results under test-results/, for Stryker to read and overwrite. */
function scratchBaseline(groupName) {
  const committed = committedFile(groupName, 'json');
  const scratch = join(root, reportDirectory(groupName), 'incremental.json');
  mkdirSync(dirname(scratch), { recursive: true });
  if (existsSync(committed)) copyFileSync(committed, scratch);
  else rmSync(scratch, { force: true });
  return scratch;
}

/** The results table: one row per group from its committed result, with its weakest file. */
function printTable() {
  console.log('| group | files | detected | weakest file | threshold |');
  console.log('|---|---|---|---|---|');
  for (const group of groups) {
    const committed = committedFile(group.name, 'json');
    if (!existsSync(committed)) {
      console.log(`| ${group.name} | no result yet | | | ${group.threshold} % |`);
      continue;
    }
    // the committed result holds exactly the files the group's globs matched at its last run
    const scores = Object.entries(JSON.parse(readFileSync(committed, 'utf8')).files)
      .map(([path, file]) => ({ path, ...scoreFile(file) }));
    const caught = scores.reduce((sum, file) => sum + file.caught, 0);
    const total = scores.reduce((sum, file) => sum + file.total, 0);
    const weakest = scores.reduce((low, file) => (low === undefined || file.score < low.score ? file : low), undefined);
    const overall = total === 0 ? 100 : (100 * caught) / total;
    const weakestText = weakest === undefined ? '' : `\`${weakest.path}\` ${weakest.score.toFixed(1)} %`;
    console.log(`| ${group.name} | ${scores.length} | ${overall.toFixed(1)} % (${caught}/${total}) | ${weakestText} | ${group.threshold} % |`);
  }
}

if (args.includes('--table')) {
  printTable();
  process.exit(0);
}

const started = Date.now();
let failed = 0;
for (const group of groups) {
  console.log(`\n--- mutation group ${group.name} (every file >= ${group.threshold} %) ---`);
  const committed = committedFile(group.name, 'json');
  const inputsFile = committedFile(group.name, 'inputs');
  const digest = mutationInputsDigest(root, group);
  let report;
  if (!args.includes('--force') && existsSync(committed) && existsSync(inputsFile) && readFileSync(inputsFile, 'utf8').trim() === digest) {
    // Nothing the run reads changed since the committed result was made: it is this run's result.
    console.log(`Its modules, tests, what they import and the runner's configuration are as they were for the committed result (${digest.slice(0, 12)}): scored from it, Stryker not started.`);
    report = JSON.parse(readFileSync(committed, 'utf8'));
  } else {
    const reportFile = join(root, reportDirectory(group.name), 'mutation.json');
    rmSync(reportFile, { force: true });
    const incremental = args.includes('--keep-baseline') ? { MUTATION_INCREMENTAL_FILE: scratchBaseline(group.name) } : {};
    const outcome = spawnSync(join(root, 'node_modules', '.bin', 'stryker'), ['run', 'stryker.config.mjs', ...strykerArgs], {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        MUTATION_GROUP: group.name,
        ...incremental,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${join(root, 'test/mutation/mochaCjsPaths.cjs')}`.trim(),
      },
    });
    if (outcome.signal === 'SIGINT' || outcome.signal === 'SIGTERM') process.exit(130);
    if (outcome.status !== 0 || !existsSync(reportFile)) {
      console.log(`✘ mutation ${group.name}: Stryker ended (exit ${outcome.status ?? outcome.signal}) without a report`);
      failed++;
      continue;
    }
    report = JSON.parse(readFileSync(reportFile, 'utf8'));
    // Stryker has just written the committed result (incrementalFile): record what it was made from.
    if (!args.includes('--keep-baseline')) writeFileSync(inputsFile, `${digest}\n`);
  }
  let groupOk = true;
  for (const [path, file] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    const { score, caught, total, missed } = scoreFile(file);
    const ok = score >= group.threshold;
    groupOk &&= ok;
    console.log(`${ok ? '✔' : '✘'} ${score.toFixed(1).padStart(5)} %  ${path}  (${caught}/${total} detected)`);
    if (ok) continue;
    for (const mutant of missed) {
      const replacement = mutant.replacement === undefined ? '' : `: ${JSON.stringify(mutant.replacement).slice(0, 100)}`;
      console.log(`    ${mutant.status} ${path}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName}${replacement}`);
    }
  }
  console.log(`${groupOk ? '✔' : '✘'} mutation ${group.name}`);
  if (!groupOk) failed++;
}
const seconds = Math.round((Date.now() - started) / 1000);
console.log(`\nmutation: ${groups.length - failed} of ${groups.length} groups at their threshold (${seconds} s); reports in ${reportDirectory('<group>')}/index.html`);
process.exit(failed > 0 ? 1 : 0);
