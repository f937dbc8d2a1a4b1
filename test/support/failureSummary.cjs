// What a failed test's error comes to in the closing lines of `npm test`: shared by the mocha reporter of the suites run
// in Node (countingReporter.cjs) and the integration suite's runner inside the extension host (test/integration/index.ts).
'use strict';

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

module.exports = { failureSummary };
