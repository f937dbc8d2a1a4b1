import assert from 'node:assert/strict';
import { checkCommandsQuestion, consentFor, describeCheckCommand, planCheckCommands, startQuestionLimits } from '../../../../src/core/engine/checkCommandConsent';
import { newErrors } from '../../../../src/core/engine/newErrors';
import { makePlan, makeStep } from '../../../support/randomPlans';

describe('check commands at Start', () => {
  const plan = makePlan([
    makeStep('a', { checks: [{ kind: 'command', argv: ['npm', 'test'] }, { kind: 'file_exists', path: 'x' }] }),
    makeStep('b', { checks: [{ kind: 'command', argv: ['npm', 'test'] }, { kind: 'command', argv: ['npm', 'test'], cwd: 'pkg' }] }),
    makeStep('c', { skipped: true, checks: [{ kind: 'command', argv: ['rm', '-rf', '/'] }] }),
  ]);

  it('lists every distinct command of the steps that will run, in plan order', () => {
    assert.deepEqual(planCheckCommands(plan), [
      { argv: ['npm', 'test'], cwd: '' },
      { argv: ['npm', 'test'], cwd: 'pkg' },
    ]);
    assert.deepEqual(planCheckCommands(makePlan([makeStep('a')])), []);
    assert.deepEqual(planCheckCommands(plan, { a: 'done' }), [
      { argv: ['npm', 'test'], cwd: '' },
      { argv: ['npm', 'test'], cwd: 'pkg' },
    ], 'a resumed run asks about the steps still to run');
    assert.deepEqual(planCheckCommands(plan, { a: 'done', b: null }), []);
  });

  it('leaves out the commands an allow rule allows: they run without asking', () => {
    assert.deepEqual(planCheckCommands(plan, {}, [['npm', 'test']]), []);
    assert.deepEqual(planCheckCommands(plan, {}, [['npm', 'test', '--watch'], ['npm']]), planCheckCommands(plan), 'a longer rule or a refused one allows nothing');
    const relative = makePlan([makeStep('a', { checks: [{ kind: 'command', argv: ['./check.sh'] }, { kind: 'command', argv: ['./check.sh'], cwd: 'pkg' }] })]);
    assert.deepEqual(planCheckCommands(relative, {}, [['./check.sh']]), [{ argv: ['./check.sh'], cwd: 'pkg' }]);
  });

  it('asks one question naming each command and where it runs, quoting what a reader could misread', () => {
    assert.equal(
      checkCommandsQuestion(planCheckCommands(plan)),
      'This plan runs these commands to check its work:\n  npm test (in the workspace folder)\n  npm test (in pkg)\nAny other command asks you when it runs.\nAllow them for this run?',
    );
    assert.equal(describeCheckCommand({ argv: ['echo', 'a b', 'x;y', 'evil\u202etxt'], cwd: '' }), 'echo "a b" "x;y" "evil\\u202etxt" (in the workspace folder)');
  });

  it('asks at Start about at most 20 commands, each short enough to read; the others are never allowed unseen', () => {
    const many = makePlan([makeStep('a', { checks: Array.from({ length: 50 }, (_, index) => ({ kind: 'command' as const, argv: ['node', `t${index}.js`] })) })]);
    const asked = planCheckCommands(many);
    assert.equal(asked.length, startQuestionLimits.commands);
    assert.deepEqual(asked.at(-1), { argv: ['node', 't19.js'], cwd: '' });
    const consent = { allowed: true, commands: asked };
    assert.equal(consentFor(consent, { argv: ['node', 't20.js'], cwd: '' }), undefined, 'the 21st command asks when it runs');
    const long = { kind: 'command' as const, argv: ['node', '-e', `${'x'.repeat(500)}; require("child_process").execSync("rm -rf ~")`] };
    const hidden = makePlan([makeStep('a', { checks: [long, { kind: 'command', argv: ['npm', 'test'] }] })]);
    assert.deepEqual(planCheckCommands(hidden), [{ argv: ['npm', 'test'], cwd: '' }], 'a command too long to read in the question is left to ask when it runs');
    assert.ok(checkCommandsQuestion(planCheckCommands(many)).length < 2_000);
  });

  it('applies the answer only to the commands that were asked about', () => {
    const consent = { allowed: true, commands: planCheckCommands(plan) };
    assert.equal(consentFor(consent, { argv: ['npm', 'test'], cwd: 'pkg' }), true);
    assert.equal(consentFor({ ...consent, allowed: false }, { argv: ['npm', 'test'], cwd: '' }), false);
    assert.equal(consentFor(consent, { argv: ['npm', 'test', '--', '--bail'], cwd: '' }), undefined);
    assert.equal(consentFor(consent, { argv: ['npm', 'test'], cwd: 'other' }), undefined);
    assert.equal(consentFor(undefined, { argv: ['npm', 'test'], cwd: '' }), undefined);
  });
});

describe('newErrors', () => {
  const error = (path: string, message: string, line = 1, source?: string) => ({ path, line, message, ...(source ? { source } : {}) });

  it('is the errors that were not there before, whatever line they moved to', () => {
    const before = { errors: [error('a.ts', 'old', 3, 'ts')] };
    assert.deepEqual(newErrors(before, [error('a.ts', 'old', 9, 'ts'), error('a.ts', 'new', 4, 'ts')]), [error('a.ts', 'new', 4, 'ts')]);
  });

  it('tells paths and sources apart, and counts an error that appears more often than before', () => {
    const before = { errors: [error('a.ts', 'm')] };
    assert.deepEqual(newErrors(before, [error('b.ts', 'm'), error('a.ts', 'm', 1, 'eslint')]), [error('b.ts', 'm'), error('a.ts', 'm', 1, 'eslint')]);
    assert.deepEqual(newErrors(before, [error('a.ts', 'm', 1), error('a.ts', 'm', 7)]), [error('a.ts', 'm', 7)]);
    assert.deepEqual(newErrors(before, []), []);
  });
});
