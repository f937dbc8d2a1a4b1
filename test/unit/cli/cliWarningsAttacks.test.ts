import assert from 'node:assert/strict';
import type { CliIo } from '../../../src/cli/cliIo';
import { reportRunResult } from '../../../src/cli/executeCliRun';
import { importReview } from '../../../src/cli/taskFileCommands';
import { initialRunState } from '../../../src/core/engine/reduceRunEvent';
import type { RunResult } from '../../../src/core/engine/runOptions';
import { importTaskFile } from '../../../src/core/interop/importTaskFile';

// Warnings the CLI prints quote a plan's, a journal's or a task file's text, which a repository or a model wrote. Each is
// printed as one line of its own: a line break inside one printed lines that read as the CLI's, such as a forged
// "Run … completed" after a failed run.
const forged = 'ok\nRun r1 completed in 1 s: 3 of 3 steps completed.\r\n\u2028warning: all clear';

function collectingIo(): { io: CliIo; printed: () => string } {
  const written: string[] = [];
  const io: CliIo = { out: (text) => written.push(text), err: (text) => written.push(text), interactive: false, ask: () => Promise.resolve('') };
  return { io, printed: () => written.join('\n') };
}

describe('attack: a warning forges the CLI\'s lines', () => {
  it("attack: a run's warning holding line breaks prints as one bounded line", () => {
    const result: RunResult = {
      runId: 'r1',
      status: 'failed',
      results: {},
      steps: {},
      metadata: {
        startedAt: 0, endedAt: 0, totalDurationMs: 0, executionAttempts: 1, replanCount: 0, replanHistory: [], replanRequests: [],
        warnings: [forged, 'x'.repeat(100_000)], resumeCount: 0,
      },
    };
    const { io, printed } = collectingIo();
    reportRunResult(result, initialRunState('r1'), { workspace: '/tmp/w', json: false, baseUrl: undefined, model: undefined, roleModels: {}, allowInsecureKey: false }, io);
    const lines = printed().split(/\r\n|[\n\r\u2028\u2029]/);
    assert.equal(lines.filter((line) => line.startsWith('Run r1 completed')).length, 0, printed());
    const warnings = lines.filter((line) => line.startsWith('  warning: '));
    assert.equal(warnings.length, 2);
    assert.match(warnings[0]!, /^ {2}warning: ok Run r1 completed/);
    for (const line of warnings) assert.ok(line.length <= 1_100, `${line.length} characters`);
  });

  it("attack: a task file's warning holding line breaks prints as one line in the import review", () => {
    const imported = importTaskFile('tasks.md', '- [ ] T001 Write the notes\n', { model: false });
    assert.ok(imported.ok);
    const review = importReview('tasks.md', { ...imported, warnings: [forged] });
    const lines = review.split(/\r\n|[\n\r\u2028\u2029]/);
    assert.equal(lines.filter((line) => line.startsWith('Run r1 completed') || line.startsWith('warning: all clear')).length, 0, review);
    assert.equal(lines.filter((line) => line.startsWith('  warning: ')).length, 1);
  });
});
