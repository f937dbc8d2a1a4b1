import assert from 'node:assert/strict';
import { evaluatePredicate, sandboxLoads } from '../../../../src/core/predicate/evaluatePredicate';
import { textCaps } from '../../../../src/core/text/capText';

describe('evaluatePredicate', () => {
  it('bounds recursion by the sandbox\'s own 256 KiB stack, not the host\'s: 1 000 calls deep pass, 2 000 stop with "went too deep"', async () => {
    const recurse = (depth: number) => `(function f(n) { return n === 0 ? true : f(n - 1); })(${depth})`;
    assert.deepEqual(await evaluatePredicate(recurse(1_000), {}), { kind: 'pass' });
    const deep = await evaluatePredicate(recurse(2_000), {});
    assert.equal(deep.kind, 'error');
    assert.match(deep.kind === 'error' ? deep.message : '', /went too deep/);
  });

  it('passes on true, with input, result and depends bound as JSON', async () => {
    assert.deepEqual(
      await evaluatePredicate('input.n + depends.a.length === result.total', { input: { n: 1 }, result: { total: 3 }, depends: { a: [1, 2] } }),
      { kind: 'pass' },
    );
  });

  it('fails on false with a diagnosis quoting the predicate and a preview of the result', async () => {
    const outcome = await evaluatePredicate('result.ok', { result: { ok: false, text: 'x'.repeat(500) } });
    assert.equal(outcome.kind, 'fail');
    assert.match(outcome.kind === 'fail' ? outcome.diagnosis : '', /^Verification `result.ok` was false for result \{"ok":false,"text":"x+… \(\d+ chars\)$/);
    assert.equal(outcome.kind === 'fail' && outcome.stated, false, 'a false is not the predicate\'s own words');
  });

  it('uses a returned string as the diagnosis and rejects other values as unexpected', async () => {
    assert.deepEqual(await evaluatePredicate('result > 3 || "need more than 3"', { result: 2 }), { kind: 'fail', diagnosis: 'need more than 3', stated: true });
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
    assert.deepEqual(outcome, {
      kind: 'error',
      message: 'Verification `(() => { for (;;) {} })()` timed out after 50 ms; make the predicate cheaper or remove the loop.',
    });
  });

  it('stops unbounded allocation at the memory limit and still works afterwards', async () => {
    const outcome = await evaluatePredicate(
      '(() => { const a = []; for (;;) a.push([1, 2, 3, 4, 5, 6, 7, 8]); })()',
      {},
      { memoryLimitBytes: 4 * 1024 * 1024, timeoutMs: 10_000 },
    );
    assert.equal(outcome.kind, 'error');
    assert.match(outcome.kind === 'error' ? outcome.message : '', /ran out of memory/);
    assert.deepEqual(await evaluatePredicate('true', {}), { kind: 'pass' });
  });

  it('keeps its sandbox instance across a pass, a fail, a throw, a syntax error, a stated diagnosis and a timeout', async () => {
    await evaluatePredicate('true', {});
    const before = sandboxLoads();
    const outcomes = [];
    const endless = '(() => { for (;;) {} })()';
    for (const expr of ['true', 'false', 'null.x', '(', '"no"', endless, 'result === 1']) {
      // A short limit for the endless loop only: on a loaded machine 50 ms also cut `false` short (a clean-clone run).
      outcomes.push((await evaluatePredicate(expr, { result: 1 }, expr === endless ? { timeoutMs: 50 } : {})).kind);
    }
    assert.deepEqual(outcomes, ['pass', 'fail', 'error', 'error', 'fail', 'error', 'pass']);
    assert.equal(sandboxLoads(), before, 'no evaluation loaded a new instance');
  });

  it('drops its sandbox instance after running out of memory, so the next evaluation loads a fresh one', async () => {
    await evaluatePredicate('true', {}, { memoryLimitBytes: 4 * 1024 * 1024 });
    const before = sandboxLoads();
    const outcome = await evaluatePredicate(
      '(() => { const a = []; for (;;) a.push([1, 2, 3, 4, 5, 6, 7, 8]); })()',
      {},
      { memoryLimitBytes: 4 * 1024 * 1024, timeoutMs: 10_000 },
    );
    assert.match(outcome.kind === 'error' ? outcome.message : '', /ran out of memory/);
    assert.equal(sandboxLoads(), before, 'the instance goes after the evaluation, not before it');
    assert.deepEqual(await evaluatePredicate('true', {}, { memoryLimitBytes: 4 * 1024 * 1024 }), { kind: 'pass' });
    assert.equal(sandboxLoads(), before + 1);
    assert.deepEqual(await evaluatePredicate('true', {}, { memoryLimitBytes: 4 * 1024 * 1024 }), { kind: 'pass' });
    assert.equal(sandboxLoads(), before + 1, 'the fresh instance is kept');
  });

  it('stops unbounded recursion and has no access to the host', async () => {
    const recursion = await evaluatePredicate('(function f() { return f() + 1; })()', {});
    assert.equal(recursion.kind, 'error');
    assert.deepEqual(await evaluatePredicate('typeof process === "undefined" && typeof require === "undefined"', {}), { kind: 'pass' });
    assert.deepEqual(await evaluatePredicate('result === undefined', {}), { kind: 'pass' });
  });

  it('says what was thrown: an error by name and message, anything else as JSON', async () => {
    const messageOf = async (expr: string): Promise<string> => {
      const outcome = await evaluatePredicate(expr, {});
      assert.equal(outcome.kind, 'error', expr);
      return outcome.kind === 'error' ? outcome.message : '';
    };
    assert.equal(
      await messageOf('(() => { throw new RangeError("bad range"); })()'),
      'Verification `(() => { throw new RangeError("bad range"); })()` threw RangeError: bad range',
    );
    assert.equal(
      await messageOf('(() => { throw { name: 5, message: "plain" }; })()'),
      'Verification `(() => { throw { name: 5, message: "plain" }; })()` threw Error: plain',
    );
    assert.equal(await messageOf('(() => { throw { code: 7 }; })()'), 'Verification `(() => { throw { code: 7 }; })()` threw {"code":7}');
    assert.equal(await messageOf('(() => { throw "just text"; })()'), 'Verification `(() => { throw "just text"; })()` threw "just text"');
    assert.equal(await messageOf('(() => { throw undefined; })()'), 'Verification `(() => { throw undefined; })()` threw undefined');
    assert.match(await messageOf('1 +'), /^Verification `1 \+` threw SyntaxError: \S/);
    // QuickJS reports running out of memory as a thrown null.
    assert.match(await messageOf('(() => { throw null; })()'), /^Verification `\(\(\) => \{ throw null; \}\)\(\)` ran out of memory/);
  });

  it('never passes a predicate that returns a promise, fulfilled, rejected or pending: it says a predicate is used at once (it said "Lifetime not alive"), and keeps its sandbox', async () => {
    // On a sandbox loaded already: an earlier test may have left none.
    await evaluatePredicate('true', {});
    const loadsBefore = sandboxLoads();
    for (const expr of ['Promise.resolve(true)', '(async () => true)()', 'new Promise(() => {})', 'Promise.reject(new Error("no"))']) {
      assert.deepEqual(await evaluatePredicate(expr, { result: 1 }), {
        kind: 'error',
        message: `Verification \`${expr}\` could not be evaluated: it returned a promise, and a predicate's value is used at once. Return true, false or a diagnosis string, without async, await or Promise.`,
      });
    }
    // A thrown promise is an error the predicate threw, like any other.
    const thrown = await evaluatePredicate('(() => { throw Promise.resolve(1); })()', {});
    assert.equal(thrown.kind, 'error');
    assert.match(thrown.kind === 'error' ? thrown.message : '', /^Verification `.*` threw /);
    // An object with a `then` is no promise: an unexpected value, as before.
    assert.match(JSON.stringify(await evaluatePredicate('({ then: 1 })', {})), /unexpected value/);
    assert.equal(sandboxLoads(), loadsBefore, 'a promise made the sandbox load again');
    assert.deepEqual(await evaluatePredicate('result === 1', { result: 1 }), { kind: 'pass' });
  });

  it('names unbounded recursion, and lets bounded recursion finish', async () => {
    const recursion = '(function f() { return f() + 1; })()';
    assert.deepEqual(await evaluatePredicate(recursion, {}), {
      kind: 'error',
      message: `Verification \`${recursion}\` failed because it went too deep: it overflowed the sandbox's stack (unbounded recursion, or data nested too deeply?).`,
    });
    assert.deepEqual(await evaluatePredicate('(function f(n) { return n === 0 ? true : f(n - 1); })(1000)', {}), { kind: 'pass' });
  });

  it("reports nesting too deep for the sandbox (JSON.parse of 100 000 brackets) as the predicate's error, printing nothing, and works afterwards", async () => {
    const printed: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const consoleError = console.error.bind(console);
    const consoleWarn = console.warn.bind(console);
    const capture = (...args: unknown[]): boolean => printed.push(args.map(String).join(' ')) > 0;
    process.stderr.write = capture;
    console.error = capture;
    console.warn = capture;
    const deep = "JSON.parse('['.repeat(100000) + ']'.repeat(100000))";
    const outcomes = [];
    await evaluatePredicate('true', {});
    const loadsBefore = sandboxLoads();
    try {
      for (let round = 0; round < 2; round++) outcomes.push(await evaluatePredicate(deep, {}));
      outcomes.push(await evaluatePredicate('result === 1', { result: 1 }));
    } finally {
      process.stderr.write = write;
      console.error = consoleError;
      console.warn = consoleWarn;
    }
    assert.deepEqual(printed, []);
    const nested = {
      kind: 'error',
      message: `Verification \`${deep}\` failed because it went too deep: it overflowed the sandbox's stack (unbounded recursion, or data nested too deeply?).`,
    };
    assert.deepEqual(outcomes, [nested, nested, { kind: 'pass' }]);
    // The engine stopped halfway each time, so each time its instance went: the second round and the last
    // evaluation each started on a fresh one.
    assert.equal(sandboxLoads(), loadsBefore + 2);
  });

  it('fails a function or symbol result as an unexpected value, naming its type', async () => {
    for (const [expr, shown] of [['() => true', '"[function]"'], ['Symbol("s")', '"[symbol]"'], ['null', 'null']]) {
      assert.deepEqual(await evaluatePredicate(expr!, {}), {
        kind: 'fail',
        diagnosis: `Verification \`${expr}\` returned an unexpected value ${shown} (expected true, false or a diagnosis string) for result undefined`,
        stated: false,
      });
    }
  });

  it('shows a result of up to 200 characters whole, and cuts a longer one saying how long it was', async () => {
    const diagnosisFor = async (result: string): Promise<string> => {
      const outcome = await evaluatePredicate('false', { result });
      return outcome.kind === 'fail' ? outcome.diagnosis : '';
    };
    const fits = 'a'.repeat(198);
    assert.equal(await diagnosisFor(fits), `Verification \`false\` was false for result "${fits}"`);
    assert.equal(await diagnosisFor(`${fits}b`), `Verification \`false\` was false for result "${fits}b… (201 chars)`);
  });

  it('binds the step\'s check outcomes as `checks`, and leaves it undefined when not given', async () => {
    const checks = [{ kind: 'command', passed: false, detail: 'exit code 1, expected 0' }];
    assert.deepEqual(await evaluatePredicate('checks.every((check) => check.passed) || checks[0].detail', { checks }), {
      kind: 'fail',
      diagnosis: 'exit code 1, expected 0',
      stated: true,
    });
    assert.deepEqual(await evaluatePredicate('typeof checks === "undefined"', {}), { kind: 'pass' });
  });

  it('binds values JSON cannot carry as undefined, and refuses bindings it cannot copy, naming them', async () => {
    assert.deepEqual(await evaluatePredicate('result === undefined && typeof input === "undefined"', { result: () => 1 }), { kind: 'pass' });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const refused = await evaluatePredicate('true', { depends: cyclic });
    assert.equal(refused.kind, 'error');
    assert.match(
      refused.kind === 'error' ? refused.message : '',
      /^The binding `depends` cannot be passed to the predicate because it is not JSON-serializable: \S/,
    );
    assert.deepEqual(await evaluatePredicate('true', { result: 'x'.repeat(2 * 1024 * 1024) }, { memoryLimitBytes: 1024 * 1024 }), {
      kind: 'error',
      message: "The binding `result` is too large for the predicate sandbox's memory limit.",
    });
  });
});

describe('evaluatePredicate under hostile predicates', function () {
  this.timeout(20_000);

  it('stops an allocation loop of large arrays at the memory limit, quickly, three times, without the host keeping the memory', async () => {
    const hostile = 'let a = []; for (;;) a.push(new Array(1e6).fill(1))';
    const rssBefore = process.memoryUsage().rss;
    for (let run = 1; run <= 3; run++) {
      // Stopped by the memory limit, not the 1 s time limit: the message says which.
      const outcome = await evaluatePredicate(hostile, {}, { timeoutMs: 1_000 });
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
