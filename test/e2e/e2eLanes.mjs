// How `npm test` splits the end-to-end files between mocha processes that run at the same time (scripts/test.mjs).
//
// One process drives one browser and one code-server, and keeps the machine about two-thirds busy (measured with vmstat
// on this 2-core machine: the workbench's renderer waits on the extension host and the other way round); two keep it
// busy: the whole e2e suite took 554 s in one process and 409 s in two, every test passing (2026-11-30). Each file still
// runs whole in one process, one suite after another, sharing that process's code-server (sharedCodeServer.ts).

import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Seconds a file took on a clean clone of 2026-12-04 (its tests, and about 6 s for the opening of its window), to balance
 * the lanes.
 * Only a guess of the order of things: a file not listed counts as `unlistedSeconds`, and a wrong figure makes the run
 * slower, never wrong.
 */
const measuredSeconds = {
  'accessibility.test.ts': 47,
  'multiRoot.test.ts': 44,
  'trialGuarantees.test.ts': 43,
  'editorPresentation.test.ts': 32,
  'otherWindow.test.ts': 31,
  'runInEditor.test.ts': 29,
  'planPanel.test.ts': 24,
  'pythonTrial.test.ts': 22,
  'longStepProgress.test.ts': 21,
  'walkthrough.test.ts': 21,
  'approvals.test.ts': 21,
  'testAndFix.test.ts': 19,
  'planFile.test.ts': 18,
  'planTask.test.ts': 18,
  'taskFile.test.ts': 18,
  'mcpWatch.test.ts': 18,
  'mcpAlwaysAllow.test.ts': 17,
  'restrictedMode.test.ts': 17,
  'setUpModel.test.ts': 16,
  'manualStep.test.ts': 15,
  'chat.test.ts': 13,
  'estimate.test.ts': 12,
  'mcpMultiRoot.test.ts': 12,
  'mcpRestricted.test.ts': 14,
  'consentDefaults.test.ts': 11,
  'planGrounding.test.ts': 11,
  'npmStart.test.ts': 8,
};
const unlistedSeconds = 20;

/**
 * The `*.test.ts` files of `folder` in `count` lanes of about equal expected time (longest first, each to the lane
 * expected to end first), each lane in name order; every file in exactly one lane, no lane empty unless there are
 * fewer files than lanes.
 * @param {string} folder
 * @param {number} count
 * @returns {string[][]} paths as `folder/name`
 */
export function e2eLanes(folder, count) {
  const files = readdirSync(folder).filter((name) => name.endsWith('.test.ts')).sort();
  const lanes = Array.from({ length: count }, () => ({ seconds: 0, files: /** @type {string[]} */ ([]) }));
  const seconds = (/** @type {string} */ name) => measuredSeconds[/** @type {keyof typeof measuredSeconds} */ (name)] ?? unlistedSeconds;
  for (const name of [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b))) {
    const lane = lanes.reduce((least, next) => (next.seconds < least.seconds ? next : least));
    lane.seconds += seconds(name);
    lane.files.push(name);
  }
  return lanes.filter((lane) => lane.files.length > 0).map((lane) => lane.files.sort().map((name) => join(folder, name)));
}
