// A mocha reporter: the usual spec output, plus the run's counts and the titles of failed tests
// written as JSON to $TEST_STATS_FILE so scripts/test.mjs can sum every suite into one closing
// line and name, just above it, what failed (a CI log is often cut to its end), and what passed only when tried again.
'use strict';
const fs = require('node:fs');
const Mocha = require('mocha');

/** `line` cut to `limit` characters. */
function bounded(line, limit) {
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}

/**
 * What a failure's message needs in a log's last lines to be recognised and reproduced, since a CI log is all there
 * is of a clean-clone run: its first lines (an assertion's actual and expected values; a fast-check property's seed,
 * path and counterexample) and the error it was caused by (a property's own). Six lines at most, each bounded; the
 * caller indents the lines after the first.
 */
function failureSummary(error) {
  const [first = '', ...others] = String((error && error.message) || error || '').split('\n');
  const kept = [bounded(first, 200)];
  for (const line of others) {
    if (kept.length === 5) break;
    if (line.trim() !== '' && !/^(Hint: |\s+at )/.test(line)) kept.push(bounded(line, 300));
  }
  // fast-check 4 keeps the property's own error as the cause.
  const cause = error && error.cause;
  if (cause) kept.push(`Caused by: ${bounded(String(cause.message || cause).split('\n')[0] || '', 300)}`);
  return kept.join('\n');
}

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
