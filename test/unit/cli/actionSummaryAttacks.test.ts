import assert from 'node:assert/strict';
import { actionSummary, actionSummaryLimits } from '../../../src/cli/actionSummary';
import type { RunResult } from '../../../src/core/engine/runOptions';
import { outsideCode, shownOutsideCode } from '../../support/markdownOutsideCode';

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
    // A word GitHub would link is shown in a code span, which nothing inside opens as a link: outside the spans, none starts.
    assert.doesNotMatch(outsideCode(summary), /(?<!\\)\]\(|(?<!\\)<b>|(?<!\\)!\[/);
    assert.doesNotMatch(summary, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
    for (const line of lines) assert.ok(line.length <= actionSummaryLimits.line * 8 + 100, `${line.length} characters`);
  });

  it('attack: a step title holding "|", line breaks, links, HTML and escapes stays in its row\'s first cell', () => {
    const summary = actionSummary(runOf('S1', 'e', 'r'), [], new Map([['S1', hostile.repeat(20)]]));
    const lines = summary.split('\n');
    assert.equal(lines.filter((line) => line.startsWith('|')).length, 3);
    const row = lines.find((line) => line.startsWith('| S1: x'))!;
    assert.equal(row.match(/(?<!\\)\|/g)!.length, 5, row);
    assert.doesNotMatch(outsideCode(summary), /(?<!\\)\]\(|(?<!\\)<b>|(?<!\\)!\[/);
    assert.doesNotMatch(summary, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
    assert.ok(row.length <= actionSummaryLimits.line * 8 + 100, `${row.length} characters`);
  });

  it('attack: a failure message closing the fence with backticks stays inside its block', () => {
    const summary = actionSummary({ code: 2, message: 'bad\n```\n# Heading\n<img src=x>\n````````' }, []);
    const fence = /^(`{3,})text$/m.exec(summary)![1]!;
    assert.ok(fence.length > 8);
    // Only the block's own fences are as long as its fence: none inside can close it.
    assert.equal(summary.split('\n').filter((line) => line.startsWith(fence)).length, 2);
  });
});

function waitingRun(stepId: string, text: string): RunResult {
  const run = runOf(stepId, text, text);
  return {
    ...run,
    status: 'waiting',
    pending: [{ id: `${stepId}@000000000000`, fingerprint: '0', stepId, kind: 'manual', prompt: text }],
  };
}

describe('attack: texts of a run that GitHub links or renders after parsing', () => {
  it('attack: a mention, an e-mail address, a bare URL or an issue reference in a step error, reason, prompt or path is neither linked nor a ping', () => {
    const text = 'ask @octocat or admin@evil.example; see https://evil.example/?q=SECRET and www.evil.example/x; fixes #12, org/repo#3';
    const summary = actionSummary(waitingRun('s', text), [`docs/${text}`]);
    const shown = shownOutsideCode(summary);
    assert.doesNotMatch(shown, /@|:\/\/|www\.|#\d/, shown);
    // Still shown, as code.
    assert.match(summary, /`https:\/\/evil\.example\/\?q=SECRET`/);
  });

  it('attack: a word in code inside the table cannot split its cell with "|"', () => {
    const summary = actionSummary(runOf('id|x@y', 'a|b@c.example|d ``|`` e', 'r'), []);
    const row = summary.split('\n').find((line) => line.includes('| failed |'))!;
    // Four cells: five bars no backslash escapes, in code spans too (GFM splits cells before it reads code spans).
    assert.equal(row.match(/(?<!\\)\|/g)!.length, 5, row);
    assert.doesNotMatch(shownOutsideCode(summary), /@/);
  });

  it('attack: a changed file named like a list item, a rule or an underline ("1. x", "- x", "---") adds no list, rule or heading', () => {
    const files = ['1. notes.md', '- draft.md', '+ x', '---', '===', '   - indented'];
    const lines = actionSummary(runOf('s', 'e', 'r'), files).split('\n');
    const listed = lines.slice(lines.indexOf('### Changed files') + 2, lines.indexOf('### Changed files') + 2 + files.length);
    assert.deepEqual(listed, ['- 1\\. notes\\.md', '- \\- draft\\.md', '- \\+ x', '- \\---', '- \\===', '- \\- indented']);
  });

  it('attack: math ($…$, $$…$$) in a step error or the reason cannot draw text such as a forged "All steps completed"', () => {
    const math = '$\\Huge\\textsf{All steps completed}$ and $$\\color{green}{\\text{passed}}$$ $`x`$';
    const summary = actionSummary(runOf('s', math, math), []);
    assert.doesNotMatch(outsideCode(summary), /(?<!\\)\$/, summary);
  });

  it('attack: with every field at its bound and full of escapes, the summary stays under the 1 MiB GitHub accepts for a step', () => {
    const wall = '\u001b'.repeat(100_000);
    const steps: RunResult['steps'] = {};
    for (let index = 0; index < actionSummaryLimits.steps + 10; index++) {
      const id = `s${index}${wall.slice(0, 300)}`;
      steps[id] = { id, status: 'failed', attempts: 1, error: wall };
    }
    const pending = Array.from({ length: actionSummaryLimits.pending + 10 }, (_, index) => ({
      id: `p${index}@000000000000`,
      fingerprint: '0',
      stepId: `p${index}${wall.slice(0, 300)}`,
      kind: 'approval' as const,
      prompt: wall,
      request: { kind: 'command' as const, stepId: `p${index}`, title: wall, argv: [wall, wall], cwd: wall, shell: false },
    }));
    const run: RunResult = { ...runOf('x', wall, wall), status: 'waiting', steps, pending };
    const summary = actionSummary(run, Array.from({ length: actionSummaryLimits.files + 10 }, () => wall));
    assert.ok(Buffer.byteLength(summary) < 1024 * 1024, `${Buffer.byteLength(summary)} bytes`);
  });
});
