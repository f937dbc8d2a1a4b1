// A mocha reporter: the usual spec output, plus the run's counts and the titles of failed tests
// written as JSON to $TEST_STATS_FILE so scripts/test.mjs can sum every suite into one closing
// line and name, just above it, what failed (a CI log is often cut to its end), and what passed only when tried again.
'use strict';
const fs = require('node:fs');
const Mocha = require('mocha');
const { failureSummary } = require('./failureSummary.cjs');

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const failedTests = [];
    /** Why each test that is tried again (mocha's --retries) failed its earlier try, by full title. */
    const retried = new Map();
    /** Tests that passed only on a later try: reported by name, never counted as plain passes in silence. */
    const flakyTests = [];
    runner.on(Mocha.Runner.constants.EVENT_TEST_RETRY, (test, error) => {
      retried.set(test.fullTitle(), failureSummary(error));
    });
    runner.on(Mocha.Runner.constants.EVENT_TEST_PASS, (test) => {
      const earlier = retried.get(test.fullTitle());
      if (earlier !== undefined) flakyTests.push({ title: test.fullTitle(), file: test.file || '', message: earlier });
    });
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test, error) => {
      const message = failureSummary(error);
      // A second try can fail for a reason of the first (state the first try left behind): keep the first's too.
      const earlier = retried.get(test.fullTitle());
      failedTests.push({ title: test.fullTitle(), file: test.file || '', message: earlier === undefined || earlier === message ? message : `${message}\nfirst try: ${earlier}` });
    });
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.TEST_STATS_FILE;
      if (!file) return;
      const { passes, failures, pending } = runner.stats ?? { passes: 0, failures: 0, pending: 0 };
      fs.writeFileSync(file, JSON.stringify({ passed: passes, failed: failures, skipped: pending, failedTests, flakyTests }));
    });
  }
}

module.exports = CountingReporter;
