import assert from 'node:assert/strict';
import { actionSummary, actionSummaryLimits } from '../../../src/cli/actionSummary';
import type { RunResult } from '../../../src/core/engine/runOptions';

const hostile = 'x | y\n## Forged\r\n- [link](https://evil.example) ![img](x) <b>hi</b> `code` \u001b[2J\u202e \u2028end';

function runOf(stepId: string, error: string, reason: string): RunResult {
  return {
    runId: `run|1\n# forged`,
    status: 'failed',
    results: {},
    steps: { [stepId]: { id: stepId, status: 'failed', attempts: 1, error } },
    metadata: { startedAt: 0, endedAt: 0, totalDurationMs: 0, executionAttempts: 1, replanCount: 0, replanHistory: [], replanRequests: [], reason, warnings: [], resumeCount: 0 },
  };
}

describe('attack: texts of a run in the GitHub job summary', () => {
  it('attack: a step id, error, run id and reason holding "|", line breaks, links, HTML and escapes add no row, line, link, heading or control', () => {
    const summary = actionSummary(runOf(hostile, hostile.repeat(100), hostile), [hostile]);
    const lines = summary.split('\n');
    // Title, blank, reason, blank, table head (2), one row, blank, changed files heading, blank, one file, blank, end.
    assert.equal(lines.filter((line) => line.startsWith('|')).length, 3);
    const row = lines.find((line) => line.startsWith('| x'))!;
    // Four cells: five unescaped bars.
    assert.equal(row.match(/(?<!\\)\|/g)!.length, 5);
    assert.equal(lines.filter((line) => line.startsWith('#')).length, 2);
    assert.doesNotMatch(summary, /(?<!\\)\]\(|(?<!\\)<b>|(?<!\\)!\[/);
    assert.doesNotMatch(summary, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
    for (const line of lines) assert.ok(line.length <= actionSummaryLimits.line * 8 + 100, `${line.length} characters`);
  });

  it('attack: a failure message closing the fence with backticks stays inside its block', () => {
    const summary = actionSummary({ code: 2, message: 'bad\n```\n# Heading\n<img src=x>\n````````' }, []);
    const fence = /^(`{3,})text$/m.exec(summary)![1]!;
    assert.ok(fence.length > 8);
    // Only the block's own fences are as long as its fence: none inside can close it.
    assert.equal(summary.split('\n').filter((line) => line.startsWith(fence)).length, 2);
  });
});
