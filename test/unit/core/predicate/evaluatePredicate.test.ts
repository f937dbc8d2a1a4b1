import assert from 'node:assert/strict';
import { evaluatePredicate } from '../../../../src/core/predicate/evaluatePredicate';

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
