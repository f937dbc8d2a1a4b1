import assert from 'node:assert/strict';
import type { RunResult } from '../../../src/core/engine/runOptions';
import { runResultJson } from '../../../src/cli/runResultJson';

function resultOf(count: number, text: string): RunResult {
  const ids = Array.from({ length: count }, (_, index) => `R${index + 1}`);
  return {
    runId: 'r1',
    status: 'completed',
    results: Object.fromEntries(ids.map((id) => [id, { path: 'big.txt', content: text }])),
    steps: Object.fromEntries(ids.map((id) => [id, { status: 'completed', attempts: 1, result: { path: 'big.txt', content: text } }])),
    metadata: { startedAt: 0, endedAt: 1, totalDurationMs: 1, executionAttempts: count, replanCount: 0, replanHistory: [], replanRequests: [], warnings: [], resumeCount: 0 },
  } as unknown as RunResult;
}

describe('runResultJson (run --json)', () => {
  it('prints a run that fits whole, as it is', () => {
    const result = resultOf(3, 'short');
    assert.equal(runResultJson(result, 100_000), JSON.stringify(result, null, 2));
  });

  it('cuts each step result to an equal share, visibly, when the whole would be longer (600 reads of a file of control characters ended "error")', () => {
    // Each control character is six in JSON: 20 steps of 5,000 are 1.2 million characters.
    const result = resultOf(20, '\u0001'.repeat(5_000));
    const text = runResultJson(result, 100_000);
    assert.ok(text.length <= 100_000, `${text.length} characters`);
    const parsed = JSON.parse(text) as RunResult;
    assert.equal(parsed.status, 'completed');
    assert.deepEqual(Object.keys(parsed.steps), Object.keys(result.steps));
    for (const step of Object.values(parsed.steps)) assert.match(JSON.stringify(step.result), /more characters cut/);
    assert.match(JSON.stringify(parsed.results['R20']), /more characters cut/);
  });

  it('stays within the bound when what is long is no result (titles of waiting requests, 2 million characters each: attack)', () => {
    const result = resultOf(5, 'x');
    const title = '\u0001'.repeat(20_000);
    result.pending = Object.keys(result.steps).map((stepId) => ({ stepId, kind: 'manual', prompt: title } as never));
    const text = runResultJson(result, 100_000);
    assert.ok(text.length <= 100_000, `${text.length} characters`);
    assert.equal((JSON.parse(text) as RunResult).pending?.length, 5);
  });
});
