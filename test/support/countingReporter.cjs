// A mocha reporter: the usual spec output, plus the run's counts written as JSON to
// $TEST_STATS_FILE so scripts/test.mjs can sum every suite into one closing line.
'use strict';
const fs = require('node:fs');
const Mocha = require('mocha');

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.TEST_STATS_FILE;
      if (!file) return;
      const { passes, failures, pending } = runner.stats ?? { passes: 0, failures: 0, pending: 0 };
      fs.writeFileSync(file, JSON.stringify({ passed: passes, failed: failures, skipped: pending }));
    });
  }
}

module.exports = CountingReporter;
