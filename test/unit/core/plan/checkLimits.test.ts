import assert from 'node:assert/strict';
import { checkLimitProblems, maxCheckArgvItems, maxCheckFieldChars } from '../../../../src/core/plan/checkLimits';
import type { Check } from '../../../../src/core/plan/planSchema';
import { validatePlan } from '../../../../src/core/plan/validatePlan';
import { maxChecksPerStep } from '../../../../src/shared/vocabulary';
import { makePlan, makeStep } from '../../../support/randomPlans';

const long = 'x'.repeat(maxCheckFieldChars + 1);
const problems = (...checks: Check[]): string[] => checkLimitProblems({ id: 'S1', checks });

describe('checkLimitProblems', () => {
  it('finds nothing wrong with a step without checks or with a few ordinary ones', () => {
    assert.deepEqual(checkLimitProblems({ id: 'S1' }), []);
    assert.deepEqual(problems({ kind: 'file_exists', path: 'a.ts' }, { kind: 'command', argv: ['npm', 'test'] }), []);
    const most = Array.from({ length: maxChecksPerStep }, (_, index): Check => ({ kind: 'file_exists', path: `f${index}` }));
    assert.deepEqual(problems(...most), []);
    assert.deepEqual(problems({ kind: 'file_contains', path: 'a', pattern: 'x'.repeat(maxCheckFieldChars) }), []);
    assert.deepEqual(problems({ kind: 'command', argv: Array.from({ length: maxCheckArgvItems }, () => 'a') }), []);
  });

  it('refuses a model plan with 10,000 checks on one step, once', () => {
    const checks = Array.from({ length: 10_000 }, (_, index): Check => ({ kind: 'file_exists', path: `f${index}` }));
    assert.deepEqual(checkLimitProblems({ id: 'S1', checks }), [
      `Step "S1" has 10000 checks; at most ${maxChecksPerStep} are allowed. Keep the few that show the step worked.`,
    ]);
  });

  it('refuses a 1 MB pattern, naming the check and the field', () => {
    assert.deepEqual(problems({ kind: 'file_exists', path: 'a' }, { kind: 'file_contains', path: 'a.txt', pattern: 'a'.repeat(1_000_000) }), [
      `Step "S1": check 2 (file_contains) has a pattern of 1000000 characters; at most ${maxCheckFieldChars} are allowed. Shorten it.`,
    ]);
  });

  it('names every kind of over-long field, and reports only the first over-long check', () => {
    const field = (check: Check): string => problems(check)[0]!.replace(/^Step "S1": check 1 \(\w+\) has an? /, '').replace(/ of \d+ characters.*$/, '');
    assert.equal(field({ kind: 'file_exists', path: long }), 'path');
    assert.equal(field({ kind: 'file_absent', path: long }), 'path');
    assert.equal(field({ kind: 'file_contains', path: long }), 'path');
    assert.equal(field({ kind: 'file_contains', path: 'a', text: long }), 'text');
    assert.equal(field({ kind: 'command', argv: ['echo', long] }), 'command word');
    assert.equal(field({ kind: 'command', argv: ['make'], cwd: long }), 'working folder');
    assert.equal(field({ kind: 'command', argv: ['make'], outputContains: long }), 'expected output');
    assert.equal(field({ kind: 'no_new_diagnostics', paths: ['a.ts', long] }), 'path');
    assert.equal(problems({ kind: 'file_exists', path: long }, { kind: 'file_absent', path: long }).length, 1);
  });

  it('refuses a command of too many words', () => {
    assert.deepEqual(problems({ kind: 'command', argv: Array.from({ length: maxCheckArgvItems + 1 }, () => 'a') }), [
      `Step "S1": check 1 (command) runs a command of ${maxCheckArgvItems + 1} words; at most ${maxCheckArgvItems} are allowed. Shorten it.`,
    ]);
  });
});

describe('validatePlan: checks', () => {
  it('makes a step with too many or too large checks an invalid step, an error the run refuses', () => {
    const pattern = 'p'.repeat(1_000_000);
    const checks = Array.from({ length: 10_000 }, (_, index): Check => ({ kind: 'file_contains', path: `f${index}`, pattern }));
    const diagnostics = validatePlan(makePlan([makeStep('S1', { checks })]));
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity, diagnostic.stepId]),
      [
        ['invalid_step', 'error', 'S1'],
        ['invalid_step', 'error', 'S1'],
      ],
    );
  });
});
