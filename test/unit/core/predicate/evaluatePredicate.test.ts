import assert from 'node:assert/strict';
import { evaluatePredicate } from '../../../../src/core/predicate/evaluatePredicate';
import { textCaps } from '../../../../src/core/text/capText';

describe('evaluatePredicate', () => {
  it('passes on true, with input, result and depends bound as JSON', async () => {
    assert.deepEqual(await evaluatePredicate('input.n + depends.a.length === result.total', { input: { n: 1 }, result: { total: 3 }, depends: { a: [1, 2] } }), { kind: 'pass' });
  });

  it('fails on false with a diagnosis quoting the predicate and a preview of the result', async () => {
    const outcome = await evaluatePredicate('result.ok', { result: { ok: false, text: 'x'.repeat(500) } });
    assert.equal(outcome.kind, 'fail');
    assert.match(outcome.kind === 'fail' ? outcome.diagnosis : '', /^Verification `result.ok` was false for result \{"ok":false,"text":"x+… \(\d+ chars\)$/);
  });

  it('uses a returned string as the diagnosis and rejects other values as unexpected', async () => {
    assert.deepEqual(await evaluatePredicate('result > 3 || "need more than 3"', { result: 2 }), { kind: 'fail', diagnosis: 'need more than 3' });
    const other = await evaluatePredicate('result', { result: 42 });
    assert.match(other.kind === 'fail' ? other.diagnosis : '', /unexpected value 42/);
  });

  it('reports exceptions and syntax errors as errors', async () => {
    const thrown = await evaluatePredicate('result.missing.deeper', { result: {} });
    assert.equal(thrown.kind, 'error');
    assert.match(thrown.kind === 'error' ? thrown.message : '', /TypeError/);
    assert.equal((await evaluatePredicate('1 +', {})).kind, 'error');
  });

  it('stops an endless loop at the time limit', async () => {
    const outcome = await evaluatePredicate('(() => { for (;;) {} })()', {}, { timeoutMs: 50 });
    assert.deepEqual(outcome, { kind: 'error', message: 'Verification `(() => { for (;;) {} })()` timed out after 50 ms; make the predicate cheaper or remove the loop.' });
  });

  it('stops unbounded allocation at the memory limit and still works afterwards', async () => {
    const outcome = await evaluatePredicate('(() => { const a = []; for (;;) a.push([1, 2, 3, 4, 5, 6, 7, 8]); })()', {}, { memoryLimitBytes: 4 * 1024 * 1024, timeoutMs: 10_000 });
    assert.equal(outcome.kind, 'error');
    assert.match(outcome.kind === 'error' ? outcome.message : '', /ran out of memory/);
    assert.deepEqual(await evaluatePredicate('true', {}), { kind: 'pass' });
  });

  it('stops unbounded recursion and has no access to the host', async () => {
    const recursion = await evaluatePredicate('(function f() { return f() + 1; })()', {});
    assert.equal(recursion.kind, 'error');
    assert.deepEqual(await evaluatePredicate('typeof process === "undefined" && typeof require === "undefined"', {}), { kind: 'pass' });
    assert.deepEqual(await evaluatePredicate('result === undefined', {}), { kind: 'pass' });
  });
});

describe('evaluatePredicate under hostile predicates', function () {
  this.timeout(20_000);

  it('stops an allocation loop of large arrays at the memory limit, quickly, three times, without the host keeping the memory', async () => {
    const hostile = 'let a = []; for (;;) a.push(new Array(1e6).fill(1))';
    const rssBefore = process.memoryUsage().rss;
    for (let run = 1; run <= 3; run++) {
      const began = performance.now();
      const outcome = await evaluatePredicate(hostile, {}, { timeoutMs: 1_000 });
      const tookMs = performance.now() - began;
      assert.ok(tookMs < 2_000, `run ${run} took ${Math.round(tookMs)} ms`);
      assert.equal(outcome.kind, 'error');
      assert.match(outcome.kind === 'error' ? outcome.message : '', /memory limit of 32 MiB/);
    }
    const grownMiB = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    assert.ok(grownMiB < 400, `the host grew by ${Math.round(grownMiB)} MiB`);
    assert.deepEqual(await evaluatePredicate('[1, 2, 3].map((n) => n * 2).join() === "2,4,6"', {}), { kind: 'pass' });
  });

  it('caps a huge diagnosis string and a huge thrown message, with a visible marker', async () => {
    const diagnosis = await evaluatePredicate('"x".repeat(31e6)', {});
    assert.equal(diagnosis.kind, 'fail');
    const text = diagnosis.kind === 'fail' ? diagnosis.diagnosis : '';
    assert.ok(text.length <= textCaps.message, `diagnosis of ${text.length} characters`);
    assert.match(text, /^x+… \(\d+ more characters cut\)$/);
    const thrown = await evaluatePredicate('(() => { throw new Error("y".repeat(5e6)); })()', {});
    assert.equal(thrown.kind, 'error');
    const message = thrown.kind === 'error' ? thrown.message : '';
    assert.ok(message.length <= textCaps.message, `message of ${message.length} characters`);
    assert.match(message, /more characters cut\)$/);
  });
});
