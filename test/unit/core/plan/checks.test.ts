import assert from 'node:assert/strict';
import { normalizeChecks } from '../../../../src/core/plan/normalizeChecks';
import { maxChecksPerStep } from '../../../../src/shared/vocabulary';
import { editPlan } from '../../../../src/core/plan/editPlan';
import { parsePlan } from '../../../../src/core/plan/parsePlan';
import { validatePlan } from '../../../../src/core/plan/validatePlan';
import type { Check } from '../../../../src/core/plan/planSchema';
import { stepPatchSchema } from '../../../../src/shared/stepEditSchema';
import { makePlan, makeStep } from '../../../support/randomPlans';

describe('checks in plans', () => {
  describe('normalizeChecks (plan files and model output)', () => {
    it('keeps valid checks and reads the usual aliases: type for kind, a command line for argv', () => {
      const warnings: string[] = [];
      const checks = normalizeChecks(
        [
          { kind: 'file_exists', path: 'dist/app.js' },
          { type: 'Command', command: 'npm  test', expectExitCode: 0 },
          { kind: 'command', cmd: ['node', 'check.js'], cwd: 'pkg' },
          { kind: 'no_new_diagnostics' },
        ],
        'S1',
        warnings,
      );
      assert.deepEqual(warnings, []);
      assert.deepEqual(checks, [
        { kind: 'file_exists', path: 'dist/app.js' },
        { kind: 'command', argv: ['npm', 'test'], expectExitCode: 0 },
        { kind: 'command', argv: ['node', 'check.js'], cwd: 'pkg' },
        { kind: 'no_new_diagnostics' },
      ]);
    });

    it('drops each malformed entry with a warning naming the step, the check and what was wrong', () => {
      const warnings: string[] = [];
      const checks = normalizeChecks(['npm test', { path: 'a' }, { kind: 'command', argv: [] }, { kind: 'file_contains', path: 'a', text: 3 }, { kind: 'file_absent', path: 'b' }], 'S2', warnings);
      assert.deepEqual(checks, [{ kind: 'file_absent', path: 'b' }]);
      assert.deepEqual(warnings, [
        'Step "S2": check 1 was dropped: it is not an object with a "kind" (npm test).',
        'Step "S2": check 2 was dropped: its kind is missing is not one of file_exists, file_absent, file_contains, command, no_new_diagnostics.',
        'Step "S2": check 3 was dropped: argv: Too small: expected array to have >=1 items.',
        'Step "S2": check 4 was dropped: text: Invalid input: expected string, received number.',
      ]);
    });

    it('reads kinds in any case and spacing, command lines split at any whitespace, and prefers argv to a command line', () => {
      const warnings: string[] = [];
      assert.deepEqual(
        normalizeChecks([{ kind: ' FILE_Exists ', path: 'a' }, { kind: 'command', command: '  npm\t run  test ' }, { kind: 'command', argv: ['make'], command: 'npm test' }, { type: 'command', cmd: ['node', 'a b.js'] }], 'S1', warnings),
        [
          { kind: 'file_exists', path: 'a' },
          { kind: 'command', argv: ['npm', 'run', 'test'] },
          { kind: 'command', argv: ['make'] },
          { kind: 'command', argv: ['node', 'a b.js'] },
        ],
      );
      assert.deepEqual(warnings, []);
      normalizeChecks([{ kind: 3, path: 'a' }], 'S1', warnings);
      assert.deepEqual(warnings, ['Step "S1": check 1 was dropped: its kind 3 is not one of file_exists, file_absent, file_contains, command, no_new_diagnostics.']);
    });

    it('ignores a value that is not a list, and keeps at most the cap', () => {
      const warnings: string[] = [];
      assert.deepEqual(normalizeChecks('npm test', 'S3', warnings), []);
      assert.deepEqual(warnings, ['Step "S3": "checks" must be a list of checks, got npm test; it was ignored.']);
      const many = Array.from({ length: maxChecksPerStep + 5 }, () => ({ kind: 'file_exists', path: 'a' }));
      const capped: string[] = [];
      assert.equal(normalizeChecks(many, 'S4', capped).length, maxChecksPerStep);
      assert.deepEqual(capped, [`Step "S4" has ${maxChecksPerStep + 5} checks; only the first ${maxChecksPerStep} were kept.`]);
      assert.deepEqual(normalizeChecks(undefined, 'S5', capped), []);
      assert.deepEqual(normalizeChecks(null, 'S5', capped), []);
      assert.equal(normalizeChecks(many.slice(0, maxChecksPerStep), 'S6', capped).length, maxChecksPerStep);
      assert.equal(capped.length, 1, 'no warning for an absent list, nor for one at the cap');
    });

    it('parsePlan reads a step\'s checks without an "unknown field" warning', () => {
      const parsed = parsePlan(JSON.stringify({ objective: 'o', steps: [{ id: 'S1', title: 't', input: 'do', checks: [{ kind: 'file_exists', path: 'x' }] }] }));
      assert.ok(parsed.ok);
      assert.deepEqual(parsed.plan.steps[0]?.checks, [{ kind: 'file_exists', path: 'x' }]);
      assert.deepEqual(parsed.warnings.filter((warning) => /checks/.test(warning)), []);
    });
  });

  describe('validatePlan', () => {
    const problems = (checks: Check[]): string[] => validatePlan(makePlan([makeStep('S1', { checks })])).map((diagnostic) => diagnostic.message);

    it('accepts well-formed checks', () => {
      assert.deepEqual(problems([{ kind: 'file_contains', path: 'src/a.ts', pattern: '^export' }, { kind: 'command', argv: ['npm', 'test'], cwd: 'pkg' }]), []);
    });

    it('reports, in the user\'s words, a file_contains with nothing to look for, a bad pattern, an empty program and escaping paths', () => {
      assert.deepEqual(
        problems([
          { kind: 'file_contains', path: 'a.txt' },
          { kind: 'file_contains', path: 'a.txt', pattern: '(' },
          { kind: 'command', argv: [' '] },
          { kind: 'file_exists', path: '/etc/passwd' },
          { kind: 'file_absent', path: '../outside.txt' },
          { kind: 'command', argv: ['ls'], cwd: '../..' },
          { kind: 'no_new_diagnostics', paths: ['src/ok.ts', 'C:/Windows/x.ts'] },
        ]),
        [
          'Step "S1": check 1 (file_contains) says neither what text nor what pattern to look for; give "text" or "pattern".',
          'Step "S1": check 2 (file_contains) has a pattern that is not a valid regular expression: Invalid regular expression: /(/m: Unterminated group.',
          'Step "S1": check 3 (command) names no program to run; put the program first in "argv", e.g. ["npm", "test"].',
          'Step "S1": check 4 (file_exists) has a path that leaves the workspace: it is an absolute path outside the workspace. Use a path relative to the workspace folder.',
          'Step "S1": check 5 (file_absent) has a path that leaves the workspace: it climbs out of the workspace root with "..". Use a path relative to the workspace folder.',
          'Step "S1": check 6 (command) has a working directory that leaves the workspace: it climbs out of the workspace root with "..". Use a path relative to the workspace folder.',
          'Step "S1": check 7 (no_new_diagnostics) has a path that leaves the workspace: drive-letter paths are not allowed. Use a path relative to the workspace folder.',
        ],
      );
    });

    it('names a pattern feature the linear-time engine cannot run', () => {
      assert.deepEqual(problems([{ kind: 'file_contains', path: 'a', pattern: '(a)\\1' }]), [
        'Step "S1": check 1 (file_contains) has a pattern that uses backreferences (\\1, \\k<name>), which is not supported: checks run patterns on a linear-time engine (RE2) so that no pattern can freeze them.',
      ]);
    });
  });

  it('editing a step in the panel keeps its checks', () => {
    const checks: Check[] = [{ kind: 'command', argv: ['npm', 'test'] }];
    const plan = makePlan([makeStep('S1', { checks })]);
    const { checks: _none, ...patch } = stepPatchSchema.parse({ title: 'Renamed', kind: 'agent', input: 'do it better' });
    const edited = editPlan(plan, { type: 'updateStep', stepId: 'S1', patch });
    assert.ok(edited.ok);
    assert.deepEqual(edited.plan.steps[0]?.checks, checks);
    assert.equal(edited.plan.steps[0]?.title, 'Renamed');
  });
});
