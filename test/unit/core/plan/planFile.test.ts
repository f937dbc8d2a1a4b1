import assert from 'node:assert/strict';
import { maxPlanFileStem, maxPlanFileWords, maxProblemsListed, planFileName, planFileProblemsMessage, planFileText, readPlanFile } from '../../../../src/core/plan/planFile';
import { makePlan, makeStep } from '../../../support/randomPlans';

describe('planFile', () => {
  describe('planFileName', () => {
    it('names the file after the objective, in lower-case words joined by dashes', () => {
      assert.equal(planFileName('Fix the login bug'), 'fix-the-login-bug.plan.json');
      assert.equal(planFileName('  Añadir caché: "src/app.ts" & tests!  '), 'anadir-cache-src-app-ts-tests.plan.json');
    });

    it('names it after the title only, a few words: an imported checklist\'s objective goes on with its notes (a newcomer\'s trial)', () => {
      assert.equal(planFileName('Release 0.4 checklist\n\nSome notes about the release, nothing special.'), 'release-0-4-checklist.plan.json');
      assert.equal(planFileName('\n  \nShip it\nand more'), 'ship-it.plan.json');
      assert.equal(planFileName('Add a changelog entry for every merged pull request since the last tag'), 'add-a-changelog-entry-for-every.plan.json');
      assert.ok(maxPlanFileWords <= 6 && maxPlanFileStem <= 40);
    });

    it('never makes a path, a hidden file, a reserved device name or an empty name', () => {
      assert.equal(planFileName('../../etc/passwd'), 'etc-passwd.plan.json');
      assert.equal(planFileName('.env'), 'env.plan.json');
      assert.equal(planFileName('CON'), 'plan-con.plan.json');
      assert.equal(planFileName('lpt1'), 'plan-lpt1.plan.json');
      assert.equal(planFileName(''), 'plan.plan.json');
      assert.equal(planFileName('日本語のタスク \u202E'), 'plan.plan.json');
    });

    it('cuts a long objective at a word, and a single huge word at the limit', () => {
      const name = planFileName('word '.repeat(1_000));
      assert.ok(name.length <= maxPlanFileStem + '.plan.json'.length);
      assert.match(name, /^word(-word)+\.plan\.json$/);
      assert.equal(planFileName('x'.repeat(500)), `${'x'.repeat(maxPlanFileStem)}.plan.json`);
    });
  });

  it('writes the plan as indented JSON ending in a newline', () => {
    const plan = makePlan([makeStep('a')]);
    const text = planFileText(plan);
    assert.ok(text.startsWith('{\n  "id": "plan-test",\n'));
    assert.ok(text.endsWith('}\n'));
    assert.deepEqual(JSON.parse(text), plan);
  });

  describe('readPlanFile', () => {
    it('reads a plan, loosely as the command line does, with its warnings', () => {
      const reading = readPlanFile('{ "objective": "x", "steps": [{ "id": "a", "tool": "read_file", "args": { "path": "a" }, "colour": "red" }], }', { tools: ['read_file'] });
      assert.ok(reading.ok);
      assert.equal(reading.plan.steps[0]?.kind, 'tool');
      // The trailing comma is repaired, and said first: Run plan file then opens the review instead of running (a newcomer's
      // file missing a comma ran with nothing said).
      assert.deepEqual(reading.warnings, [
        'The file is not valid JSON as written (Expected double-quoted property name in JSON at position 109); it was read repaired: fix it, so that other tools read it the same.',
        'Step "a": ignored unknown field "colour".',
      ]);
      const strict = readPlanFile('{ "objective": "x", "steps": [{ "id": "a", "tool": "read_file", "args": { "path": "a" } }] }', { tools: ['read_file'] });
      assert.deepEqual(strict.ok && strict.warnings, []);
    });

    it('gives every parse error of text that is not a plan', () => {
      const reading = readPlanFile('{ "objective": "no steps" }');
      assert.deepEqual(reading, { ok: false, problems: ['No step list found. Give the steps as an array under "steps" (or "tasks", "workflow", "phases", or the same keys under "plan").'] });
      const prose = readPlanFile('not json at all {{{');
      assert.ok(!prose.ok);
      assert.deepEqual(prose.problems.length, 1);
      assert.match(prose.problems[0]!, /^It is not valid JSON \(.+\), even after repairing what a missing comma or bracket would\.$/);
    });

    it('gives every validation error of a plan that cannot run: unknown tools, cycles, missing dependencies', () => {
      const text = JSON.stringify({ steps: [{ id: 'a', tool: 'no_such_tool', args: {}, dependsOn: ['b'] }, { id: 'b', tool: 'read_file', args: { path: 'x' }, dependsOn: ['a', 'zz'] }] });
      const reading = readPlanFile(text, { tools: ['read_file'] });
      assert.ok(!reading.ok);
      assert.ok(reading.problems.length >= 3, reading.problems.join('\n'));
      assert.ok(reading.problems.some((problem) => problem.includes('no_such_tool')));
      assert.ok(reading.problems.some((problem) => problem.includes('zz')));
      assert.ok(reading.problems.some((problem) => /cycle/i.test(problem)));
    });
  });

  it('says the file and its problems in one message, the first few listed, controls shown, long ones cut', () => {
    assert.equal(planFileProblemsMessage('a.plan.json', ['Step "a": bad.']), 'a.plan.json is not a plan that can run (a problem): Step "a": bad.');
    const many = Array.from({ length: maxProblemsListed + 3 }, (_, index) => `P${index}.`);
    const message = planFileProblemsMessage('b\u202Eexe.plan.json', many);
    assert.match(message, /^b\\u202eexe\.plan\.json is not a plan that can run \(8 problems\): P0\. P1\. P2\. P3\. P4\. And 3 more\.$/);
    assert.ok(planFileProblemsMessage('c', ['x'.repeat(100_000)]).length < 400);
  });
});
