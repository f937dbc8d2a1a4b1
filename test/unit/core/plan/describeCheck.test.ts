import assert from 'node:assert/strict';
import { describeCheck, describeChecks, maxCheckValueChars } from '../../../../src/core/plan/describeCheck';
import type { Check } from '../../../../src/core/plan/planSchema';

describe('describeCheck', () => {
  it('says each kind of check in plain words', () => {
    const cases: [Check, string][] = [
      [{ kind: 'file_exists', path: 'src/a.ts' }, 'file exists src/a.ts'],
      [{ kind: 'file_absent', path: 'old.log' }, 'file absent old.log'],
      [{ kind: 'file_contains', path: 'notes.md', text: '- [ ] todo' }, 'notes.md contains "- [ ] todo"'],
      [{ kind: 'file_contains', path: 'package.json', pattern: '"version": "\\d+' }, 'package.json matches /"version": "\\d+/'],
      [{ kind: 'file_contains', path: 'a.md', text: 'x', pattern: 'y+' }, 'a.md contains "x" and matches /y+/'],
      [{ kind: 'file_contains', path: 'a.md' }, 'file exists a.md'],
      [{ kind: 'command', argv: ['npm', 'test'] }, 'command npm test exits 0'],
      [{ kind: 'command', argv: ['make', 'lint'], cwd: 'web', expectExitCode: 2, outputContains: 'ok' }, 'command make lint in web exits 2, output contains "ok"'],
      [{ kind: 'no_new_diagnostics' }, 'no new errors in the changed files'],
      [{ kind: 'no_new_diagnostics', paths: [] }, 'no new errors in the changed files'],
      [{ kind: 'no_new_diagnostics', paths: ['a.ts', 'b.ts'] }, 'no new errors in a.ts, b.ts'],
    ];
    for (const [check, words] of cases) assert.equal(describeCheck(check), words);
  });

  it('cuts a huge value (a 1 MB pattern) to a short, marked line', () => {
    const line = describeCheck({ kind: 'file_contains', path: 'a.txt', pattern: 'x'.repeat(1_000_000) });
    assert.equal(line, `a.txt matches /${'x'.repeat(maxCheckValueChars - 1)}…/`);
    assert.equal(describeCheck({ kind: 'file_exists', path: 'p'.repeat(maxCheckValueChars) }), `file exists ${'p'.repeat(maxCheckValueChars)}`);
    assert.equal(describeCheck({ kind: 'file_exists', path: 'p'.repeat(maxCheckValueChars + 1) }), `file exists ${'p'.repeat(maxCheckValueChars - 1)}…`);
  });

  it('never cuts a character outside the basic plane in two', () => {
    const path = `${'a'.repeat(maxCheckValueChars - 2)}😀tail`;
    assert.equal(describeCheck({ kind: 'file_exists', path }), `file exists ${'a'.repeat(maxCheckValueChars - 2)}…`);
  });

  it('shows control characters in a path as escapes, so one check stays one line and cannot drive a terminal', () => {
    const line = describeCheck({ kind: 'file_exists', path: 'a\nb\u001b[2J\r\u0085c\u202eevil\u007f\t' });
    assert.equal(line, 'file exists a\\u000ab\\u001b[2J\\u000d\\u0085c\\u202eevil\\u007f\\u0009');
    assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f\u202e]/);
  });
});

describe('describeChecks', () => {
  it('says nothing for a step without checks', () => {
    assert.equal(describeChecks(undefined), undefined);
    assert.equal(describeChecks([]), undefined);
  });

  it('lists the checks on one line', () => {
    assert.equal(
      describeChecks([{ kind: 'file_exists', path: 'notes.md' }, { kind: 'command', argv: ['npm', 'test'] }]),
      'file exists notes.md; command npm test exits 0',
    );
  });

  it('lists five of 10,000 checks and counts the rest', () => {
    const checks: Check[] = Array.from({ length: 10_000 }, (_, index) => ({ kind: 'file_exists', path: `f${index}` }));
    assert.equal(describeChecks(checks), 'file exists f0; file exists f1; file exists f2; file exists f3; file exists f4; and 9995 more');
  });
});
