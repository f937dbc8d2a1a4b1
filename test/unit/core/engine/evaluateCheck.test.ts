import assert from 'node:assert/strict';
import { evaluateCheck, plainText, type CheckEnvironment } from '../../../../src/core/engine/evaluateCheck';
import { resolveRunOptions } from '../../../../src/core/engine/resolveRunOptions';
import { deferAllInteraction } from '../../../../src/core/engine/stepInteraction';
import type { Check } from '../../../../src/core/plan/planSchema';
import type { WorkspaceFs } from '../../../../src/core/ports';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makePlan } from '../../../support/randomPlans';

/** Evaluates `check` directly, as a resumed run of a plan written before validation knew checks could. */
function evaluate(check: Check, workspace: WorkspaceFs = createMemoryWorkspace({ 'a.txt': 'alpha\nbeta\n' })) {
  const env: CheckEnvironment = {
    runId: 'run-1',
    stepId: 's',
    stepTitle: 'Step s',
    options: resolveRunOptions(makePlan([]), { clock: new ManualClock(), workspace }),
    interaction: deferAllInteraction,
    signal: new AbortController().signal,
    changedFiles: () => [],
    diagnosticsBefore: undefined,
  };
  return evaluateCheck(check, env);
}

describe('evaluateCheck', () => {
  it('a path the workspace refuses is a failed check with the reason, which no retry changes', async () => {
    const verdict = await evaluate({ kind: 'file_exists', path: '/etc/passwd' });
    assert.equal(verdict.passed, false);
    assert.equal(verdict.retryable, false);
    assert.match(verdict.detail, /^Refused path "\/etc\/passwd": it is an absolute path outside the workspace/);
  });

  it('a pattern RE2 cannot run is a failed check naming the feature', async () => {
    const verdict = await evaluate({ kind: 'file_contains', path: 'a.txt', pattern: '(a)\\1' });
    assert.deepEqual([verdict.passed, verdict.retryable], [false, false]);
    assert.match(verdict.detail, /^the pattern "\(a\)\\\\1" cannot be used: backreference/);
    const invalid = await evaluate({ kind: 'file_contains', path: 'a.txt', pattern: '(' });
    assert.match(invalid.detail, /^the pattern "\(" cannot be used: Invalid regular expression/);
  });

  it('patterns are multi-line and a file too large to read fails with the reason', async () => {
    assert.equal((await evaluate({ kind: 'file_contains', path: 'a.txt', pattern: '^beta$' })).passed, true);
    const big = createMemoryWorkspace({ 'big.txt': 'x'.repeat(5 * 1024 * 1024) });
    const verdict = await evaluate({ kind: 'file_contains', path: 'big.txt', text: 'y' }, big);
    assert.equal(verdict.passed, false);
    assert.match(verdict.detail, /big\.txt/);
  });

  it('a directory counts as existing, and says so', async () => {
    const verdict = await evaluate({ kind: 'file_exists', path: 'src' }, createMemoryWorkspace({ 'src/a.ts': '' }));
    assert.deepEqual(verdict, { kind: 'file_exists', passed: true, detail: 'src exists (a directory)', retryable: true });
  });

  it('plainText drops colour sequences and escapes the other control characters', () => {
    assert.equal(plainText('\u001b[1;31mFAIL\u001b[0m a\r\nb\rc\u0000\u009b'), 'FAIL a\nb\\u000dc\\u0000\\u009b');
    assert.equal(plainText('\u001b]0;title\u0007after'), 'after');
  });
});
