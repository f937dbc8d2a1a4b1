import { mutationGroups, reportDirectory } from './test/mutation/mutationGroups.mjs';

// StrykerJS configuration: the core is mutated in module groups, each with the unit tests that
// cover it, and each source file must keep its group's mutation score. Run through
// `npm run mutation [group ...]` (scripts/mutation.mjs), which picks the group with
// MUTATION_GROUP, lets the mocha runner load mocha 12 and checks the scores per file.

/** The group named by MUTATION_GROUP. */
function selectedGroup() {
  const name = process.env.MUTATION_GROUP;
  const group = mutationGroups.find((candidate) => candidate.name === name);
  if (!group) {
    throw new Error(`Set MUTATION_GROUP to one of: ${mutationGroups.map((candidate) => candidate.name).join(', ')} (got ${name ?? 'nothing'}); npm run mutation does it for you.`);
  }
  return group;
}

const group = selectedGroup();

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'mocha',
  mochaOptions: { spec: group.spec, require: ['tsx/cjs'], ...(group.grep ? { grep: group.grep } : {}) },
  coverageAnalysis: 'perTest',
  ignoreStatic: group.ignoreStatic ?? false,
  mutate: group.mutate,
  // The sandbox gets only what the tests load (not the VS Code host under test/host).
  ignorePatterns: ['/*', '!/src', '!/test', '/test/host', '/test/e2e', '/test/integration', '!/package.json', '!/tsconfig*.json'],
  incremental: true,
  incrementalFile: process.env.MUTATION_INCREMENTAL_FILE ?? `test/mutation/incremental/${group.name}.json`,
  reporters: ['html', 'json', 'clear-text'],
  htmlReporter: { fileName: `${reportDirectory(group.name)}/index.html` },
  jsonReporter: { fileName: `${reportDirectory(group.name)}/mutation.json` },
  clearTextReporter: { allowColor: false, allowEmojis: false, logTests: false, reportMutants: false },
  thresholds: { high: group.threshold, low: group.threshold, break: null },
  concurrency: 2,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
