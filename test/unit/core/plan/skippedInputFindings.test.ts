import assert from 'node:assert/strict';
import { critiquePlan } from '../../../../src/core/plan/critiquePlan';
import type { Step } from '../../../../src/core/plan/planSchema';
import { skippedInputFindings } from '../../../../src/core/plan/skippedInputFindings';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { makePlan, makeStep } from '../../../support/randomPlans';

const builtins = createToolRegistry(builtinTools());
const tests = (patch: Partial<Step> = {}, args: Record<string, unknown> = {}): Step =>
  makeStep('test', {
    kind: 'tool',
    agent: undefined,
    input: undefined,
    title: 'Run the tests',
    tool: 'run_command',
    args: { argv: ['python3', '-m', 'pytest', '-q'], ...args },
    ...patch,
  });
const fix = (patch: Partial<Step> = {}): Step =>
  makeStep('fix', { title: 'Fix the failure', input: 'Fix what {{results.test}} reports', dependsOn: ['test'], ...patch });
const found = (steps: Step[]): [string, string, string[]][] =>
  skippedInputFindings(makePlan(steps), builtins).map((finding) => [finding.stepId, finding.kind, finding.dependencies]);

describe('skippedInputFindings: a step that consumes a step that may not succeed (issue 29)', () => {
  it('flags the test-and-fix trap: the fix waits for the tests, which fail exactly when there is something to fix', () => {
    assert.deepEqual(found([tests({ onFailure: 'skip' }), fix()]), [['fix', 'fix', ['test']]]);
    assert.deepEqual(found([tests({ onFailure: 'retry', maxAttempts: 3 }), fix()]), [['fix', 'fix', ['test']]]);
    assert.deepEqual(found([tests({ critical: false }), fix({ kind: 'manual', agent: undefined })]), [['fix', 'fix', ['test']]]);
    // A step whose checks find the failures is a finder too.
    assert.deepEqual(
      found([makeStep('test', { input: 'Implement slugify', checks: [{ kind: 'command', argv: ['npm', 'test'] }], onVerificationFailure: 'skip' }), fix()]),
      [['fix', 'fix', ['test']]],
    );
  });

  it('says what happens in words, and what to write instead', () => {
    const [skipped] = skippedInputFindings(makePlan([tests({ onFailure: 'skip' }), fix()]), builtins);
    assert.equal(
      skipped?.message,
      'Step "fix" is to fix what "test" finds failing, but it runs only when "test" succeeds: when there is something to fix, "fix" is skipped, exactly when it is needed.',
    );
    assert.match(skipped?.recommendation ?? '', /"allowFailure": true .* "when": "results\.<id>\.exitCode !== 0"/);
    const [stopped] = skippedInputFindings(makePlan([tests(), fix()]), builtins);
    assert.match(stopped?.message ?? '', /"fix" is skipped or the run stops, exactly when it is needed\.$/);
  });

  it('leaves the pattern that works alone: the tests allowed to fail, the fix run only then, the tests run again as its check', () => {
    const steps = [
      tests({ onFailure: 'retry', maxAttempts: 2 }, { allowFailure: true }),
      fix({ when: 'results.test.exitCode !== 0', checks: [{ kind: 'command', argv: ['python3', '-m', 'pytest', '-q'] }] }),
    ];
    assert.deepEqual(found(steps), []);
    assert.deepEqual(found([tests({ onFailure: 'replan' }), fix()]), [], 'a repair plan takes the failure over');
    assert.deepEqual(found([tests(), makeStep('deploy', { input: 'Deploy the site', dependsOn: ['test'] })]), [], 'a step that needs the tests green');
  });

  it('warns about any step that needs a step the run may skip', () => {
    const read = makeStep('web', { input: 'Search the web for slugify libraries', critical: false });
    assert.deepEqual(found([read, makeStep('pick', { input: 'Pick one of {{results.web}}', dependsOn: ['web'] })]), [['pick', 'skippable', ['web']]]);
    assert.deepEqual(found([makeStep('a', { onFailure: 'skip' }), makeStep('b', { dependsOn: ['a'], input: '$a' })]), [['b', 'skippable', ['a']]]);
    assert.deepEqual(found([makeStep('a', { verification: 'result.ok', onVerificationFailure: 'skip' }), makeStep('b', { dependsOn: ['a'], input: '$a' })]), [
      ['b', 'skippable', ['a']],
    ]);
    assert.deepEqual(
      found([makeStep('a', { onVerificationFailure: 'skip' }), makeStep('b', { dependsOn: ['a'], input: '$a' })]),
      [],
      'nothing to verify: never skipped for it',
    );
    const [warned] = skippedInputFindings(makePlan([read, makeStep('pick', { input: 'Pick one', dependsOn: ['web'] })]), builtins);
    assert.equal(warned?.message, 'Step "pick" needs "web" (not critical, so skipped when it fails): when it does not succeed, "pick" is skipped too.');
  });

  it('weighs the trap so the plan scores 5 at best (it scored 10 before), a skippable dependency as a warning', () => {
    const trap = critiquePlan(makePlan([tests({ onFailure: 'skip' }), fix({ kind: 'manual', agent: undefined })]), { tools: builtins });
    assert.deepEqual(
      trap.issues.map((issue) => [issue.check, issue.name, issue.severity, issue.stepId]),
      [['skipped_input', 'Needs a step that may not succeed', 'critical', 'fix']],
    );
    assert.equal(trap.score, 5);
    const optional = critiquePlan(makePlan([makeStep('a', { onFailure: 'skip' }), makeStep('b', { dependsOn: ['a'], input: '$a' })]), { tools: builtins });
    assert.equal(optional.score, 9);
  });
});
